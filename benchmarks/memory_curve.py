"""A web worker's memory as hands are entered: RSS after every ``--step`` hands.

Run from the project root (PostgreSQL and Redis on loopback)::

    .venv/bin/python benchmarks/memory_curve.py --hands 10000 --step 1000

One gunicorn worker (synchronous, ``max_requests`` off, so nothing restarts it and hides a
leak) serves ``--pads`` score-pads entering real games hand by hand through the API, with a
token and an ``Idempotency-Key``, as ``benchmarks/api_bench.py`` sets them up (its own
database, dropped at the end). After each step the worker's resident set size is read from
/proc. A process whose memory holds on to something per hand grows in a straight line; a
flat curve (after the first steps, where caches and the allocator's arenas fill) is the goal.
The slope over the second half of the run is printed in KB per hand, with the CPU time of
this script (``time.process_time``) beside the wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import api_bench as bench  # noqa: E402 - the setup and the score-pads of the benchmark


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


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
    try:
        worker = worker_pid(server.pid)
        curve = [(0, rss_kb(worker))]
        print(f"{'hands':>7} {'RSS MB':>8} {'change KB':>10}")
        print(f"{0:>7} {curve[0][1] / 1024:>8.1f} {'':>10}")
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
            curve.append((sent, rss_kb(worker)))
            print(f"{sent:>7} {curve[-1][1] / 1024:>8.1f} {curve[-1][1] - curve[-2][1]:>+10}")
        half = curve[len(curve) // 2 :]
        slope = (half[-1][1] - half[0][1]) / max(half[-1][0] - half[0][0], 1)
        print(f"answers other than 201: {len(failures)} {failures[:3]}")
        print(
            f"RSS {curve[0][1] / 1024:.1f} MB at boot, {curve[-1][1] / 1024:.1f} MB after "
            f"{curve[-1][0]} hands; second half: {slope:+.3f} KB per hand"
        )
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
