"""A hall's evening with faults: score-pads entering hands while the cache, then the broker, go
away and come back. Counts what was lost, doubled or wrong, and every 5xx.

Run from the project root (PostgreSQL on loopback, ``redis-server`` installed)::

    .venv/bin/python benchmarks/fault_load.py --pads 32 --hands 320

What runs: two Redis servers of the script's own on free loopback ports (one the cache,
``REDIS_URL``; one the broker), gunicorn as deployed (``deploy/gunicorn.conf.py``), and a
Celery worker with its beat, started again five seconds after it exits as the deployed units are
(Celery's worker can exit when the broker goes away mid-read; the run counts how often), each
stopped (and the database dropped) however the script ends: a step of the set-up that fails,
the end of the run, Ctrl-C or SIGTERM. ``--match-pads`` of the
``--pads`` score-pads keep score at a tournament's tables (pools of ``--pool-size`` teams, one
a table, best of three games): each starts its matches' games through the API and plays them to
the end of the match. The others enter casual games, made beforehand. Every hand was played in
advance by the engine's simulator (as ``benchmarks/api_bench.py`` prepares them) and is sent
through the API with a token, an ``Idempotency-Key`` and the hand number, and each pad:

* retries a request that failed (a 5xx, a 429, a dropped connection) with the same key, up to
  five times;
* now and then races a second pad for the same hand (a new key): one must get 201, the
  other 409 ``hand_exists``;
* now and then corrects a hand with a stale ``If-Match``: it must get 412;
* now and then undoes its last hand (with the game's version) and enters it again.

While the first quarter to the first half of the submissions is sent, the cache's Redis is
stopped; from 60% to 80%, the broker's. Once both are back, the script waits for what was
recorded while the broker was away, or lost with it (``scoring.ResultChange`` rows, kept until
the match's update has run), to be delivered and for every match to agree with its games.

At the end, against the database: hands lost (a 201 with no hand), doubled (more counting
hands than the pad entered), games whose totals differ from the sum of their counting hands,
every 5xx, matches whose state, winner or games won differ from what their games say (and from
who won them at the table), and how long all of it took to converge after the broker came
back. CPU time of this script (``time.process_time``) is printed beside the wall time.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import http.client
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import api_bench as bench  # noqa: E402 - the setup and the score-pads of the benchmark


class RedisServer:
    """A ``redis-server`` of this script's own, stopped and started again at will; as a
    context manager, stopped and its directory removed on the way out, however it is left."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.port = bench.free_port()
        self.dir = Path(tempfile.mkdtemp(prefix=f"fault-load-{name}-"))
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> RedisServer:
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(  # noqa: S603 - fixed command
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            done = subprocess.run(  # noqa: S603 - fixed command
                ["redis-cli", "-p", str(self.port), "ping"],  # noqa: S607
                capture_output=True,
                check=False,
            )
            if done.stdout.strip() == b"PONG":
                return
            time.sleep(0.1)
        self.stop()
        raise SystemExit(f"redis-server for the {self.name} did not start")

    def stop(self) -> None:
        """Kill the server (as a crash: nothing is saved, every connection drops) and wait
        for it, so no process is left behind, not even a zombie."""
        process, self.process = self.process, None
        if process is not None:
            process.kill()
            process.wait()


def process_end(process: subprocess.Popen[bytes], grace: float = 30) -> None:
    """Ask ``process`` to stop, give it ``grace`` seconds, then kill it; wait for it."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class Supervised:
    """A process started again whenever it exits, five seconds later, as the deployed units
    are (``Restart=on-failure``, ``RestartSec=5`` in deploy/systemd; ``restart:
    unless-stopped`` in deploy/compose.yml): a worker that dies with the broker comes back."""

    def __init__(self, start: Callable[[], subprocess.Popen[bytes]], name: str) -> None:
        self._start = start
        self.name = name
        self.process = start()
        self.restarts: list[tuple[float, int | None]] = []  # (when, exit code)
        self._stopping = threading.Event()
        self._watch = threading.Thread(target=self._run, name=f"supervise {name}", daemon=True)
        self._watch.start()

    def _run(self) -> None:
        while not self._stopping.wait(1.0):
            code = self.process.poll()
            if code is None:
                continue
            if self._stopping.wait(5.0):
                return
            self.restarts.append((time.monotonic(), code))
            print(f"  {self.name} exited ({code}): started again", flush=True)
            self.process = self._start()

    def stop(self) -> None:
        self._stopping.set()
        self._watch.join()
        process_end(self.process)


def database_drop(server_url: str, name: str) -> None:
    """Drop the run's database on the way out; a failure is said, and the rest of the
    clean-up goes on."""
    try:
        bench.drop_database(server_url, name)
    except Exception as exc:  # noqa: BLE001 - reported, and nothing else to undo
        print(f"database {name} not dropped: {exc}", file=sys.stderr)


def terminated(signum: int, frame: object) -> None:
    """SIGTERM ends the script as Ctrl-C does: through its clean-up."""
    raise SystemExit(128 + signum)


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: collections.Counter[str] = collections.Counter()
        self.server_errors: list[str] = []
        self.retries = 0
        self.submissions = 0
        self.races = self.race_ok = 0
        self.stale = self.stale_ok = 0
        self.undos = self.undo_ok = 0
        self.entered: collections.Counter[int] = collections.Counter()  # game -> hands counting
        self.match_games: collections.defaultdict[int, list[int]] = collections.defaultdict(list)
        self.match_games_refused = 0

    def count(self, what: str, status: int, body: bytes) -> None:
        with self.lock:
            self.submissions += 1
            self.statuses[f"{what} {status}"] += 1
            if status >= 500:
                self.server_errors.append(f"{what} {status} {body[:160]!r}")


def _code(body: bytes) -> str:
    try:
        return str(json.loads(body).get("code", ""))
    except (ValueError, AttributeError):
        return ""


@dataclass(frozen=True)
class MatchPlan:
    """A match as its table will play it: each game's first dealer and hands (played in
    advance by the engine's simulator), until one side has won two; and who that is."""

    match_id: int
    home_wins: bool
    games: tuple[tuple[int, tuple[dict[str, Any], ...]], ...]


@dataclass(frozen=True)
class MatchPad:
    """A tournament table's score-pad: its account's token and the matches of its pool."""

    token: str
    matches: tuple[MatchPlan, ...]

    @property
    def hand_count(self) -> int:
        return sum(len(hands) for plan in self.matches for _dealer, hands in plan.games)


def prepare_matches(pads: int, needed: int, seed: int, pool_size: int) -> list[MatchPad]:
    """A running tournament set up as a director would (pools of ``pool_size`` teams, one a
    pad, then a knockout; best of three games), with a director's account and token for each
    table; each pad's matches are those of its pool (no team plays at two tables at once),
    their games simulated until the pad has at least ``needed`` hands."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone

    from scoring.engine import preset, simulate_game
    from tarabish_site.core.models import DeviceToken
    from tournaments.models import Match
    from tournaments.services.setup import Setup, tournament_setup

    users = get_user_model().objects
    organiser = users.create_user("director", password=None, is_staff=True)
    teams = "\n".join(
        f"Table {p + 1} team {t + 1}: Player {p}-{t} one & Player {p}-{t} two"
        for p in range(pads)
        for t in range(pool_size)
    )
    tournament = tournament_setup(
        actor=organiser,
        setup=Setup(
            name="Fault load open",
            starts_on=timezone.localdate(),
            format="pools_single",
            teams=teams,
            match_games=3,
            pool_count=pads,
            qualifiers_per_pool=1 if pads > 1 else 2,
        ),
    )
    rules = preset(tournament.ruleset_preset or "cape-breton-standard")
    rng = random.Random(seed + 7919)
    pools = collections.defaultdict(list)
    for match in Match.objects.filter(stage__tournament=tournament, pool__isnull=False).order_by(
        "pool_id", "round_id", "number"
    ):
        pools[match.pool_id].append(match.pk)
    out = []
    for n, match_ids in enumerate(pools.values()):
        user = users.create_user(f"table{n}", password=None)
        tournament.directors.add(user)
        _, token = DeviceToken.objects.create(user=user, device=f"Table {n + 1}")
        plans: list[MatchPlan] = []
        count = 0
        for match_id in match_ids:
            if count >= needed:
                break
            wins = [0, 0]
            games = []
            while max(wins) < 2:
                played = simulate_game(rules, rng)
                if not played.progress.over:  # endless voids: not a game a table plays
                    continue
                wins[int(played.progress.winner or 0)] += 1
                bodies = []
                for hand in played.hands:
                    summary = hand.summary.to_json()
                    summary.pop("dealer")
                    bodies.append({"entry_kind": "summary", **summary})
                games.append((played.first_dealer, tuple(bodies)))
                count += len(bodies)
            plans.append(MatchPlan(match_id, wins[0] == 2, tuple(games)))
        out.append(MatchPad(token, tuple(plans)))
    connection.close()
    return out


class PadSession:
    """One score-pad's connections and its way of sending: every request retried with its key
    after a 5xx, a 429 or a dropped connection, and counted."""

    def __init__(self, token: str, port: int, tally: Tally, rng: random.Random) -> None:
        self.port = port
        self.tally = tally
        self.rng = rng
        self.client = bench.Client(port)
        self.rival = bench.Client(port)
        self.auth = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def send(
        self,
        conn: bench.Client,
        path: str,
        body: dict[str, Any],
        headers: dict[str, str],
        what: str,
    ) -> tuple[int, bytes]:
        tally = self.tally
        for attempt in range(6):
            try:
                status, answer = conn.post(
                    path, json.dumps(body).encode(), {**self.auth, **headers}
                )
            except OSError as exc:
                status, answer = 599, str(exc).encode()
            tally.count(what, status, answer)
            if status < 500 and status != 429:
                return status, answer
            if attempt < 5:
                with tally.lock:
                    tally.retries += 1
                time.sleep(0.2 * (attempt + 1))
        return status, answer

    def put(self, path: str, body: dict[str, Any], headers: dict[str, str]) -> int:
        conn = self.client.conn
        try:
            conn.request("PUT", path, body=json.dumps(body), headers={**self.auth, **headers})
            response = conn.getresponse()
            answer = response.read()
        except OSError as exc:
            self.client.conn.close()
            self.client.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self.tally.count("correct", 599, str(exc).encode())
            return 599
        self.tally.count("correct", response.status, answer)
        return response.status

    def start_match_game(self, match_id: int, first_dealer: int) -> int | None:
        """Start the match's next game as its table would (retried with one key): its id."""
        status, answer = self.send(
            self.client,
            f"/api/v1/matches/{match_id}/games/",
            {"first_dealer": first_dealer},
            {"Idempotency-Key": uuid.uuid4().hex},
            "match game",
        )
        if status != 201:
            return None
        counted = [link for link in json.loads(answer)["games"] if not link["discarded"]]
        return int(counted[-1]["game"])

    def enter(self, game_id: int, body: dict[str, Any], progress: list[int]) -> None:
        """One hand of the game: now and then raced by another pad, corrected with a stale
        ``If-Match``, or undone and entered again."""
        tally, rng, client, rival = self.tally, self.rng, self.client, self.rival
        path = f"/api/v1/games/{game_id}/hands/"
        key = {"Idempotency-Key": uuid.uuid4().hex}
        if rng.random() < 0.05:  # another pad enters the same hand at the same moment
            answers: list[tuple[int, bytes]] = []

            def race() -> None:
                answers.append(
                    self.send(rival, path, body, {"Idempotency-Key": uuid.uuid4().hex}, "race")
                )

            other = threading.Thread(target=race)
            other.start()
            status, answer = self.send(client, path, body, key, "hand")
            other.join()
            pair = sorted([status, answers[0][0]])
            codes = {_code(answer), _code(answers[0][1])}
            with tally.lock:
                tally.races += 1
                tally.race_ok += pair == [201, 409] and "hand_exists" in codes
                tally.entered[game_id] += pair.count(201)
        else:
            status, answer = self.send(client, path, body, key, "hand")
            if status == 201:
                with tally.lock:
                    tally.entered[game_id] += 1
        with tally.lock:
            progress[0] += 1
        if status != 201:
            return
        game = json.loads(answer)["game"]
        if rng.random() < 0.03:  # a correction sent with an ETag read before the hand changed
            with tally.lock:
                tally.stale += 1
            got = self.put(
                f"{path}{body['number']}/",
                {**{k: v for k, v in body.items() if k != "number"}, "reason": "miscounted"},
                {"If-Match": '"0"'},
            )
            with tally.lock:
                tally.stale_ok += got == 412
        if game["status"] == "in_progress" and rng.random() < 0.03:  # undo, then enter again
            with tally.lock:
                tally.undos += 1
            status, _ = self.send(
                client,
                f"{path}undo-last/",
                {"reason": "wrong caller"},
                {"If-Match": f'"{game["version"]}"', "Idempotency-Key": uuid.uuid4().hex},
                "undo",
            )
            if status == 200:
                with tally.lock:
                    tally.entered[game_id] -= 1
                again, _ = self.send(
                    client, path, body, {"Idempotency-Key": uuid.uuid4().hex}, "hand again"
                )
                with tally.lock:
                    tally.undo_ok += again == 201
                    tally.entered[game_id] += again == 201


def pad_run(
    pad: bench.Pad, port: int, tally: Tally, rng: random.Random, progress: list[int]
) -> None:
    """A casual game's pad: its games, made beforehand, hand by hand."""
    session = PadSession(pad.token, port, tally, rng)
    for game_id, body in pad.hands:
        session.enter(game_id, body, progress)


def match_pad_run(
    pad: MatchPad, port: int, tally: Tally, rng: random.Random, progress: list[int]
) -> None:
    """A match table's pad: each of its matches' games started through the API, then played
    to its end, until the match is won as the table counts it."""
    session = PadSession(pad.token, port, tally, rng)
    for plan in pad.matches:
        for first_dealer, hands in plan.games:
            game_id = session.start_match_game(plan.match_id, first_dealer)
            if game_id is None:
                with tally.lock:
                    tally.match_games_refused += 1
                    progress[0] += len(hands)
                continue
            with tally.lock:
                tally.match_games[plan.match_id].append(game_id)
            for number, body in enumerate(hands, start=1):
                session.enter(game_id, {"number": number, **body}, progress)


def wait_for_worker(env: dict[str, str]) -> None:
    """Wait until the worker answers a ping, as a deployed worker would be running before the
    evening starts: what is sent before it is ready sits in the broker's queue, and is lost
    with it if the broker is stopped first."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ping = subprocess.run(  # noqa: S603 - fixed command
            [bench.PYTHON, "-m", "celery", "-A", "tarabish_site", "inspect", "ping", "-t", "2"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            check=False,
        )
        if ping.returncode == 0:
            return
        time.sleep(1)
    raise SystemExit("the Celery worker did not answer within 120 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pads", type=int, default=32)
    parser.add_argument("--hands", type=int, default=320, help="hands per pad")
    parser.add_argument(
        "--match-pads",
        type=int,
        default=8,
        help="of the pads, how many keep score at a tournament's tables (the rest: casual games)",
    )
    parser.add_argument("--pool-size", type=int, default=6, help="teams in each table's pool")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--db", default="tarabish_fault_load")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, terminated)
    started_wall, started_cpu = time.perf_counter(), time.process_time()
    # Everything set up is undone on the way out, in reverse order, whichever way that is: a
    # step of the set-up that fails, the run's end, Ctrl-C or SIGTERM.
    with contextlib.ExitStack() as stack:
        cache = stack.enter_context(RedisServer("cache"))
        broker = stack.enter_context(RedisServer("broker"))
        cache.start()
        broker.start()
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": bench.SETTINGS,
            "DATABASE_URL": f"{args.server.rstrip('/')}/{args.db}",
            "TARABISH_ENV": "development",
            "REDIS_URL": cache.url,
            "CELERY_BROKER_URL": broker.url,
            "GUNICORN_MAX_REQUESTS": "0",
            "PYTHONUNBUFFERED": "1",
        }
        os.environ.clear()
        os.environ.update(env)
        stack.callback(database_drop, args.server, args.db)
        bench.fresh_database(args.server, args.db, env)
        casual = args.pads - args.match_pads
        pads = bench.prepare(casual, args.hands, args.seed)
        match_pads = prepare_matches(args.match_pads, args.hands, args.seed, args.pool_size)
        port = bench.free_port()
        logs = Path(tempfile.mkdtemp(prefix="fault-load-logs-"))
        server = bench.start_gunicorn(env, port, logs / "gunicorn.log")
        stack.callback(process_end, server)
        worker_log = stack.enter_context((logs / "worker.log").open("wb"))

        def start_worker() -> subprocess.Popen[bytes]:
            return subprocess.Popen(  # noqa: S603 - fixed command
                [
                    bench.PYTHON,
                    "-m",
                    "celery",
                    "-A",
                    "tarabish_site",
                    "worker",
                    "--beat",
                    "--schedule",
                    str(logs / "beat-schedule"),
                    "--concurrency",
                    "1",
                    "--loglevel",
                    "WARNING",
                ],
                cwd=ROOT,
                env=env,
                stdout=worker_log,
                stderr=subprocess.STDOUT,
            )

        worker = Supervised(start_worker, "the Celery worker")
        stack.callback(worker.stop)
        wait_for_worker(env)
        total = casual * args.hands + sum(pad.hand_count for pad in match_pads)
        progress = [0]
        tally = Tally()
        events: list[str] = []
        broker_back = 0.0
        rngs = [random.Random(args.seed + n) for n in range(args.pads)]
        threads = [
            threading.Thread(target=pad_run, args=(pad, port, tally, rng, progress), daemon=True)
            for pad, rng in zip(pads, rngs[:casual], strict=True)
        ] + [
            threading.Thread(
                target=match_pad_run, args=(pad, port, tally, rng, progress), daemon=True
            )
            for pad, rng in zip(match_pads, rngs[casual:], strict=True)
        ]
        run_started = time.monotonic()
        for thread in threads:
            thread.start()
        plan = [
            (0.25, "cache down", cache.stop),
            (0.45, "cache back", cache.start),
            (0.60, "broker down", broker.stop),
            (0.80, "broker back", broker.start),
        ]
        while any(thread.is_alive() for thread in threads):
            while plan and progress[0] >= plan[0][0] * total:
                _share, name, act = plan.pop(0)
                act()
                if name == "broker back":
                    broker_back = time.monotonic()
                events.append(f"{time.monotonic() - run_started:6.1f} s {name}")
                print(f"  {events[-1]} ({progress[0]} of {total} hands sent)")
            time.sleep(0.05)
        for _share, name, act in plan:  # a short run may end before the plan does
            act()
            if name == "broker back":
                broker_back = time.monotonic()
        run_wall = time.monotonic() - run_started

        import django

        django.setup()
        from django.db.models import Count, Q, Sum

        from scoring.models import Game, Hand, ResultChange
        from tournaments.models import Match
        from tournaments.services import match_outcome

        plans = {p.match_id: p for pad in match_pads for p in pad.matches}

        def pending() -> int:
            return ResultChange.objects.count()

        def disagreeing() -> list[int]:
            """The matches whose state, winner or games differ from what their games say."""
            wrong = []
            for match in Match.objects.filter(pk__in=plans).select_related("stage", "home", "away"):
                outcome = match_outcome(match)
                shown = (match.state, match.winner_id, match.home_games, match.away_games)
                derived = (
                    outcome.state,
                    outcome.winner_id,
                    outcome.result.home_games,
                    outcome.result.away_games,
                )
                if shown != derived:
                    wrong.append(match.pk)
            return wrong

        waiting = pending()
        disagreeing_at_end = len(disagreeing())
        # a change whose match update was lost is sent again once 60 s old (every 30 s),
        # and every match is set right every 300 s
        deadline = time.monotonic() + 420
        while (pending() or disagreeing()) and time.monotonic() < deadline:
            time.sleep(2)
        converged = time.monotonic() - broker_back if not pending() and not disagreeing() else None
        matches_disagreeing = len(disagreeing())
        matches_wrong_winner = 0
        matches_not_over = 0
        for match in Match.objects.filter(pk__in=plans):
            planned = plans[match.pk]
            played = len(tally.match_games[match.pk]) == len(planned.games)
            if played and match.state != Match.State.COMPLETE:
                matches_not_over += 1
            elif played:
                expected = match.home_id if planned.home_wins else match.away_id
                matches_wrong_winner += match.winner_id != expected
        counting = dict(
            Hand.objects.active()
            .values("game_id")
            .annotate(n=Count("id"))
            .values_list("game_id", "n")
        )
        lost = sum(max(n - counting.get(game, 0), 0) for game, n in tally.entered.items())
        doubled = sum(max(counting.get(game, 0) - n, 0) for game, n in tally.entered.items())
        sums = (
            Game.objects.annotate(
                a=Sum("hands__points_a", filter=Q(hands__undone=False)),
                b=Sum("hands__points_b", filter=Q(hands__undone=False)),
            )
            .filter(hands_played__gt=0)
            .values_list("score_a", "score_b", "a", "b")
        )
        wrong = sum(1 for sa, sb, a, b in sums if (sa, sb) != (a or 0, b or 0))

    print(f"\n{args.pads} pads, {total} hands, {tally.submissions} submissions in {run_wall:.1f} s")
    for name, count in sorted(tally.statuses.items()):
        print(f"  {name:<20} {count:>6}")
    print(f"retries: {tally.retries}")
    print(f"races for one hand: {tally.races}, answered 201 + 409 hand_exists: {tally.race_ok}")
    print(f"stale If-Match corrections: {tally.stale}, answered 412: {tally.stale_ok}")
    print(f"undo then enter again: {tally.undos}, entered again: {tally.undo_ok}")
    print(f"hands lost: {lost}; doubled: {doubled}; games with wrong totals: {wrong}")
    print(f"5xx answers: {len(tally.server_errors)} {tally.server_errors[:3]}")
    match_games = sum(len(games) for games in tally.match_games.values())
    print(
        f"tournament matches: {len(plans)} played by {args.match_pads} pads, {match_games} "
        f"games started ({tally.match_games_refused} refused); when the load ended, "
        f"{disagreeing_at_end} disagreed with their games; after recovery: {matches_disagreeing} "
        f"disagreeing, {matches_not_over} not over though every game was played, "
        f"{matches_wrong_winner} with another winner than their games'"
    )
    if not waiting:
        print("result changes waiting when the load ended: none (delivered as they committed)")
    else:
        print(f"result changes waiting when the load ended: {waiting}")
    print(
        "every result change delivered and every match agreeing with its games: "
        + (f"{converged:.1f} s after the broker came back" if converged is not None else "NOT yet")
    )
    print("events: " + "; ".join(events))
    print(
        f"Celery worker exits (started again 5 s later, as deployed): {len(worker.restarts)}"
        + "".join(f"; at {when - run_started:.1f} s, code {code}" for when, code in worker.restarts)
    )
    print(
        f"wall {time.perf_counter() - started_wall:.1f} s, "
        f"cpu {time.process_time() - started_cpu:.1f} s (this script)"
    )


if __name__ == "__main__":
    main()
