"""``/ws/play/<table>/``: one connection of a person at a table (seated or watching).

On connecting, the connection receives the table as its seat sees it (a spectator's view
when the person does not sit there). It sends moves as JSON, ``{"type": "play", "card":
"JH"}`` and the like (see :func:`play.services.move`), always for its own seat: a move is
refused, to this connection only, with ``{"event": "refused", "code", "reason"}`` (the
engine's reason). An accepted move is stored and the table's group told of the new version;
every connection then sends its own seat's view (``{"event": "state", ...}``) of the table
as the process holding the connection has it: as the move left it when the move was made
there, or else read from the database (once for all the table's connections there), so a
table's four people may be connected to four processes and no card travels through the
channel layer. A spectator's connection
counts itself in the table's ``watching`` while it is open; each change of that count is sent
as ``{"event": "watching", "watching": n}``.

Computer players move from here: after a view is sent, a seated connection waits a short,
human-like delay and asks for the one computer move owed, if any, at that version (several
connections asking at once is harmless: the first takes it, the rest find the version moved).
"""

from __future__ import annotations

import asyncio
import gc
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from play import live, services
from play.models import Table
from play.selectors import TableRows, state_for, table_rows, table_rows_kept
from scoring.engine import EngineError
from tarabish_site.api.errors import ApplicationError

NOT_FOUND = 4404

#: The table as last read by this process, by (table, version), and the reads under way, by
#: the version they were asked for: the connections of a table held here share one read of
#: each version a move made elsewhere left (a move made here leaves its table kept, and its
#: connections read nothing: ``table_rows_kept``).
_read: dict[tuple[int, int], TableRows] = {}
_reading: dict[tuple[int, int], asyncio.Future[TableRows]] = {}
_READ_KEEP = 2000


async def _rows(pk: int, version: int) -> TableRows:
    """Table ``pk`` at ``version`` or later (0: as it is now, read afresh)."""
    if version:
        known = _read.get((pk, version)) or table_rows_kept(pk, version)
        if known is not None:
            return known
    key = (pk, version)
    reading = _reading.get(key) if version else None
    if reading is None:
        reading = asyncio.ensure_future(_db(table_rows)(pk))
        if version:
            _reading[key] = reading
            reading.add_done_callback(lambda _: _reading.pop(key, None))
    # shielded: the read goes on for the others waiting on it if this connection closes
    rows: TableRows = await asyncio.shield(reading)
    if len(_read) >= _READ_KEEP:
        _read.clear()
    _read[(pk, rows.table.version)] = rows
    return rows


#: Worker threads for the tables' database work on PostgreSQL, each with its own connection
#: (kept ``CONN_MAX_AGE``). asyncio's default executor has min(32, cores + 4) threads, six on
#: two cores; a move holds its thread for its round trips, its COMMIT and its message to the
#: channel layer (about 25 ms under load), so with a hundred tables playing the moves queued
#: for those six threads, up to 150-300 ms at the 99th percentile, with the CPU half idle.
DB_THREADS = 16
_executor: ThreadPoolExecutor | None = None


def db_threads_stop() -> None:
    """Stop the tables' database threads, their connections closing with them (the next call
    starts them again): for tests, whose database is dropped at the end."""
    global _executor
    executor, _executor = _executor, None
    if executor is not None:
        executor.shutdown(wait=True)
        # A finished thread's connection closes when its wrapper is freed, and Django's
        # connection objects refer to one another in cycles: only the cycle collector frees
        # them, whenever it next runs.
        gc.collect()


def _db(func: Any) -> Any:
    """``func`` run in a worker thread with its own connection on PostgreSQL: moves and reads
    of different tables wait on the database side by side, not one after another in one
    thread (the default of ``database_sync_to_async``, kept for SQLite, whose one writer at a
    time gains nothing from more threads). Nothing here relies on running in one thread:
    every move locks its table row."""
    global _executor  # noqa: PLW0603 - made once, on first use, in the server's process
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        return database_sync_to_async(func, thread_sensitive=True)
    if _executor is None:
        _executor = ThreadPoolExecutor(DB_THREADS, thread_name_prefix="play-db")
    return database_sync_to_async(func, thread_sensitive=False, executor=_executor)


