"""Hands entered per second through the HTTP API, beside a bare endpoint that inserts a row.

Run from the project root (PostgreSQL and Redis on loopback)::

    .venv/bin/python benchmarks/api_bench.py --pads 32 --hands 25

What it does, start to end:

1. creates a dedicated PostgreSQL database (``--db``, dropped first if it exists) and migrates
   it;
2. makes one account and token per score-pad and the bare endpoint's table, and plays each
   pad's games in advance with the engine's simulator (Cape Breton standard to 500: calls,
   runs, bella, baits; a game is about eight hands), creating the games in the database;
3. starts gunicorn with ``deploy/gunicorn.conf.py`` on a free loopback port, with
   ``benchmarks.api_settings`` (the service's URLs plus ``POST /bench/bare/``, throttles out of
   the way) and Celery tasks sent to Redis on a queue of the benchmark's own (purged after), as
   in production;
4. drives it with ``--pads`` threads, each one score-pad with a keep-alive connection: in each
   round first every pad sends ``--hands`` bare inserts, then as many inserts through DRF with
   token authentication (a second reference), then every pad enters ``--hands`` hands
   with ``POST /api/v1/games/{id}/hands/`` (token, ``Idempotency-Key``, the hand number),
   moving to its next game when one is over;
5. prints requests per second and p50/p99 latency of both, and the ratio; checks that the
   database holds exactly one hand per 201 answer; stops gunicorn and drops the database.

The goal on a 2-core machine is at least 60% of the bare endpoint's throughput and p99 under
100 ms at 32 concurrent score-pads. The load average is printed before each phase: the machine
may be shared, and every figure moves with it.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PYTHON = sys.executable
SETTINGS = "benchmarks.api_settings"


@dataclass
class Phase:
    """What one phase measured."""

    name: str
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, status: int, seconds: float) -> None:
        with self.lock:
            self.latencies.append(seconds)
            self.statuses[status] = self.statuses.get(status, 0) + 1

    @property
    def ok(self) -> int:
        return sum(n for status, n in self.statuses.items() if 200 <= status < 300)

    @property
    def rate(self) -> float:
        return self.ok / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))
        return ordered[index] * 1000

    def line(self) -> str:
        errors = {s: n for s, n in sorted(self.statuses.items()) if not 200 <= s < 300}
        return (
            f"{self.name:<34} {self.ok:>6} ok in {self.seconds:6.2f} s  "
            f"{self.rate:8.1f} /s   p50 {self.percentile(50):6.1f} ms   "
            f"p99 {self.percentile(99):6.1f} ms" + (f"   errors {errors}" if errors else "")
        )


# ------------------------------------------------------------------------------ the database


def recreate_database(server_url: str, name: str) -> None:
    import psycopg

    parts = urlsplit(server_url)
    with psycopg.connect(
        host=parts.hostname,
        port=parts.port or 5432,
        user=parts.username or "postgres",
        password=parts.password,
        dbname="postgres",
        autocommit=True,
    ) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(server_url: str, name: str) -> None:
    import psycopg

    parts = urlsplit(server_url)
    with psycopg.connect(
        host=parts.hostname,
        port=parts.port or 5432,
        user=parts.username or "postgres",
        password=parts.password,
        dbname="postgres",
        autocommit=True,
    ) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass(frozen=True)
class Pad:
    """One score-pad: its account's token and the hands it will enter, game after game."""

    token: str
    hands: tuple[tuple[int, dict[str, Any]], ...]  # (game id, body)


