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

Publishing never fails the write it follows: the message is sent once the transaction has
committed, and a channel layer that cannot be reached (Redis down) is logged and skipped;
pages catch up on their next poll or reconnect. With no channel layer configured nothing is
sent. The layer is in-memory in one process by default, Redis (``REDIS_URL``) across processes.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
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


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a layer that cannot be reached never fails a write that has committed
        log.warning("live update to %s not sent", group, exc_info=True)
