"""A hall's evening with faults: score-pads entering hands while the cache, then the broker, go
away and come back. Counts what was lost, doubled or wrong, and every 5xx.

Run from the project root (PostgreSQL on loopback, ``redis-server`` installed)::

    .venv/bin/python benchmarks/fault_load.py --pads 32 --hands 320

What runs: two Redis servers of the script's own on free loopback ports (one the cache,
``REDIS_URL``; one the broker), gunicorn as deployed (``deploy/gunicorn.conf.py``), and a
Celery worker with its beat. Each of ``--pads`` score-pads enters real games hand by hand
(played in advance by the engine's simulator, as ``benchmarks/api_bench.py`` prepares them)
through the API with a token, an ``Idempotency-Key`` and the hand number, and:

* retries a request that failed (a 5xx, a 429, a dropped connection) with the same key, up to
  five times;
* now and then races a second pad for the same hand (a new key): one must get 201, the
  other 409 ``hand_exists``;
* now and then corrects a hand with a stale ``If-Match``: it must get 412;
* now and then undoes its last hand (with the game's version) and enters it again.

While the first quarter to the first half of the submissions is sent, the cache's Redis is
stopped; from 60% to 80%, the broker's. Once both are back, the script waits for what was
recorded while the broker was away (``scoring.ResultChange`` rows) to be delivered.

At the end, against the database: hands lost (a 201 with no hand), doubled (more counting
hands than the pad entered), games whose totals differ from the sum of their counting hands,
every 5xx, and how long the delivery took after the broker came back. CPU time of this script
(``time.process_time``) is printed beside the wall time.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import api_bench as bench  # noqa: E402 - the setup and the score-pads of the benchmark


class RedisServer:
    """A ``redis-server`` of this script's own, stopped and started again at will."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.port = bench.free_port()
        self.dir = Path(tempfile.mkdtemp(prefix=f"fault-load-{name}-"))
        self.process: subprocess.Popen[bytes] | None = None

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
        raise SystemExit(f"redis-server for the {self.name} did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()  # as a crash: nothing is saved, every connection drops
            self.process.wait(timeout=10)
            self.process = None


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


def pad_run(
    pad: bench.Pad, port: int, tally: Tally, rng: random.Random, progress: list[int]
) -> None:
    client = bench.Client(port)
    rival = bench.Client(port)
    auth = {"Authorization": f"Token {pad.token}", "Content-Type": "application/json"}

    def send(
        conn: bench.Client, path: str, body: dict[str, Any], headers: dict[str, str], what: str
    ) -> tuple[int, bytes]:
        for attempt in range(6):
            try:
                status, answer = conn.post(path, json.dumps(body).encode(), {**auth, **headers})
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

    def put(path: str, body: dict[str, Any], headers: dict[str, str]) -> int:
        conn = client.conn
        try:
            conn.request("PUT", path, body=json.dumps(body), headers={**auth, **headers})
            response = conn.getresponse()
            answer = response.read()
        except OSError as exc:
            client.conn.close()
            client.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            tally.count("correct", 599, str(exc).encode())
            return 599
        tally.count("correct", response.status, answer)
        return response.status

    for game_id, body in pad.hands:
        path = f"/api/v1/games/{game_id}/hands/"
        key = {"Idempotency-Key": uuid.uuid4().hex}
        if rng.random() < 0.05:  # another pad enters the same hand at the same moment
            answers: list[tuple[int, bytes]] = []

            def race(
                where: str = path, entry: dict[str, Any] = body, into: list[Any] = answers
            ) -> None:
                into.append(
                    send(rival, where, entry, {"Idempotency-Key": uuid.uuid4().hex}, "race")
                )

            other = threading.Thread(target=race)
            other.start()
            status, answer = send(client, path, body, key, "hand")
            other.join()
            pair = sorted([status, answers[0][0]])
            codes = {_code(answer), _code(answers[0][1])}
            with tally.lock:
                tally.races += 1
                tally.race_ok += pair == [201, 409] and "hand_exists" in codes
                tally.entered[game_id] += pair.count(201)
        else:
            status, answer = send(client, path, body, key, "hand")
            if status == 201:
                with tally.lock:
                    tally.entered[game_id] += 1
        with tally.lock:
            progress[0] += 1
        if status != 201:
            continue
        game = json.loads(answer)["game"]
        if rng.random() < 0.03:  # a correction sent with an ETag read before the hand changed
            with tally.lock:
                tally.stale += 1
            got = put(
                f"{path}{body['number']}/",
                {**{k: v for k, v in body.items() if k != "number"}, "reason": "miscounted"},
                {"If-Match": '"0"'},
            )
            with tally.lock:
                tally.stale_ok += got == 412
        if game["status"] == "in_progress" and rng.random() < 0.03:  # undo, then enter again
            with tally.lock:
                tally.undos += 1
            status, _ = send(
                client,
                f"{path}undo-last/",
                {"reason": "wrong caller"},
                {"If-Match": f'"{game["version"]}"', "Idempotency-Key": uuid.uuid4().hex},
                "undo",
            )
            if status == 200:
                with tally.lock:
                    tally.entered[game_id] -= 1
                again, _ = send(
                    client, path, body, {"Idempotency-Key": uuid.uuid4().hex}, "hand again"
                )
                with tally.lock:
                    tally.undo_ok += again == 201
                    tally.entered[game_id] += again == 201


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pads", type=int, default=32)
    parser.add_argument("--hands", type=int, default=320, help="hands per pad")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--db", default="tarabish_fault_load")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    started_wall, started_cpu = time.perf_counter(), time.process_time()
    cache, broker = RedisServer("cache"), RedisServer("broker")
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
    bench.fresh_database(args.server, args.db, env)
    pads = bench.prepare(args.pads, args.hands, args.seed)
    port = bench.free_port()
    logs = Path(tempfile.mkdtemp(prefix="fault-load-logs-"))
    server = bench.start_gunicorn(env, port, logs / "gunicorn.log")
    worker = subprocess.Popen(  # noqa: S603 - fixed command
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
        stdout=(logs / "worker.log").open("wb"),
        stderr=subprocess.STDOUT,
    )
    total = args.pads * args.hands
    progress = [0]
    tally = Tally()
    events: list[str] = []
    broker_back = 0.0
    try:
        rngs = [random.Random(args.seed + n) for n in range(args.pads)]
        threads = [
            threading.Thread(target=pad_run, args=(pad, port, tally, rng, progress))
            for pad, rng in zip(pads, rngs, strict=True)
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

        def pending() -> int:
            return ResultChange.objects.count()

        waiting = pending()
        deadline = time.monotonic() + 150
        while pending() and time.monotonic() < deadline:
            time.sleep(1)
        converged = time.monotonic() - broker_back if not pending() else None

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
    finally:
        worker.terminate()
        server.terminate()
        for process in (worker, server):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        cache.stop()
        broker.stop()
        bench.drop_database(args.server, args.db)

    print(f"\n{args.pads} pads, {total} hands, {tally.submissions} submissions in {run_wall:.1f} s")
    for name, count in sorted(tally.statuses.items()):
        print(f"  {name:<20} {count:>6}")
    print(f"retries: {tally.retries}")
    print(f"races for one hand: {tally.races}, answered 201 + 409 hand_exists: {tally.race_ok}")
    print(f"stale If-Match corrections: {tally.stale}, answered 412: {tally.stale_ok}")
    print(f"undo then enter again: {tally.undos}, entered again: {tally.undo_ok}")
    print(f"hands lost: {lost}; doubled: {doubled}; games with wrong totals: {wrong}")
    print(f"5xx answers: {len(tally.server_errors)} {tally.server_errors[:3]}")
    if not waiting:
        print("result changes waiting when the load ended: none (delivered as they committed)")
    else:
        print(
            f"result changes waiting when the load ended: {waiting}; all delivered "
            + (
                f"{converged:.1f} s after the broker came back"
                if converged is not None
                else "NOT yet"
            )
        )
    print("events: " + "; ".join(events))
    print(
        f"wall {time.perf_counter() - started_wall:.1f} s, "
        f"cpu {time.process_time() - started_cpu:.1f} s (this script)"
    )


if __name__ == "__main__":
    main()
