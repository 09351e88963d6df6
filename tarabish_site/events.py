"""Events other systems hear about: a record written with the change that causes it.

Code that commits one of the events below says so *inside* its transaction::

    from tarabish_site import events

    events.record(events.MATCH_RESULT, tournament_id=stage.tournament_id, match=match.pk, ...)

and every registered recorder (the outbound webhooks register one in their app's ``ready()``)
answers one ``INSERT ... SELECT`` statement that stores the event's rows (one a subscriber, in
one round trip whatever their number): it runs at once, in the caller's transaction, so the
event is stored if and only if its cause is. Once the transaction commits, the recorder is
handed the keys of the rows it inserted, to start sending them.

Entering a hand, the hottest write, stores everything in one statement on PostgreSQL: it asks
:func:`statements` for the recorders' inserts written against its game's ``WITH`` query, and
runs them in that statement, so recording the event costs it no round trip.

The apps that cause events import only this module; the recorders depend on them, never the
other way round. With no recorder registered an event costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils.translation import gettext_noop

__all__ = [
    "DISPUTE_RULED",
    "EVENTS",
    "HAND_ENTERED",
    "MATCH_RESULT",
    "MATCH_STARTED",
    "STANDINGS_CHANGED",
    "TOURNAMENT_FINISHED",
    "Event",
    "Insert",
    "record",
    "register",
    "statements",
]

MATCH_STARTED = "match.started"
MATCH_RESULT = "match.result"
STANDINGS_CHANGED = "standings.changed"
HAND_ENTERED = "hand.entered"
DISPUTE_RULED = "dispute.ruled"
TOURNAMENT_FINISHED = "tournament.finished"

#: Every event, with what it says (in English, as the API's schema says it; marked for
#: translation, so a page shows it in its language with ``{% translate %}``), in the order the
#: documentation lists them.
EVENTS: dict[str, str] = {
    MATCH_STARTED: gettext_noop("a match's first game started"),
    MATCH_RESULT: gettext_noop(
        "a match's result was decided or changed (by its games or a forfeit)"
    ),
    STANDINGS_CHANGED: gettext_noop("a stage's standings moved"),
    HAND_ENTERED: gettext_noop("a hand of a match game was entered"),
    DISPUTE_RULED: gettext_noop("a director ruled on a misplay dispute in a match game"),
    TOURNAMENT_FINISHED: gettext_noop("a tournament finished, with its final places"),
}


@dataclass(frozen=True, slots=True)
class Event:
    """What happened: its name, the tournament it happened in (or, for a game's event, the
    game, whose tournament the recorder finds) and its data (JSON values)."""

    name: str
    tournament_id: int | None = None
    game_id: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Insert:
    """A recorder's statement for one event: ``INSERT ... SELECT ... RETURNING <key>``, its
    parameters, and what to call with the keys it returned once they are committed."""

    sql: str
    params: tuple[Any, ...]
    written: Callable[[Sequence[Any]], None]

    def after_commit(self, keys: Sequence[Any]) -> None:
        """Hand ``keys`` (the rows this statement inserted) to the recorder after the commit."""
        if keys:
            transaction.on_commit(lambda: self.written(list(keys)))


#: ``recorder(event, connection, source)``: the statement storing ``event``, or None when
#: nothing is to be stored. ``source``, when given, names a ``WITH`` query of the statement the
#: insert joins (its one row has the game's ``id`` and new ``updated_at``); None: the insert
#: stands alone.
Recorder = Callable[[Event, BaseDatabaseWrapper, str | None], Insert | None]

_recorders: list[Recorder] = []


def register(recorder: Recorder) -> None:
    """Record events with ``recorder`` (see :data:`Recorder`)."""
    _recorders.append(recorder)


def statements(event: Event, connection: BaseDatabaseWrapper, source: str | None) -> list[Insert]:
    """Every recorder's statement for ``event``, to run in the caller's own."""
    if event.name not in EVENTS:
        raise ValueError(f"unknown event {event.name!r}")
    found = []
    for recorder in _recorders:
        insert = recorder(event, connection, source)
        if insert is not None:
            found.append(insert)
    return found


def record(
    name: str, /, *, tournament_id: int | None = None, game_id: int | None = None, **data: Any
) -> None:
    """Store the event ``name`` with the change being written (call it inside that
    transaction); ``data`` is what it says (JSON values)."""
    if not _recorders:
        return
    connection = transaction.get_connection()
    event = Event(name, tournament_id=tournament_id, game_id=game_id, data=data)
    for insert in statements(event, connection, None):
        with connection.cursor() as cursor:
            cursor.execute(insert.sql, insert.params)
            keys = [row[0] for row in cursor.fetchall()]
        insert.after_commit(keys)