def prepare(pads: int, hands: int, rounds: int, seed: int) -> list[Pad]:
    """Accounts, tokens and the bare table; for every pad, whole games played in advance by
    the engine's simulator (Cape Breton standard, to 500) and created in the database, so
    the pad enters real games hand by hand and starts the next game when one ends."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from scoring import services
    from scoring.engine import preset, simulate_game
    from scoring.models import Player

    table = getattr(settings, "BENCH_BARE_TABLE", "bench_bare_row")
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE {table} (id bigserial PRIMARY KEY, body jsonb NOT NULL, "
            "created_at timestamptz NOT NULL DEFAULT now())"
        )
    rules = preset("cape-breton-standard")
    rng = random.Random(seed)
    needed = hands * rounds + 1  # and one for the warm-up
    out = []
    for n in range(pads):
        user = get_user_model().objects.create_user(f"pad{n}", password=None)
        token = Token.objects.create(user=user)
        seats = [Player.objects.create(display_name=f"Pad {n} seat {s}") for s in range(4)]
        team_a = services.team_create(player_one=seats[0], player_two=seats[2])
        team_b = services.team_create(player_one=seats[1], player_two=seats[3])
        planned: list[tuple[int, dict[str, Any]]] = []
        while len(planned) < needed:
            played = simulate_game(rules, rng)
            game = services.game_create(
                team_a=team_a,
                team_b=team_b,
                seats=seats,
                ruleset=rules,
                first_dealer=played.first_dealer,
                created_by=user,
                table=f"Table {n + 1}",
            )
            for number, hand in enumerate(played.hands, start=1):
                summary = hand.summary.to_json()
                summary.pop("dealer")
                planned.append((game.pk, {"entry_kind": "summary", "number": number, **summary}))
        out.append(Pad(token.key, tuple(planned[:needed])))
    connection.close()
    return out


def count_hands() -> int:
    from django.db import connection

    from scoring.models import Hand

    count = Hand.objects.count()
    connection.close()
    return count


# ------------------------------------------------------------------------------ the server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_gunicorn(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    out = log.open("wb")
    process = subprocess.Popen(  # noqa: S603 - fixed command
        [
            PYTHON,
            "-m",
            "gunicorn",
            "tarabish_site.wsgi:application",
            "--config",
            "deploy/gunicorn.conf.py",
        ],
        cwd=ROOT,
        env={**env, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_ACCESS_LOG": "/dev/null"},
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"gunicorn exited:\n{log.read_text()[-3000:]}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                conn.close()
                return process
        except OSError:
            pass
        time.sleep(0.3)
    process.terminate()
    raise SystemExit(f"gunicorn did not answer /healthz:\n{log.read_text()[-3000:]}")


# ------------------------------------------------------------------------------ the score-pads


class Client:
    """One keep-alive connection; reconnects once when the server closed it in between."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def post(self, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        for attempt in (1, 2):
            try:
                self.conn.request("POST", path, body=body, headers=headers)
                response = self.conn.getresponse()
                return response.status, response.read()
            except (http.client.RemoteDisconnected, ConnectionError, http.client.BadStatusLine):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def run_phase(
    phase: Phase, clients: list[Client], work: Callable[[int, Client, Phase], None]
) -> Phase:
    start = threading.Barrier(len(clients) + 1)

    def pad(index: int) -> None:
        start.wait()
        work(index, clients[index], phase)

    threads = [threading.Thread(target=pad, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    phase.seconds = time.perf_counter() - began
    return phase


def insert_work(
    path: str, count: int, pads: list[Pad] | None = None
) -> Callable[[int, Client, Phase], None]:
    """Insert ``count`` rows; with ``pads``, each as its pad's account (token)."""

    def work(index: int, client: Client, phase: Phase) -> None:
        headers = {"Content-Type": "application/json"}
        if pads is not None:
            headers["Authorization"] = f"Token {pads[index].token}"
        for n in range(count):
            body = json.dumps({"pad": index, "n": n, "caller": 1, "trump": "H"}).encode()
            began = time.perf_counter()
            status, _ = client.post(path, body, headers)
            phase.record(status, time.perf_counter() - began)

    return work


def hand_work(pads: list[Pad], first: int, count: int) -> Callable[[int, Client, Phase], None]:
    def work(index: int, client: Client, phase: Phase) -> None:
        pad = pads[index]
        for game_id, entry in pad.hands[first : first + count]:
            body = json.dumps(entry).encode()
            headers = {
                "Content-Type": "application/json",
                "Authorization": f"Token {pad.token}",
                "Idempotency-Key": str(uuid.uuid4()),
            }
            began = time.perf_counter()
            status, answer = client.post(f"/api/v1/games/{game_id}/hands/", body, headers)
            phase.record(status, time.perf_counter() - began)
            if status != 201:
                hand = f"pad {index} game {game_id} hand {entry['number']}"
                print(f"  {hand}: {status} {answer[:200]!r}")

    return work


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pads", type=int, default=32, help="concurrent score-pads")
    parser.add_argument("--hands", type=int, default=25, help="hands per pad per round")
    parser.add_argument("--rounds", type=int, default=2, help="bare-then-hands rounds")
    parser.add_argument(
        "--server", default="postgres://postgres@127.0.0.1:5432", help="PostgreSQL server"
    )
    parser.add_argument("--db", default="tarabish_api_bench", help="database to create")
    parser.add_argument(
        "--broker", default="redis://127.0.0.1:6379/7", help='Celery broker, or "eager"'
    )
    parser.add_argument("--keep-db", action="store_true", help="do not drop the database")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    database_url = f"{args.server.rstrip('/')}/{args.db}"
    queue = f"api-bench-{os.getpid()}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": SETTINGS,
        "DATABASE_URL": database_url,
        "TARABISH_ENV": "development",
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "PYTHONUNBUFFERED": "1",
    }
    for name in ("CELERY_BROKER_URL", "REDIS_URL"):
        env.pop(name, None)
    if args.broker != "eager":
        env["CELERY_BROKER_URL"] = args.broker
    os.environ.clear()
    os.environ.update(env)

    print(f"database {args.db}: creating and migrating")
    recreate_database(args.server, args.db)
    subprocess.run(  # noqa: S603 - fixed command
        [PYTHON, "manage.py", "migrate", "--no-input", "--verbosity", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    pads = prepare(args.pads, args.hands, args.rounds, args.seed)
    port = free_port()
    log = Path("/tmp") / f"api-bench-gunicorn-{os.getpid()}.log"  # noqa: S108 - a log file
    server = start_gunicorn(env, port, log)
    workers = os.environ.get("GUNICORN_WORKERS", str((os.cpu_count() or 1) * 2 + 1))
    print(
        f"gunicorn on 127.0.0.1:{port} ({workers} workers x "
        f"{os.environ.get('GUNICORN_THREADS', '2')} threads, gthread), "
        f"{args.pads} score-pads, {args.hands} requests each per phase, {args.rounds} rounds, "
        f"tasks to {'in-process' if args.broker == 'eager' else args.broker}"
    )
    try:
        clients = [Client(port) for _ in range(args.pads)]
        run_phase(Phase("warm-up bare"), clients, insert_work("/bench/bare/", 2))
        run_phase(Phase("warm-up token"), clients, insert_work("/bench/token-insert/", 2, pads))
        run_phase(Phase("warm-up hands"), clients, hand_work(pads, 0, 1))
        names = ("bare insert", "token insert (DRF)", "hand entry")
        totals = {name: Phase(f"{name} (all rounds)") for name in names}
        for round_number in range(args.rounds):
            print(f"round {round_number + 1}: {load()}")
            first = 1 + round_number * args.hands
            works = {
                "bare insert": insert_work("/bench/bare/", args.hands),
                "token insert (DRF)": insert_work("/bench/token-insert/", args.hands, pads),
                "hand entry": hand_work(pads, first, args.hands),
            }
            for name in names:
                phase = run_phase(Phase(f"  {name}"), clients, works[name])
                print(phase.line())
                total = totals[name]
                total.latencies += phase.latencies
                total.seconds += phase.seconds
                for status, n in phase.statuses.items():
                    total.statuses[status] = total.statuses.get(status, 0) + n
        print()
        for name in names:
            print(totals[name].line())
        bare_total, token_total, hands_total = (totals[name] for name in names)
        ratio = hands_total.rate / bare_total.rate if bare_total.rate else 0.0
        framework = token_total.rate / bare_total.rate if bare_total.rate else 0.0
        p99 = hands_total.percentile(99)
        print(
            f"token insert (DRF) / bare insert throughput: {framework:.0%} "
            "(what authentication and DRF cost alone)"
        )
        print(
            f"hand entry / bare insert throughput: {ratio:.0%} (goal >= 60%); "
            f"hand entry p99 {p99:.1f} ms (goal < 100 ms) at {args.pads} score-pads"
        )
        expected = hands_total.ok + args.pads  # plus the warm-up hand of each pad
        stored = count_hands()
        print(f"hands in the database: {stored} (201 answers: {expected})")
        if stored != expected:
            raise SystemExit("the database does not hold one hand per 201 answer")
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        if args.broker != "eager":
            import redis

            redis.Redis.from_url(args.broker).delete(queue)
        if not args.keep_db:
            from django.db import connections

            connections.close_all()
            drop_database(args.server, args.db)


if __name__ == "__main__":
    main()
