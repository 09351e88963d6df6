"""Hands entered per second through the HTTP API, beside a bare endpoint on the same stack.

Run from the project root (PostgreSQL and Redis on loopback)::

    .venv/bin/python benchmarks/api_bench.py --pads 32 --hands 30 --rounds 6 --pace-ms 1000

What is compared, and why:

* **bare endpoint** (the baseline): ``POST /bench/token-insert/``, a write of the API's own
  stack, as the hand endpoint is (gunicorn, Django middleware, DRF, token authentication, JSON
  in and out, and the write rate limit that DRF gives every API view: one Redis command) that
  only inserts one row. Hand entry / bare endpoint is what our own logic costs: reading the
  game, the engine, one statement writing the game's new score, the hand and the idempotency
  record, and the live update to the game's watchers; at the end of a game, the look-up of its
  match and the deletion of its delivered result change.
* **bare endpoint without the write limit** (reference only):
  ``POST /bench/token-insert-unlimited/``, what the bare endpoint was before the write limit
  became every API view's default; the ratio against it is printed too.
* **raw Django insert** (reference only): ``POST /bench/bare/``, a plain Django view doing
  the same insert with no DRF and no authentication: how much the framework itself costs.
* **hand entry**: ``POST /api/v1/games/{id}/hands/`` with a token, an ``Idempotency-Key``
  and the hand number, each pad entering real games hand by hand (played in advance by the
  engine's simulator, Cape Breton standard to 500: about eight hands a game).

Two measurements, each with ``--pads`` score-pads (threads, a connection each: a new one for
every request with gunicorn's synchronous workers, which close it after each answer, as nginx
connects to them; kept alive with ``GUNICORN_WORKER_CLASS=gthread``; the pads' own garbage
collector is off while a phase is timed, so its pauses are not counted as the server's):

* **(a) capacity**, closed loop: every pad posts back to back, the next request as soon as
  the answer is in, ``--hands`` requests each, in ``--rounds`` rounds that alternate the
  four endpoints, the bare endpoint and hand entry side by side and every other round in
  the reverse order (so a machine speeding up or slowing down through a round favours
  neither), after
  ``--warm-up`` untimed requests per pad on each (every connection has prepared its
  statements, as in a service that has been running a while). Gives requests
  per second, p50 and p99, and the throughput ratio. In a closed loop the latency is mostly
  queueing (Little's law: latency = pads / throughput), so its p99 says how long a burst of
  all pads at once waits, not how a hall of tables feels. Beside it, the CPU that gunicorn
  and PostgreSQL spent per request (from /proc): on a shared machine throughput moves with
  everyone else's load, the CPU a request costs does not, and the bare endpoint's cost over
  a hand's is the throughput ratio the server itself allows.
* **(b) latency at a paced load**: every pad sends one request every ``--pace-ms``
  (staggered, so the offered rate is pads / pace), ``--paced-hands`` requests each, first the
  bare endpoint and then hand entry. Latency is measured from the moment the request was due,
  so a pad that fell behind counts its waiting too (no coordinated omission); the latency
  from the actual send is printed beside it.

The goals on a 2-core machine (issue "scorekeeping"): hand entry at least 60% of the bare
endpoint's throughput (judged on (a)), and p99 under 100 ms at 32 concurrent score-pads
(printed for both (a) and (b): a real hall enters a hand per table every minute or two, far
below any pace used here). Each goal line says met or NOT met. Beside (a)'s p99 is the bare
endpoint's own: in a closed loop the two goals pull against each other, since hand entry at
60% of the bare endpoint's throughput waits about 1 / 0.6 times as long as it does.

Setup, start to end: a dedicated PostgreSQL database (``--db``, dropped first if it exists)
is created and migrated; one account and device token (hashed, expiring, as the API's) per
pad; gunicorn is started with ``deploy/gunicorn.conf.py`` on a free loopback port (or ``--port``)
(``GUNICORN_WORKERS``,
``GUNICORN_WORKER_CLASS`` and ``GUNICORN_THREADS`` from the environment, the values in effect
printed; ``GUNICORN_MAX_REQUESTS`` is 0 unless
given, so no worker restarts in the middle of a measurement, and restarts are counted;
``DATABASE_CONN_MAX_AGE`` is 3600 unless given, so connections last the whole run), with
``benchmarks.api_settings`` (the service's URLs plus the two bench endpoints, throttles out of
the way), the cache on Redis (``--cache``: the write rate limit counts there, one round trip a
write) and Celery tasks sent to Redis on a queue of the benchmark's own (purged after), as in
production. At the end the database must hold exactly one hand per 201 answer; gunicorn is
stopped and the database dropped. The load average is printed before each phase: the machine
may be shared, and every figure moves with it.
"""

