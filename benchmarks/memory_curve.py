"""A web worker's memory as hands are entered: RSS after every ``--step`` hands.

Run from the project root (PostgreSQL and Redis on loopback)::

    .venv/bin/python benchmarks/memory_curve.py --hands 10000 --step 1000
    .venv/bin/python benchmarks/memory_curve.py --hands 2000 --step 500 --trace 6

One gunicorn worker (synchronous, ``max_requests`` off, so nothing restarts it and hides a
leak) serves ``--pads`` score-pads entering real games hand by hand through the API, with a
token and an ``Idempotency-Key``, as ``benchmarks/api_bench.py`` sets them up (its own
database, dropped at the end). After each step the worker itself says what it holds
(``GET /bench/memory/``, only in ``benchmarks.api_settings``): its resident set and the
anonymous part of it, glibc's heap (bytes in use, and bytes freed but kept, which grow when
the heap fragments), the objects the garbage collector tracks (those made after start-up:
what the worker loads is frozen out of its sight), its threads; beside them the worker's CPU
time (from /proc) and the wall time. A process that holds on to something per hand grows in
a straight line; a flat curve (after the first steps, where caches and the allocator's
arenas fill) is the goal. The slopes over the second half of the run are printed per hand,
with the CPU time of this script (``time.process_time``) beside the wall time.

``--trace FRAMES`` starts tracemalloc in the worker after the first step and, at the end,
lists the tracebacks whose memory grew most since and the types whose objects did: what in
Python holds on. Tracing slows the worker several times over and takes memory of its own,
so the RSS of such a run is not the worker's. Memory that grows with nothing traced is
outside Python's objects (the C heap: see the malloc columns).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
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


def cpu_seconds(pid: int) -> float:
    """The CPU time ``pid`` has used (user and system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory(port: int, query: str = "") -> dict[str, Any]:
    """What the worker holds, as ``GET /bench/memory/`` answers (``benchmarks/api_urls.py``)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.request("GET", f"/bench/memory/{query}")
    response = conn.getresponse()
    body = response.read()
    conn.close()
    if response.status != 200:
        raise SystemExit(f"/bench/memory/ answered {response.status}: {body[:300]!r}")
    return dict(json.loads(body))


def worker_pid(master: int) -> int:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    if len(children) != 1:
        raise SystemExit(f"expected one gunicorn worker, found {children}")
    return int(children[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=10000)
    parser.add_argument("--step", type=int, default=1000)
    parser.add_argument("--pads", type=int, default=8)
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--db", default="tarabish_memory_curve")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/7")
    parser.add_argument("--cache", default="redis://127.0.0.1:6379/8")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--port", type=int, default=0, help="gunicorn's loopback port (0: any free one)"
    )
    parser.add_argument(
        "--trace",
        type=int,
        default=0,
        metavar="FRAMES",
        help="trace Python's allocations (tracemalloc, FRAMES frames a traceback) from the "
        "first step on and print what grew most; tracing costs memory and CPU of its own, so "
        "the RSS of such a run is not the worker's",
    )
    parser.add_argument("--top", type=int, default=12, help="tracebacks and types listed")
    args = parser.parse_args()
    started_wall, started_cpu = time.perf_counter(), time.process_time()

    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": bench.SETTINGS,
        "DATABASE_URL": f"{args.server.rstrip('/')}/{args.db}",
        "TARABISH_ENV": "development",
        "CELERY_TASK_DEFAULT_QUEUE": f"memory-curve-{os.getpid()}",
        "CELERY_BROKER_URL": args.broker,
        "REDIS_URL": args.cache,
        "GUNICORN_WORKERS": "1",
        "GUNICORN_WORKER_CLASS": "sync",
        "GUNICORN_MAX_REQUESTS": "0",
        "DATABASE_CONN_MAX_AGE": "3600",
        "PYTHONUNBUFFERED": "1",
    }
    os.environ.clear()
    os.environ.update(env)
    bench.fresh_database(args.server, args.db, env)
    per_pad = -(-args.hands // args.pads)
    pads = bench.prepare(args.pads, per_pad, args.seed)
    port = args.port or bench.free_port()
    log = Path(tempfile.gettempdir()) / f"memory-curve-{os.getpid()}.log"
    server = bench.start_gunicorn(env, port, log)
    print(
        f"one gunicorn worker (sync, max_requests 0), {args.pads} score-pads; "
        f"MALLOC_ARENA_MAX={os.environ.get('MALLOC_ARENA_MAX', 'unset')}; "
        f"tracemalloc {'off' if not args.trace else f'{args.trace} frames from the first step'}"
    )
    try:
        worker = worker_pid(server.pid)
        wall_at_boot, cpu_at_boot = time.perf_counter(), cpu_seconds(worker)
        curve = [(0, memory(port))]
        print(
            f"{'hands':>7} {'RSS MB':>8} {'change KB':>10} {'anon MB':>8} "
            f"{'malloc MB':>10} {'free MB':>8} {'objects':>8} {'threads':>8} "
            f"{'worker cpu s':>13} {'wall s':>7}"
        )

        def row(hands: int, now: dict[str, Any], before: dict[str, Any] | None) -> None:
            change = f"{now['VmRSS'] - before['VmRSS']:+}" if before else ""
            heap = now["malloc"] or {"in_use": 0, "free": 0}
            print(
                f"{hands:>7} {now['VmRSS'] / 1024:>8.1f} {change:>10} "
                f"{now['RssAnon'] / 1024:>8.1f} {heap['in_use'] / 2**20:>10.1f} "
                f"{heap['free'] / 2**20:>8.1f} {now['gc_objects']:>8} {now['Threads']:>8} "
                f"{cpu_seconds(worker) - cpu_at_boot:>13.1f} "
                f"{time.perf_counter() - wall_at_boot:>7.1f}"
            )

        row(0, curve[0][1], None)
        failures: list[str] = []
        sent = 0
        while sent < args.hands:
            step = min(args.step, args.hands - sent)
            share = -(-step // args.pads)
            start = sent // args.pads

            def enter(pad: bench.Pad, first: int = start, count: int = share) -> None:
                client = bench.Client(port)
                headers = {
                    "Authorization": f"Token {pad.token}",
                    "Content-Type": "application/json",
                }
                for game_id, body in pad.hands[first : first + count]:
                    status, answer = client.post(
                        f"/api/v1/games/{game_id}/hands/",
                        json.dumps(body).encode(),
                        {**headers, "Idempotency-Key": uuid.uuid4().hex},
                    )
                    if status != 201:
                        failures.append(f"{status} {answer[:200]!r}")

            threads = [threading.Thread(target=enter, args=(pad,)) for pad in pads]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            sent += share * args.pads
            query = f"?trace={args.trace}" if args.trace and len(curve) == 1 else ""
            curve.append((sent, memory(port, query)))
            row(sent, curve[-1][1], curve[-2][1])
        half = curve[len(curve) // 2 :]
        hands = max(half[-1][0] - half[0][0], 1)

        def slope(key: str) -> float:
            return float(half[-1][1][key] - half[0][1][key]) / hands

        heap_slope = (
            (half[-1][1]["malloc"]["in_use"] - half[0][1]["malloc"]["in_use"]) / 1024 / hands
            if half[0][1]["malloc"]
            else float("nan")
        )
        print(f"answers other than 201: {len(failures)} {failures[:3]}")
        print(
            f"RSS {curve[0][1]['VmRSS'] / 1024:.1f} MB at boot, "
            f"{curve[-1][1]['VmRSS'] / 1024:.1f} MB after {curve[-1][0]} hands; second half "
            f"({half[0][0]} to {half[-1][0]} hands): RSS {slope('VmRSS'):+.3f} KB per hand, "
            f"malloc in use {heap_slope:+.3f} KB per hand, "
            f"{slope('gc_objects'):+.3f} objects per hand"
        )
        worker_cpu = cpu_seconds(worker) - cpu_at_boot
        print(
            f"worker: cpu {worker_cpu:.1f} s, {worker_cpu / max(sent, 1) * 1000:.2f} ms per "
            f"hand (with the memory reports), wall {time.perf_counter() - wall_at_boot:.1f} s"
        )
        if args.trace:
            growth = memory(port, f"?top={args.top}")["growth"]
            print(
                f"\ntracemalloc: {growth['traced'] / 1024:.0f} KB traced and still held since "
                f"{curve[1][0]} hands; the tracebacks that grew most:"
            )
            for stat in growth["top"]:
                print(f"  {stat['size'] / 1024:+9.1f} KB {stat['count']:+7} blocks")
                for line in stat["traceback"]:
                    print(f"      {line}")
            print("objects the garbage collector tracks, by type, grown most:")
            for name, count in growth["types"]:
                print(f"  {count:+8} {name}")
    finally:
        server.terminate()
        server.wait(timeout=30)
        bench.drop_database(args.server, args.db)
        print(
            f"wall {time.perf_counter() - started_wall:.1f} s, "
            f"cpu {time.process_time() - started_cpu:.1f} s (this script)"
        )


if __name__ == "__main__":
    main()
