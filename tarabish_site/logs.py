"""Log lines that say which request or task they belong to.

Every line logged while a request is served carries its ``request_id`` (the proxy's
``X-Request-ID`` when it sends a well-formed one, else a new one, sent back in the answer), and
every line logged while a task runs carries the ``task_id`` and the ``request_id`` of the request
that sent it. :class:`ContextFilter` adds them to each record; the handlers of
``settings.LOGGING`` write records as JSON lines in production (``LOG_FORMAT=json``) and as text
elsewhere.
"""

from __future__ import annotations

import logging
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar, Token
from typing import Any

#: What this process is working on now: request_id, task_id, and the ids it knows of.
_context: ContextVar[Mapping[str, Any]] = ContextVar("tarabish_log_context", default={})  # noqa: B039 - never mutated

_WELL_FORMED_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")

#: A URL's id argument, by the collection it follows, as a log field.
_ID_FIELDS = {
    "games": "game_id",
    "matches": "match_id",
    "disputes": "dispute_id",
    "players": "player_id",
    "teams": "team_id",
    "tournaments": "tournament",
    "stages": "stage_id",
    "entries": "entry_id",
}


def new_request_id(offered: str | None = None) -> str:
    """``offered`` (a proxy's ``X-Request-ID``) when it is a plain short id, else a new one."""
    if offered and _WELL_FORMED_ID.match(offered):
        return offered
    return uuid.uuid4().hex


def current() -> Mapping[str, Any]:
    """The ids of the request or task being served by this thread."""
    return _context.get()


def begin(**ids: Any) -> None:
    """Start over: the lines logged from now on carry ``ids`` alone (a new request)."""
    _context.set({k: v for k, v in ids.items() if v is not None})


def enter(**ids: Any) -> Token[Mapping[str, Any]]:
    """Add ``ids`` to every line logged from now on, until :func:`leave` with the token."""
    return _context.set({**_context.get(), **{k: v for k, v in ids.items() if v is not None}})


def leave(token: Token[Mapping[str, Any]]) -> None:
    _context.reset(token)


@contextmanager
def context(**ids: Any) -> Iterator[None]:
    """Add ``ids`` to every line logged inside the block (and by what it calls)."""
    token = enter(**ids)
    try:
        yield
    finally:
        leave(token)


def ids_in_route(route: str, kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The ids a URL names, as log fields: ``games/<int:pk>/`` gives ``game_id``,
    ``games/(?P<game_pk>...)/hands/`` too, ``matches/<int:pk>/`` ``match_id``."""
    ids: dict[str, Any] = {}
    for name, value in kwargs.items():
        if name == "pk" or name.endswith("_pk") or name in {"slug", "tournament_slug"}:
            collection = _collection_before(route, name)
            field = _ID_FIELDS.get(collection)
            if field:
                ids.setdefault(field, _number(value))
        elif name.endswith("_id"):
            ids[name] = _number(value)
    return ids


def _number(value: Any) -> Any:
    """An id captured by a regular expression (text) as the number it is."""
    return int(value) if isinstance(value, str) and value.isdigit() else value


def _collection_before(route: str, name: str) -> str:
    """The path segment before the one that captures ``name`` ("games" in ``games/<int:pk>``)."""
    for marker in (f"(?P<{name}>", f"<int:{name}>", f"<slug:{name}>", f"<{name}>"):
        at = route.find(marker)
        if at > 0:
            segments = route[:at].rstrip("/").split("/")
            return segments[-1].lstrip("^")
    return ""


class ContextFilter(logging.Filter):
    """Give every record the ids of the request or task it was logged in (``request_id`` is
    ``-`` outside both, so a text format can always name it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in _context.get().items():
            if not hasattr(record, key):
                setattr(record, key, value)
        if not hasattr(record, "request_id"):
            record.request_id = "-"
        return True


class RepeatFilter(logging.Filter):
    """Let the first record of a kind (its logger and message) through, hold back those like
    it for ``seconds`` after, and give the next one let through the number held back
    (``repeated``, a field of the JSON line, and ``(N more like it)`` after the text).

    For a library that logs the same failure with its traceback every second for as long as
    it lasts: channels-redis's receiving task while Redis is down, in every process that
    holds a socket. The outage still shows at once and then once a period, with its count.
    """

    def __init__(self, seconds: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.seconds = seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._seen: dict[tuple[str, object], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.msg)
        now = self._clock()
        with self._lock:
            shown, held = self._seen.get(key, (None, 0))
            if shown is not None and now - shown < self.seconds:
                self._seen[key] = (shown, held + 1)
                return False
            self._seen[key] = (now, 0)
        if held:
            record.repeated = held
            record.msg = f"{record.getMessage()} ({held} more like it)"
            record.args = ()
        return True
