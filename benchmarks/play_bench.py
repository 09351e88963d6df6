"""Many tables of four played at once over real WebSockets: daphne, PostgreSQL and the Redis
channel layer, as in production.

Run from the project root (PostgreSQL and Redis on loopback)::

    .venv/bin/python benchmarks/play_bench.py --tables 100 --seconds 30 --pace 1.0

Each table has four players, each a WebSocket client of its own seat (cookies of a signed-in
session, as a browser's); every client answers the state it is sent with a random legal move
when its seat owes one (the one who cuts cuts, seat 0 starts the next game), after ``--pace``
seconds (0: at once, the server's capacity in a closed loop); a state that comes while it
waits replaces the one it was answering, as a person answers what the table shows now.
Printed:

* tables held (every table still playing at the end, no socket closed, no move refused);
* accepted actions per second;
* from a move sent to the new state reaching all four seats of its table: p50, p99 (this
  includes the move's own round trip, the lock, the engine, the write, the channel layer and
  each connection reading its own seat's view);
* the server's memory per table (daphne's resident size with the tables connected, less
  before any, over the tables) and its CPU per action; the client's CPU beside the wall time,
  and how late its own event loop ran (p99 and most, of a 10 ms tick): a client that runs
  late reads states and sends moves late, and the latencies include that;
  the machine's load average, since on a shared machine daphne gets only its share of the
  cores and the latencies say more about the others than about it.

The server is one daphne process: it holds every socket and does every move's database work
in its thread pool. With ``--processes 2`` it is two (on ``--port`` and the next port), one
for each core, and each table's seats are spread over them (seats 0 and 2 on the first, 1
and 3 on the second), as people behind a load balancer would be: a move is then shown at
once to the seats held by its own process and read once by the other (the CPU and memory
printed are both processes' together). The client runs on the same two cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _env(args: argparse.Namespace) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": args.db,
        "REDIS_URL": args.redis,
        "CHANNEL_LAYER_PREFIX": f"play-bench-{os.getpid()}",
        "DJANGO_DEBUG": "0",
        "PLAY_COMPUTER_DELAY_MIN": "0",
        "PLAY_COMPUTER_DELAY_MAX": "0",
        "DJANGO_SETTINGS_MODULE": "tarabish_site.settings",
    }


def _rss_kb(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def _cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def _setup(tables: int) -> list[tuple[int, list[str]]]:
    """Tables of four signed-in people, each game started; answers (table, four cookies)."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from play import services

    out = []
    stamp = int(time.time())
    for n in range(tables):
        users = [
            get_user_model().objects.create_user(username=f"bench-{stamp}-{n}-{s}")
            for s in range(4)
        ]
        table = services.table_create(by=users[0], name=f"Bench {n}")
        cookies = []
        for s, user in enumerate(users):
            services.table_sit(table=table, user=user, seat=s)
            client = Client()
            client.force_login(user)
            cookies.append(
                f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
            )
        services.move(table=table, seat=0, data={"type": "start"})
        out.append((table.pk, cookies))
    return out


