"""Live updates: tell every open page that something it shows has changed.

A page (or an app) *watches* a topic and a key, say the game 12 or the tournament
``autumn-cup``, over one WebSocket at ``/ws/watch/<topic>/<key>/``; code that stores a change
*publishes* it, after its transaction commits::

    from tarabish_site import live

    live.publish(live.GAME, game.pk)                 # a hand of game 12 was stored
    live.publish(live.TOURNAMENT, tournament.slug, stage=stage.pk)

Every socket watching that topic and key then receives one JSON message::

    {"event": "changed", "topic": "game", "key": "12", ...the keyword arguments given}

and fetches what it shows again (an ordinary GET, with ``If-None-Match``): the message says
*what* changed, never the data, so a page's permissions and rendering stay in its view and a
socket carries nothing a page would not show. A page that cannot hold a socket polls the same
address with its ETag and gets 304 until something changes.

Topics are registered once, with the check of who may watch a key (``register`` in an app's
``ready()``); the watch consumer refuses an unknown topic, or a key the user may not see, by
closing with code 4404 (the same answer for both, as a page's 404). Group names are
``live.<topic>.<key>`` (:func:`group_name`), for code that joins a group itself (online tables
do).

Publishing never fails the write it follows: a channel layer that cannot be reached (Redis
down) or does not answer within :data:`SEND_TIMEOUT` is logged and skipped, and pages catch up
on their next poll or reconnect. With no channel layer configured nothing is sent. The layer
is in-memory in one process by default, Redis (``REDIS_URL``) across processes.

Code that is not itself asynchronous (a view under gunicorn, a task, a consumer's database
thread) sends to Redis through one event loop per process, run by the thread that sends for as
long as the message takes (one thread at a time), with a channel layer of its own that only
that loop uses: its connection to Redis lasts from one message to the next, and no other event
loop ever touches it. A message costs the sending thread one round trip to Redis and no other
thread's time. ``async_to_sync`` would start a thread and an event loop, and connect to Redis,
for every message: about 2.5 ms of CPU each, and the process's C heap grew with every one
(``benchmarks/memory_curve.py``); a loop in a thread of its own, handed each message, made the
request thread and that thread take turns at the interpreter's lock, which cost a hand entry
more CPU than the round trip it saved (``benchmarks/api_bench.py``). A thread waits at most
:data:`SEND_TIMEOUT` for another one's message to be sent before giving its own up. The
in-memory layer, whose queues belong to the event loop of the process's server, is still sent
to with ``async_to_sync`` on the shared instance: another instance would reach nobody.
Publishing is for synchronous code; from a coroutine, send with the layer itself. Synchronous
code in a thread that runs an event loop all the same (a client driving one from greenlets, as
Playwright's synchronous API does) can run no other loop there: its message is sent by a thread
of its own, waited for.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels import DEFAULT_CHANNEL_LAYER
from channels.layers import (
    BaseChannelLayer,
    InMemoryChannelLayer,
    channel_layers,
    get_channel_layer,
)
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.db import transaction

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    Watcher = AbstractBaseUser | AnonymousUser
else:
    Watcher = object

__all__ = [
    "GAME",
    "MATCH",
    "TOURNAMENT",
    "group_name",
    "publish",
    "publish_now",
    "register",
    "topic",
]

log = logging.getLogger(__name__)

GAME = "game"
MATCH = "match"
TOURNAMENT = "tournament"

# What a group name may hold (channels: ASCII letters, digits, hyphens, periods, underscores).
_KEY = re.compile(r"^[A-Za-z0-9_-]{1,80}$")


@dataclass(frozen=True, slots=True)
class Topic:
    """A kind of thing that can be watched, and who may watch one of them."""

    name: str
    can_watch: Callable[[Watcher, str], bool]


_topics: dict[str, Topic] = {}


def register(name: str, can_watch: Callable[[Watcher, str], bool]) -> None:
    """Let pages watch ``name``; ``can_watch(user, key)`` says whether ``user`` may watch the
    thing ``key`` names (it runs in a worker thread and may query the database; a key that
    names nothing answers False)."""
    if not _KEY.match(name):
        raise ValueError(f"a topic is letters, digits, '-' or '_', not {name!r}")
    _topics[name] = Topic(name, can_watch)


def topic(name: str) -> Topic | None:
    """The registered topic ``name``, if any."""
    return _topics.get(name)


def group_name(topic_name: str, key: object) -> str:
    """The channel-layer group of the sockets watching ``key`` of ``topic_name``."""
    text = str(key)
    if not _KEY.match(text):
        raise ValueError(f"a key is letters, digits, '-' or '_', not {text!r}")
    return f"live.{topic_name}.{text}"


def _message(topic_name: str, key: object, details: dict[str, Any]) -> dict[str, Any]:
    return {"type": "live.changed", "topic": topic_name, "key": str(key), "details": details}


def publish(topic_name: str, key: object, **details: Any) -> None:
    """Tell the watchers of ``key`` of ``topic_name`` that it changed, once the current
    transaction commits (at once outside one). ``details`` (JSON values) go with the message."""
    group = group_name(topic_name, key)
    message = _message(topic_name, key, details)
    transaction.on_commit(lambda: _send(group, message))


def publish_now(topic_name: str, key: object, **details: Any) -> None:
    """:func:`publish` without waiting for a commit: for what is already stored."""
    _send(group_name(topic_name, key), _message(topic_name, key, details))


#: Seconds a message may take to reach the layer, or wait for another thread's to, before it
#: is given up (and logged).
SEND_TIMEOUT = 2.0


class _Sender:
    """The event loop of a process that sends to Redis, made again in a forked child (which
    must not share its parent's connections), and the channel layer only that loop uses:
    made from the same settings as the shared one, again whenever the shared one is replaced
    (the settings changed). The thread that sends runs the loop until its message is sent."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._shared: BaseChannelLayer | None = None
        self._own: BaseChannelLayer | None = None

    def send(self, shared: BaseChannelLayer, group: str, message: dict[str, Any]) -> None:
        """Send ``message`` to ``group`` through the loop's own layer, giving it up after
        :data:`SEND_TIMEOUT` seconds (raising)."""
        if not self._lock.acquire(timeout=SEND_TIMEOUT):
            raise TimeoutError(f"another thread has been sending for {SEND_TIMEOUT} s")
        try:
            loop, layer = self._ready(shared)
            loop.run_until_complete(_within(layer, group, message))
        finally:
            self._lock.release()

    def _ready(
        self, shared: BaseChannelLayer
    ) -> tuple[asyncio.AbstractEventLoop, BaseChannelLayer]:
        loop, own = self._loop, self._own
        if loop is None or self._pid != os.getpid():
            # A parent's loop and layer are left alone: their connections are the parent's.
            loop, own = asyncio.new_event_loop(), None
        elif own is not None and self._shared is not shared:
            # The settings changed: the old Redis layer's connections are closed.
            try:
                loop.run_until_complete(_close(own))
            except Exception:  # its Redis is gone: nothing left to close cleanly
                log.warning("closing the previous live-update layer failed", exc_info=True)
        if own is None or self._shared is not shared:
            own = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
        self._loop, self._pid, self._shared, self._own = loop, os.getpid(), shared, own
        return loop, own


async def _close(layer: BaseChannelLayer) -> None:
    """Close the connections ``layer`` opened from the running loop: the Redis layer's
    ``flush`` closes them and forgets its subscriptions (it deletes nothing in Redis)."""
    if isinstance(layer, RedisPubSubChannelLayer):
        async with asyncio.timeout(SEND_TIMEOUT):
            await layer.flush()


async def _within(layer: BaseChannelLayer, group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group``, given up (cancelled) after :data:`SEND_TIMEOUT` seconds."""
    async with asyncio.timeout(SEND_TIMEOUT):
        await layer.group_send(group, message)


_sender = _Sender()


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        if _loop_running_here():
            _in_a_thread_of_its_own(layer, group, message)
        else:
            _deliver(layer, group, message)
    except Exception:  # a layer that cannot be reached never fails a write that has committed
        log.warning("live update to %s not sent", group, exc_info=True)


def _deliver(layer: BaseChannelLayer, group: str, message: dict[str, Any]) -> None:
    if isinstance(layer, InMemoryChannelLayer):
        async_to_sync(layer.group_send)(group, message)
    else:
        _sender.send(layer, group, message)


def _loop_running_here() -> bool:
    """Whether this thread runs an event loop while it runs synchronous code that publishes
    (a client driving one from greenlets does, as Playwright's synchronous API): no other loop
    may be run in it, nor ``async_to_sync`` used."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _in_a_thread_of_its_own(layer: BaseChannelLayer, group: str, message: dict[str, Any]) -> None:
    """:func:`_deliver` in a new thread, waited for (its failure raised here), for a thread that
    may not run the sender's loop itself."""
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-update")
    try:
        # the sender gives up after SEND_TIMEOUT, and may wait as long for another thread
        pool.submit(_deliver, layer, group, message).result(timeout=2 * SEND_TIMEOUT)
    finally:
        pool.shutdown(wait=False)