from __future__ import annotations

import argparse
import gc
import http.client
import json
import math
import os
import random
import runpy
import socket
import statistics
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
    """What one phase measured. ``latencies`` run from the send; in a paced phase ``late``
    runs from the moment the request was due (equal to the send when the pad kept up)."""

    name: str
    latencies: list[float] = field(default_factory=list)
    late: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0
    #: Requests per second offered by the pads in a paced phase (None: closed loop).
    offered: float | None = None
    #: CPU seconds gunicorn and PostgreSQL spent in the phase (None: not measured).
    cpu: float | None = None
    #: Of which PostgreSQL's backends.
    cpu_db: float | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, status: int, seconds: float, late: float | None = None) -> None:
        with self.lock:
            self.latencies.append(seconds)
            if late is not None:
                self.late.append(late)
            self.statuses[status] = self.statuses.get(status, 0) + 1

    def add(self, other: Phase) -> None:
        self.latencies += other.latencies
        self.late += other.late
        self.seconds += other.seconds
        if other.cpu is not None:
            self.cpu = (self.cpu or 0.0) + other.cpu
            self.cpu_db = (self.cpu_db or 0.0) + (other.cpu_db or 0.0)
        for status, n in other.statuses.items():
            self.statuses[status] = self.statuses.get(status, 0) + n

    @property
    def ok(self) -> int:
        return sum(n for status, n in self.statuses.items() if 200 <= status < 300)

    @property
    def rate(self) -> float:
        return self.ok / self.seconds if self.seconds else 0.0

    @property
    def cpu_ms(self) -> float:
        """Server CPU (gunicorn and PostgreSQL) per successful request, in ms."""
        return self.cpu / self.ok * 1000 if self.cpu is not None and self.ok else float("nan")

    def percentile(self, p: float, *, from_due: bool = False) -> float:
        ordered = sorted(self.late if from_due else self.latencies)
        if not ordered:
            return float("nan")
        index = min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))
        return ordered[index] * 1000

    def line(self) -> str:
        errors = {s: n for s, n in sorted(self.statuses.items()) if not 200 <= s < 300}
        text = (
            f"{self.name:<34} {self.ok:>6} ok in {self.seconds:6.2f} s  "
            f"{self.rate:7.1f} /s  p50 {self.percentile(50):7.1f} ms  "
            f"p99 {self.percentile(99):7.1f} ms"
        )
        if self.cpu is not None and self.cpu_db is not None and self.ok:
            db_ms = self.cpu_db / self.ok * 1000
            text += f"  cpu {self.cpu_ms:5.1f} ms/req (PostgreSQL {db_ms:.1f})"
        if self.offered is not None:
            text += (
                f"  (offered {self.offered:.1f} /s; from due: p50 "
                f"{self.percentile(50, from_due=True):.1f} ms, "
                f"p99 {self.percentile(99, from_due=True):.1f} ms)"
            )
        return text + (f"  errors {errors}" if errors else "")


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