def _delay() -> float:
    low, high = settings.PLAY_COMPUTER_DELAY
    return float(random.uniform(low, high))  # noqa: S311 - a pause, not a secret


class TableConsumer(AsyncJsonWebsocketConsumer):
    table_id: int = 0
    seat: int | None = None
    group: str | None = None
    sent_version: int = 0
    driver: asyncio.Task[None] | None = None

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' own, less its closing of the old database connections before each
        message: that runs in the one thread shared by synchronous code, so every message of
        every connection waited for that thread in turn (the move itself and the four views
        it makes queued there). Every database call here goes through
        ``database_sync_to_async``, which closes its own thread's old connections before and
        after the call."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        key = self.scope["url_route"]["kwargs"]["table"]
        user = self.scope.get("user")
        query = parse_qs(self.scope.get("query_string", b"").decode())
        token = (query.get("invite") or [""])[0]
        found = await _db(self._admit)(int(key), user, token)
        if found is None:
            await self.close(code=NOT_FOUND)
            return
        self.table_id, self.seat = found
        self.group = live.group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send_state()

    def _admit(self, pk: int, user: Any, token: str) -> tuple[int, int | None] | None:
        table = Table.objects.filter(pk=pk).first()
        if table is None or not services.table_watch(table=table, user=user, token=token):
            return None
        seat = services.seat_of(table, user)
        if seat is not None:
            services.seat_away(table=table, seat=seat, away=False)
        else:
            services.table_watched(table=table.pk, by=1)
        return table.pk, seat

    async def disconnect(self, code: int) -> None:
        if self.driver is not None:
            self.driver.cancel()
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.seat is not None:
            await _db(services.seat_away)(table=self.table_id, seat=self.seat, away=True)
        elif self.group is not None:  # a spectator who was let in
            await _db(services.table_watched)(table=self.table_id, by=-1)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        ref = content.get("ref") if isinstance(content, dict) else None
        if self.seat is None:
            await self._refuse("not_seated", "you are watching: take a seat to play", ref)
            return
        if not isinstance(content, dict):
            await self._refuse("bad_move", "a move is a JSON object with a type", ref)
            return
        data = {k: v for k, v in content.items() if k != "ref"}
        try:
            await _db(services.move)(table=self.table_id, seat=self.seat, data=data)
        except (EngineError, ApplicationError) as exc:
            code = getattr(exc, "code", "refused")
            await self._refuse(str(code), str(exc), ref)

    async def _refuse(self, code: str, reason: str, ref: Any) -> None:
        await self.send_json({"event": "refused", "code": code, "reason": reason, "ref": ref})

    async def live_changed(self, message: dict[str, Any]) -> None:
        details = message["details"]
        if "watching" in details:  # people came to watch or left: no view changed
            await self.send_json({"event": "watching", "watching": details["watching"]})
            return
        version = details.get("version", 0)
        if version > self.sent_version:
            await self._send_state(version)

    async def _send_state(self, version: int = 0) -> None:
        state = state_for(await _rows(self.table_id, version), self.seat)
        if state["version"] <= self.sent_version:
            return
        self.sent_version = state["version"]
        await self.send_json(state)
        computers = any(s["bot"] for s in state["seats"]) or (
            state["replace_after"] is not None and any(s["away"] for s in state["seats"])
        )
        if self.seat is not None and computers:
            if self.driver is not None and not self.driver.done():
                self.driver.cancel()
            self.driver = asyncio.ensure_future(self._computers(state))

    async def _computers(self, state: dict[str, Any]) -> None:
        """After a pause, the computer move owed at this version, if any; when a person is
        away and the table replaces them, again once they have been away long enough."""
        await asyncio.sleep(_delay())
        version = state["version"]
        move = _db(services.computer_move)
        if await move(table=self.table_id, version=version):
            return
        view = (state.get("hand") or {}).get("view") or {}
        if any(a["type"] == "bella" for a in view.get("legal_actions", ())):
            # this seat's person may call bella: the computers wait for them, then go on
            await asyncio.sleep(settings.PLAY_BELLA_WAIT)
            if await move(table=self.table_id, version=version):
                return
        after = state["replace_after"]
        if after is not None and any(s["away"] for s in state["seats"]):
            await asyncio.sleep(after)
            await move(table=self.table_id, version=version)