def _move(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    seat, phase, hand = state["you"], state["phase"], state["hand"]
    if phase in ("seating", "game_over"):
        return {"type": "start"} if seat == 0 else None
    if phase == "cutting":
        return {"type": "cut", "at": rng.randint(4, 32)} if hand["cutter"] == seat else None
    if phase == "hand_over":
        return {"type": "continue"} if seat == 0 else None
    view: dict[str, Any] = hand["view"]
    legal: list[dict[str, Any]] = view["legal_actions"]
    declare = [a for a in legal if a["type"] in ("bella", "announce_run", "show_run")]
    if declare:
        return declare[0]
    if view["to_act"] != seat or view["phase"] == "done":
        return None
    if view["phase"] == "calling":
        return rng.choice([a for a in legal if a["type"] in ("pass", "call")])
    return {"type": "play", "card": rng.choice(view["legal_plays"])}


class Bench:
    def __init__(self, pace: float) -> None:
        self.pace = pace
        self.sent: dict[tuple[int, int], float] = {}
        self.seen: dict[tuple[int, int], list[float]] = {}
        self.latencies: list[float] = []
        self.actions = 0
        self.refused = 0
        self.closed = 0
        self.connected: dict[int, int] = {}
        self.running = True
        self.lags: list[float] = []

    async def watch_loop(self) -> None:
        """The client's own event loop lag: how late a 10 ms tick wakes. A late client reads
        the states late and sends the moves late, and that counts in the latencies too."""
        tick = 0.01
        while self.running:
            due = time.perf_counter() + tick
            await asyncio.sleep(tick)
            self.lags.append(max(0.0, time.perf_counter() - due))

    async def seat(self, url: str, origin: str, cookie: str, table: int, seed: int) -> None:
        import websockets
        from websockets.typing import Origin

        rng = random.Random(seed)
        async with websockets.connect(
            url,
            origin=Origin(origin),
            additional_headers={"Cookie": cookie},
            max_size=2**20,
            open_timeout=120,
        ) as socket:
            self.connected[table] = self.connected.get(table, 0) + 1
            pending: asyncio.Task[None] | None = None
            try:
                async for raw in socket:
                    now = time.perf_counter()
                    data = json.loads(raw)
                    if data.get("event") == "refused":
                        self.refused += 1
                        continue
                    key = (table, data["version"])
                    got = self.seen.setdefault(key, [])
                    got.append(now)
                    if len(got) == 4 and key in self.sent:
                        self.latencies.append(max(got) - self.sent.pop(key))
                        self.actions += 1
                        del self.seen[key]
                    if not self.running:
                        break
                    move = _move(data, rng)
                    if pending is not None:  # a person answers what the table shows now
                        pending.cancel()
                    if move is not None:
                        pending = asyncio.create_task(
                            self._answer(socket, table, data["version"], move, rng)
                        )
            except websockets.ConnectionClosed:
                self.closed += 1
            finally:
                if pending is not None:
                    pending.cancel()

    async def _answer(
        self, socket: Any, table: int, version: int, move: dict[str, Any], rng: random.Random
    ) -> None:
        if self.pace:
            await asyncio.sleep(self.pace * rng.uniform(0.5, 1.5))
        self.sent[(table, version + 1)] = time.perf_counter()
        await socket.send(json.dumps(move))


async def _run(
    args: argparse.Namespace, tables: list[tuple[int, list[str]]], pids: list[int]
) -> None:
    bench = Bench(args.pace)
    rss_before = _rss_kb(pids)
    tasks = []
    for pk, cookies in tables:  # a table at a time, as people arrive
        for s, cookie in enumerate(cookies):
            port = args.port + s % len(pids)  # a table's seats spread over the processes
            url, origin = f"ws://127.0.0.1:{port}/ws/play/{pk}/", f"http://127.0.0.1:{port}"
            tasks.append(asyncio.create_task(bench.seat(url, origin, cookie, pk, pk * 4 + s)))
        await asyncio.sleep(args.arrive)
    await asyncio.sleep(args.warm_up)
    watcher = asyncio.create_task(bench.watch_loop())
    bench.latencies.clear()
    bench.actions = 0
    cpu0, wall0, client0 = _cpu_seconds(pids), time.perf_counter(), time.process_time()
    await asyncio.sleep(args.seconds)
    cpu1, wall1, client1 = _cpu_seconds(pids), time.perf_counter(), time.process_time()
    rss_during = _rss_kb(pids)
    actions, lat = bench.actions, sorted(bench.latencies)
    bench.running = False
    lags = sorted(bench.lags)
    watcher.cancel()
    for task in tasks:
        task.cancel()
    failures = [
        r
        for r in await asyncio.gather(*tasks, return_exceptions=True)
        if isinstance(r, Exception) and not isinstance(r, asyncio.CancelledError)
    ]
    if failures:
        print(f"{len(failures)} sockets failed, the first: {failures[0]!r}")
    wall = wall1 - wall0
    held = sum(n == 4 for n in bench.connected.values()) - bench.closed
    p50 = statistics.median(lat) * 1000 if lat else float("nan")
    p99 = lat[int(len(lat) * 0.99)] * 1000 if lat else float("nan")
    print(
        f"tables: {len(tables)} (all four seats connected and kept: {held}), "
        f"pace {args.pace}s, timed {wall:.1f}s wall"
    )
    print(f"actions: {actions} ({actions / wall:.0f}/s), refused {bench.refused}")
    print(f"sent -> all four seats: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    servers = "one process" if len(pids) == 1 else f"{len(pids)} processes (seats spread)"
    print(
        f"daphne, {servers}: {(cpu1 - cpu0) / max(actions, 1) * 1000:.2f} ms CPU per action, "
        f"{(cpu1 - cpu0) / wall * 100:.0f}% of one core; memory {rss_before / 1024:.0f} MB before, "
        f"{rss_during / 1024:.0f} MB with the tables: "
        f"{(rss_during - rss_before) / len(tables):.0f} kB per table"
    )
    lag99 = lags[int(len(lags) * 0.99)] * 1000 if lags else float("nan")
    lag_max = lags[-1] * 1000 if lags else float("nan")
    print(
        f"client: {client1 - client0:.1f} s CPU in {wall:.1f} s wall; its event loop late "
        f"by {lag99:.1f} ms at p99, {lag_max:.1f} ms at most"
    )
    load = os.getloadavg()[0]
    print(f"machine: load average {load:.1f} on {os.cpu_count()} cores at the end of the run")


def _wait_for_port(port: int) -> None:
    import socket

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"daphne did not listen on port {port}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warm-up", type=float, default=5)
    parser.add_argument("--pace", type=float, default=1.0)
    parser.add_argument("--arrive", type=float, default=0.1, help="seconds between tables")
    parser.add_argument("--port", type=int, default=8104)
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="daphne processes, on --port and the ports after it; each table's seats are "
        "spread over them (seat n to process n modulo their number)",
    )
    parser.add_argument("--db", default="postgres://postgres@127.0.0.1:5432/tarabish_play")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/12")
    parser.add_argument("--server-log", default="", help="a file for daphne's own log")
    args = parser.parse_args()
    env = _env(args)
    os.environ.update(env)
    python = str(ROOT / ".venv" / "bin" / "python")
    subprocess.run(  # noqa: S603 - fixed command
        [python, "manage.py", "migrate", "--no-input", "-v0"], cwd=ROOT, env=env, check=True
    )
    tables = _setup(args.tables)
    log = open(args.server_log, "ab") if args.server_log else subprocess.DEVNULL  # noqa: SIM115
    servers = [
        subprocess.Popen(  # noqa: S603 - fixed command
            [
                str(ROOT / ".venv" / "bin" / "daphne"),
                "-b",
                "127.0.0.1",
                "-p",
                str(args.port + n),
                "--websocket_connect_timeout",
                "60",
                "tarabish_site.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        for n in range(args.processes)
    ]
    try:
        for n in range(args.processes):
            _wait_for_port(args.port + n)
        asyncio.run(_run(args, tables, [server.pid for server in servers]))
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


if __name__ == "__main__":
    main()