def fresh_database(server_url: str, name: str, env: dict[str, str]) -> None:
    """The benchmark's own database, emptied and migrated by ``manage.py`` under ``env``."""
    print(f"database {name}: creating and migrating")
    recreate_database(server_url, name)
    subprocess.run(  # noqa: S603 - fixed command
        [PYTHON, "manage.py", "migrate", "--no-input", "--verbosity", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


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


def prepare(pads: int, needed: int, seed: int) -> list[Pad]:
    """Accounts, tokens and the bare table; for every pad, whole games played in advance by
    the engine's simulator (Cape Breton standard, to 500) and created in the database, so
    the pad enters real games hand by hand and starts the next game when one ends."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection

    from scoring import services
    from scoring.engine import preset, simulate_game
    from scoring.models import Player
    from tarabish_site.core.models import DeviceToken

    table = getattr(settings, "BENCH_BARE_TABLE", "bench_bare_row")
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE {table} (id bigserial PRIMARY KEY, body jsonb NOT NULL, "
            "created_at timestamptz NOT NULL DEFAULT now())"
        )
    rules = preset("cape-breton-standard")
    rng = random.Random(seed)
    out = []
    for n in range(pads):
        user = get_user_model().objects.create_user(f"pad{n}", password=None)
        _, token = DeviceToken.objects.create(user=user, device=f"Pad {n}")
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
        out.append(Pad(token, tuple(planned[:needed])))
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
    out.close()  # the child has its own copy
    try:
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
        raise SystemExit(f"gunicorn did not answer /healthz:\n{log.read_text()[-3000:]}")
    except BaseException:  # Ctrl-C included: the caller never gets the process to stop
        process.terminate()  # gunicorn stops its workers on SIGTERM, not on SIGKILL
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        raise


# ------------------------------------------------------------------------------ the score-pads


class Client:
    """One connection, opened again for the next request when the server closed it (after
    each answer, or a kept-alive one in between)."""

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


@dataclass
class ServerCpu:
    """CPU seconds used so far by gunicorn (master, live workers, and the workers it has
    reaped) and by the PostgreSQL backends connected to the benchmark's database, read from
    Linux's /proc. Another program on the machine is not counted, so this figure does not
    move with the load the way throughput does. A backend that has gone keeps the CPU it had
    when last seen (the benchmark keeps its connections for the whole run, so none should)."""

    gunicorn_pid: int
    database: str
    backends: dict[int, int] = field(default_factory=dict)

    def __call__(self) -> tuple[float, float] | None:
        """CPU seconds so far: gunicorn and PostgreSQL together, and PostgreSQL's part."""
        ticks = 0
        try:
            entries = list(Path("/proc").iterdir())
        except OSError:
            return None
        for entry in entries:
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue  # gone in between
            pid, ppid = int(entry.name), int(fields[1])
            if pid == self.gunicorn_pid:
                ticks += sum(int(f) for f in fields[11:15])  # with reaped workers
            elif ppid == self.gunicorn_pid:
                ticks += int(fields[11]) + int(fields[12])
            elif command.startswith(b"postgres: ") and f" {self.database} ".encode() in command:
                self.backends[pid] = int(fields[11]) + int(fields[12])
        database = sum(self.backends.values())
        per_second = os.sysconf("SC_CLK_TCK")
        return (ticks + database) / per_second, database / per_second


#: Set once gunicorn runs; each phase then records the server CPU it used.
SERVER_CPU: list[ServerCpu] = []


def run_phase(
    phase: Phase, clients: list[Client], work: Callable[[int, Client, Phase], None]
) -> Phase:
    start = threading.Barrier(len(clients) + 1)

    def pad(index: int) -> None:
        start.wait()
        work(index, clients[index], phase)

    threads = [threading.Thread(target=pad, args=(i,)) for i in range(len(clients))]
    # The pads' garbage collector is kept out of the timing (as ``timeit`` does): a
    # collection stops every pad at once, for tens of milliseconds on a busy machine, and the
    # latencies would count that as the server's. What a phase leaves is collected after it.
    gc.collect()
    gc.disable()
    try:
        for thread in threads:
            thread.start()
        cpu_before = SERVER_CPU[0]() if SERVER_CPU else None
        start.wait()
        began = time.perf_counter()
        for thread in threads:
            thread.join()
        phase.seconds = time.perf_counter() - began
    finally:
        gc.enable()
    cpu_after = SERVER_CPU[0]() if SERVER_CPU else None
    if cpu_before is not None and cpu_after is not None:
        phase.cpu = cpu_after[0] - cpu_before[0]
        phase.cpu_db = cpu_after[1] - cpu_before[1]
    return phase


def paced(
    requests: list[tuple[str, bytes, dict[str, str]]], pace: float | None, index: int, pads: int
) -> Callable[[Client, Phase], None]:
    """Send ``requests`` in order: back to back (``pace`` None), or one every ``pace`` seconds
    from a start staggered by pad, recording the latency from the send and from the moment the
    request was due."""

    def send(client: Client, phase: Phase) -> None:
        began = time.perf_counter()
        for n, (path, body, headers) in enumerate(requests):
            due = None
            if pace is not None:
                due = began + pace * (n + index / pads)
                wait = due - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
            sent = time.perf_counter()
            status, answer = client.post(path, body, headers)
            done = time.perf_counter()
            phase.record(status, done - sent, None if due is None else done - max(due, began))
            if status not in (200, 201):
                print(f"  {path} {headers.get('Idempotency-Key', '')}: {status} {answer[:200]!r}")

    return send


def insert_work(
    path: str, count: int, pads: list[Pad], *, token: bool, pace: float | None = None
) -> Callable[[int, Client, Phase], None]:
    """Insert ``count`` rows per pad; with ``token``, each as its pad's account."""

    def work(index: int, client: Client, phase: Phase) -> None:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Token {pads[index].token}"
        requests = [
            (path, json.dumps({"pad": index, "n": n, "caller": 1, "trump": "H"}).encode(), headers)
            for n in range(count)
        ]
        paced(requests, pace, index, len(pads))(client, phase)

    return work


def hand_work(
    pads: list[Pad], first: int, count: int, pace: float | None = None
) -> Callable[[int, Client, Phase], None]:
    """Enter hands ``first`` .. ``first + count - 1`` of each pad's planned hands."""

    def work(index: int, client: Client, phase: Phase) -> None:
        pad = pads[index]
        requests = [
            (
                f"/api/v1/games/{game_id}/hands/",
                json.dumps(entry).encode(),
                {
                    "Content-Type": "application/json",
                    "Authorization": f"Token {pad.token}",
                    "Idempotency-Key": str(uuid.uuid4()),
                },
            )
            for game_id, entry in pad.hands[first : first + count]
        ]
        paced(requests, pace, index, len(pads))(client, phase)

    return work


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} cores"


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pads", type=int, default=32, help="concurrent score-pads")
    parser.add_argument(
        "--hands", type=int, default=30, help="(a) requests per pad per endpoint per round"
    )
    parser.add_argument("--rounds", type=int, default=6, help="(a) rounds over the endpoints")
    parser.add_argument(
        "--warm-up", type=int, default=6, help="untimed requests per pad on each endpoint first"
    )
    parser.add_argument(
        "--pace-ms", type=float, default=1000.0, help="(b) each pad sends one request this often"
    )
    parser.add_argument("--paced-hands", type=int, default=12, help="(b) requests per pad")
    parser.add_argument(
        "--server", default="postgres://postgres@127.0.0.1:5432", help="PostgreSQL server"
    )
    parser.add_argument("--db", default="tarabish_api_bench", help="database to create")
    parser.add_argument(
        "--broker", default="redis://127.0.0.1:6379/7", help='Celery broker, or "eager"'
    )
    parser.add_argument(
        "--cache",
        default="redis://127.0.0.1:6379/8",
        help='the cache (REDIS_URL) where writes are counted, or "locmem" for local memory',
    )
    parser.add_argument("--keep-db", action="store_true", help="do not drop the database")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--port", type=int, default=0, help="gunicorn's loopback port (0: any free one)"
    )
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
    # A worker restarted every 2000 requests is once in hours at a hall's pace, but several
    # times a minute here: by default the benchmark measures the steady state without them.
    env.setdefault("GUNICORN_MAX_REQUESTS", "0")
    # and each thread keeps its database connection for the whole run (the service's 60 s
    # would reconnect every thread once a minute)
    env.setdefault("DATABASE_CONN_MAX_AGE", "3600")
    for name in ("CELERY_BROKER_URL", "REDIS_URL"):
        env.pop(name, None)
    if args.broker != "eager":
        env["CELERY_BROKER_URL"] = args.broker
    if args.cache != "locmem":
        env["REDIS_URL"] = args.cache
    os.environ.clear()
    os.environ.update(env)

    fresh_database(args.server, args.db, env)
    # the warm-up hands, then (a), then (b)
    warm = args.warm_up
    pads = prepare(args.pads, warm + args.hands * args.rounds + args.paced_hands, args.seed)
    port = args.port or free_port()
    log = Path("/tmp") / f"api-bench-gunicorn-{os.getpid()}.log"  # noqa: S108 - a log file
    server = start_gunicorn(env, port, log)
    SERVER_CPU.append(ServerCpu(server.pid, args.db))
    conf = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))  # as gunicorn read it
    # more than one thread makes gunicorn use its threaded worker, whatever the class
    worker_class = "gthread" if conf["threads"] > 1 else conf["worker_class"]
    print(
        f"gunicorn on 127.0.0.1:{port}: {conf['workers']} {worker_class} workers x "
        f"{conf['threads']} thread{'s' if conf['threads'] > 1 else ''} "
        "(GUNICORN_WORKERS, GUNICORN_WORKER_CLASS, GUNICORN_THREADS; deploy/gunicorn.conf.py "
        "when unset), "
        f"max_requests {os.environ['GUNICORN_MAX_REQUESTS']} (GUNICORN_MAX_REQUESTS; 0: workers "
        "are never restarted, the benchmark's default; the service's is 2000); database "
        f"connections kept {os.environ['DATABASE_CONN_MAX_AGE']} s (DATABASE_CONN_MAX_AGE); "
        f"{args.pads} score-pads; tasks after each hand to "
        f"{'in-process (eager)' if args.broker == 'eager' else args.broker}; cache "
        f"{'in local memory' if args.cache == 'locmem' else args.cache}"
    )
    raw, bare, unlimited, hands = (
        "raw Django insert",
        "bare endpoint (API stack)",
        "bare, no write limit",
        "hand entry",
    )
    paths = {
        raw: ("/bench/bare/", False),
        bare: ("/bench/token-insert/", True),
        unlimited: ("/bench/token-insert-unlimited/", True),
    }
    try:
        clients = [Client(port) for _ in range(args.pads)]
        for path, token in paths.values():
            run_phase(Phase("warm-up"), clients, insert_work(path, warm, pads, token=token))
        run_phase(Phase("warm-up"), clients, hand_work(pads, 0, warm))

        print(
            f"\n(a) capacity: {args.pads} pads posting back to back, {args.hands} requests each "
            f"per endpoint, {args.rounds} rounds"
        )
        totals = {name: Phase(name) for name in (raw, bare, unlimited, hands)}
        round_ratios: list[float] = []
        for round_number in range(args.rounds):
            print(f"round {round_number + 1}: {load()}")
            first = warm + round_number * args.hands
            works = {
                **{
                    name: insert_work(path, args.hands, pads, token=token)
                    for name, (path, token) in paths.items()
                },
                hands: hand_work(pads, first, args.hands),
            }
            order = [raw, bare, hands, unlimited]
            if round_number % 2:
                order.reverse()
            rates = {}
            for name in order:
                work = works[name]
                phase = run_phase(Phase(f"  {name}"), clients, work)
                print(phase.line())
                totals[name].add(phase)
                rates[name] = phase.rate
            round_ratios.append(rates[hands] / rates[bare])
            print(f"  hand entry / bare endpoint this round: {round_ratios[-1]:.0%}")
        print("all rounds:")
        for phase in totals.values():
            phase.name = f"  {phase.name}"
            print(phase.line())

        pace = args.pace_ms / 1000
        offered = args.pads / pace
        print(
            f"\n(b) latency: {args.pads} pads, each sending one request every "
            f"{args.pace_ms:.0f} ms (offered {offered:.1f} requests/s), "
            f"{args.paced_hands} requests each; {load()}"
        )
        paced_bare = run_phase(
            Phase(f"  {bare}", offered=offered),
            clients,
            insert_work("/bench/token-insert/", args.paced_hands, pads, token=True, pace=pace),
        )
        print(paced_bare.line())
        first = warm + args.hands * args.rounds
        paced_hands = run_phase(
            Phase(f"  {hands}", offered=offered),
            clients,
            hand_work(pads, first, args.paced_hands, pace=pace),
        )
        print(paced_hands.line())

        ratio = totals[hands].rate / totals[bare].rate if totals[bare].rate else 0.0
        unlimited_ratio = totals[hands].rate / totals[unlimited].rate
        framework = totals[unlimited].rate / totals[raw].rate if totals[raw].rate else 0.0
        closed_p99 = totals[hands].percentile(99)
        paced_p99 = paced_hands.percentile(99, from_due=True)
        print(
            "\nagainst the goals (stated for 2 cores and 32 score-pads; this run: "
            f"{os.cpu_count()} cores, {args.pads} score-pads):"
        )
        print(
            f"  throughput, (a): hand entry {totals[hands].rate:.1f} /s = {ratio:.0%} of the "
            f"bare endpoint's {totals[bare].rate:.1f} /s; goal >= 60%: {verdict(ratio >= 0.6)}"
        )
        print(
            f"    (against the bare endpoint without the write limit, "
            f"{totals[unlimited].rate:.1f} /s: {unlimited_ratio:.0%})"
        )
        print(
            f"  the rounds' own ratios (each round's phases run one after the other, so the "
            f"machine's drift moves them less): {', '.join(f'{r:.0%}' for r in round_ratios)}; "
            f"median {statistics.median(round_ratios):.0%}"
        )
        print(
            f"  p99 latency, (a) closed loop: {closed_p99:.1f} ms; "
            f"goal < 100 ms: {verdict(closed_p99 < 100)}"
        )
        # Little's law: in a closed loop each pad waits about pads / throughput, so hand entry
        # at a share of the bare endpoint's throughput waits about the inverse of that share
        # times as long as the bare endpoint does.
        print(
            f"    (the bare endpoint's own closed-loop p99: {totals[bare].percentile(99):.1f} ms; "
            f"hand entry at exactly 60% of its throughput would wait about "
            f"{totals[bare].percentile(99) / 0.6:.0f} ms)"
        )
        print(
            f"  p99 latency, (b) paced at {offered:.1f} /s offered: {paced_p99:.1f} ms "
            f"from due; goal < 100 ms: {verdict(paced_p99 < 100)}"
        )
        cost = totals[bare].cpu_ms / totals[hands].cpu_ms
        print(
            f"  server CPU per request, (a): hand entry {totals[hands].cpu_ms:.1f} ms, bare "
            f"endpoint {totals[bare].cpu_ms:.1f} ms (gunicorn + PostgreSQL): {cost:.0%}, the "
            "throughput ratio the server itself allows, whatever else runs on the machine"
        )
        print(
            f"  for reference: the bare endpoint without the write limit does {framework:.0%} of "
            f"the raw Django insert's {totals[raw].rate:.1f} /s (what DRF and token "
            "authentication cost)"
        )
        restarts = log.read_text(errors="replace").count("Autorestarting worker")
        print(
            f"  gunicorn workers restarted during the run: {restarts} (a restart loads the "
            "service again, a few seconds of CPU; requests queued on that worker wait for it)"
        )
        expected = totals[hands].ok + paced_hands.ok + args.pads * warm  # and the warm-up
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

            # the queue and the bindings kombu keeps for it
            redis.Redis.from_url(args.broker).delete(
                queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}"
            )
        if args.cache != "locmem":
            import redis

            cache = redis.Redis.from_url(args.cache)
            for key in cache.scan_iter(match=":1:throttle_*"):  # the pads' write counters
                cache.delete(key)
        if not args.keep_db:
            from django.db import connections

            connections.close_all()
            drop_database(args.server, args.db)


if __name__ == "__main__":
    main()
