"""The SQL that stores an entered hand, written out for the four tables it touches.

Entering a hand writes the game's new state, only if the game is still the row the hand was
scored against (its version and time of change as read), then the hand, the response kept
for the request's ``Idempotency-Key`` (if it has one) and, for the hand that ends the game,
its :class:`~scoring.models.ResultChange`, and the rows other systems keep of the hand
entered (``tarabish_site.events``: the webhooks' outbox). Each insert takes the game's key
and time of change from the game row just updated (``g``), so the hand is made when the game
changed.

On PostgreSQL the writes are one data-modifying ``WITH`` statement, atomic by itself: the
game's conditional ``UPDATE`` first, every insert selecting from it, so a game that moved on
gets nothing written and no round trip is spent finding out. Elsewhere (SQLite) the same
``UPDATE`` and ``INSERT ... SELECT`` statements run one after another in a transaction, the
inserts selecting from the game row once its update went through.

The statements name their columns: a column added to one of these tables is added here too,
or the tests of this module fail. Every value is prepared as ``save()`` prepares it, by its
model field's ``get_db_prep_save``; but most columns are whole numbers, text and yes/no
values, already of their Python type, for which that is four calls a value returning it
unchanged, or for whole numbers handing it to the backend's ``adapt_integerfield_value``:
those take that last step alone. No model signal is sent: nothing listens to these
models' saves.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connections, models, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

from scoring.models import Game, Hand
from tarabish_site import events
from tarabish_site.core.models import IdempotencyRecord


@dataclass(frozen=True)
class Columns:
    """Columns of one table that a statement here writes, each with the model field that
    prepares its value."""

    table: str
    fields: tuple[Field[Any, Any], ...]

    @classmethod
    def of(cls, model: type[Model], table: str, names: tuple[str, ...]) -> Columns:
        fields = []
        for name in names:
            field = model._meta.get_field(name)
            assert isinstance(field, Field)  # noqa: S101 - columns of the model
            fields.append(field)
        return cls(table, tuple(fields))

    def names(self) -> str:
        return ", ".join(f'"{field.column}"' for field in self.fields)

    def placeholders(self) -> str:
        return ", ".join("%s" for _ in self.fields)

    def assignments(self) -> str:
        """The ``SET`` list of an ``UPDATE`` of these columns, a parameter each."""
        return ", ".join(f'"{field.column}" = %s' for field in self.fields)

    def values(self, obj: Model, connection: BaseDatabaseWrapper) -> list[Any]:
        """The values of ``obj`` for these columns, as ``save()`` would send them."""
        return [prepared(field, getattr(obj, field.attname), connection) for field in self.fields]


#: Field classes whose values Django prepares as the backend adapts a whole number, and those
#: whose text or yes/no values it sends as they are (exactly these classes: a subclass may
#: prepare its values its own way).
_WHOLE_NUMBERS = (
    models.IntegerField,
    models.PositiveIntegerField,
    models.PositiveSmallIntegerField,
    models.SmallIntegerField,
    models.BigIntegerField,
)
_AS_THEY_ARE = {models.CharField: str, models.TextField: str, models.BooleanField: bool}


def prepared(field: Field[Any, Any], value: Any, connection: BaseDatabaseWrapper) -> Any:
    """``field.get_db_prep_save(value, connection=connection)``, by its last step alone for
    a whole number, text or yes/no value of a plain field of that kind."""
    kind = type(field)
    if value is None and (kind in _WHOLE_NUMBERS or kind in _AS_THEY_ARE):
        return None
    if kind in _WHOLE_NUMBERS and type(value) is int:
        return connection.ops.adapt_integerfield_value(value, field.get_internal_type())
    if _AS_THEY_ARE.get(kind) is type(value):
        return value
    return field.get_db_prep_save(value, connection=connection)


#: The columns of a game that entering a hand changes (see ``progress._apply_progress``).
GAME = Columns.of(
    Game,
    "scoring_game",
    (
        "score_a",
        "score_b",
        "hands_played",
        "next_dealer",
        "forced_seat",
        "status",
        "winner",
        "finished_at",
        "version",
        "updated_at",
    ),
)

#: Every column of a hand but its key and those taken from the game row (game, times).
HAND = Columns.of(
    Hand,
    "scoring_hand",
    (
        "number",
        "undone",
        "version",
        "entry_kind",
        "entry",
        "dealer",
        "caller",
        "trump",
        "outcome",
        "points_a",
        "points_b",
        "card_points_a",
        "card_points_b",
        "run_points_a",
        "run_points_b",
        "bella_points_a",
        "bella_points_b",
        "runs_counted_by",
        "bella_seat",
        "hand_total",
        "result",
        "running_a",
        "running_b",
        "created_by",
    ),
)
#: What the hand takes from the game row: its game and its times.
HAND_FROM_GAME = '"game_id", "created_at", "updated_at"'

#: Every column of a stored response but its key.
RECORD = Columns.of(
    IdempotencyRecord,
    "core_idempotencyrecord",
    (
        "user",
        "key",
        "method",
        "path",
        "fingerprint",
        "status_code",
        "response_body",
        "response_headers",
        "created_at",
    ),
)

RESULT_CHANGE_TABLE = "scoring_resultchange"


def _game_update() -> str:
    return (
        f'UPDATE "{GAME.table}" SET {GAME.assignments()} '  # noqa: S608 - the names above
        'WHERE "id" = %s AND "version" = %s AND "updated_at" = %s'
    )


def _inserts(source: str) -> tuple[str, str, str]:
    """The hand's, the stored response's and the result change's ``INSERT ... SELECT``, each
    selecting the game row ``g`` from ``source``."""
    hand = (
        f'INSERT INTO "{HAND.table}" ({HAND.names()}, {HAND_FROM_GAME}) '  # noqa: S608
        f'SELECT {HAND.placeholders()}, g."id", g."updated_at", g."updated_at" FROM {source}'
    )
    record = (
        f'INSERT INTO "{RECORD.table}" ({RECORD.names()}) '  # noqa: S608 - the names above
        f"SELECT {RECORD.placeholders()} FROM {source}"
    )
    result_change = (
        f'INSERT INTO "{RESULT_CHANGE_TABLE}" ("game_id", "created_at") '  # noqa: S608
        f'SELECT g."id", g."updated_at" FROM {source}'
    )
    return hand, record, result_change


@functools.lru_cache(maxsize=64)
def _one_statement(*, record: bool, ends: bool, announced: tuple[str, ...] = ()) -> str:
    """PostgreSQL's statement, with the stored response or not, ending the game or not, and
    the ``announced`` event inserts (each selecting from ``g``, returning its keys). Made
    once for each: the recorders give the same inserts for every hand of a kind."""
    hand, stored, result_change = _inserts("g")
    return (
        f'WITH g AS ({_game_update()} RETURNING "id", "updated_at"), '  # noqa: S608
        f'h AS ({hand} RETURNING "id")'
        + (f", r AS ({stored})" if record else "")
        + (f", c AS ({result_change})" if ends else "")
        + "".join(f", e{n} AS ({sql})" for n, sql in enumerate(announced))
        + ' SELECT "id"'
        + "".join(f", ARRAY(SELECT * FROM e{n})" for n in range(len(announced)))  # noqa: S608
        + " FROM h"
    )


_GAME_UPDATE = _game_update()
_HAND_INSERT, _RECORD_INSERT, _RESULT_CHANGE_INSERT = _inserts(
    f'"{GAME.table}" AS g WHERE g."id" = %s'
)


def hand_insert(
    game: Game,
    read: tuple[int, datetime],
    hand: Hand,
    record: IdempotencyRecord | None,
    *,
    ends: bool,
    event: events.Event | None = None,
) -> Hand | None:
    """Store ``game``'s new state and ``hand`` (with ``record``, and the game's result change
    when the hand ``ends`` it) if the game is still at version and time of change ``read``.

    ``game`` and ``hand`` hold their final values, times included (the hand's are the game's
    new ``updated_at``). Returns the hand as stored (made by :meth:`Model.from_db`, with its
    key), or None, with nothing written, when the game moved on. ``event`` is stored with
    them by every recorder of :mod:`tarabish_site.events`, whose rows are handed to it once
    they commit.
    """
    alias = router.db_for_write(Hand)
    connection = connections[alias]
    game_values = [*GAME.values(game, connection), game.pk, *_read_values(read, connection)]
    hand_values = HAND.values(hand, connection)
    record_values = [] if record is None else RECORD.values(record, connection)
    if connection.vendor == "postgresql":
        announced = events.statements(event, connection, "g") if event is not None else []
        sql = _one_statement(
            record=record is not None,
            ends=ends,
            announced=tuple(insert.sql for insert in announced),
        )
        event_values = [param for insert in announced for param in insert.params]
        with connection.cursor() as cursor:
            cursor.execute(sql, [*game_values, *hand_values, *record_values, *event_values])
            written = cursor.fetchone()
        if written is not None:
            for insert, keys in zip(announced, written[1:], strict=True):
                insert.after_commit(keys)
    else:
        with transaction.atomic(using=alias), connection.cursor() as cursor:
            cursor.execute(_GAME_UPDATE, game_values)
            if cursor.rowcount != 1:
                return None
            cursor.execute(f'{_HAND_INSERT} RETURNING "id"', [*hand_values, game.pk])
            written = cursor.fetchone()
            if record is not None:
                cursor.execute(_RECORD_INSERT, [*record_values, game.pk])
            if ends:
                cursor.execute(_RESULT_CHANGE_INSERT, [game.pk])
            for insert in events.statements(event, connection, None) if event else ():
                cursor.execute(insert.sql, insert.params)
                insert.after_commit([key for (key,) in cursor.fetchall()])
    if written is None:
        return None
    return _stored(hand, written[0], alias)


def _read_values(read: tuple[int, datetime], connection: BaseDatabaseWrapper) -> list[Any]:
    version, updated_at = read
    return [
        prepared(_GAME_VERSION, version, connection),
        prepared(_GAME_UPDATED_AT, updated_at, connection),
    ]


def _stored(hand: Hand, pk: int, alias: str) -> Hand:
    """``hand`` as the row just stored with key ``pk``, loaded as a query would load it."""
    values = [pk if field.primary_key else getattr(hand, field.attname) for field in _HAND_ROW]
    stored = Hand.from_db(alias, [field.attname for field in _HAND_ROW], values)
    stored.game = hand.game  # the game read, already in memory
    if hand.created_by_id is not None:
        stored.created_by = hand.created_by
    return stored


#: Every column of a hand, in the model's order (as ``Model.from_db`` takes them).
_HAND_ROW = Hand._meta.concrete_fields
_GAME_VERSION, _GAME_UPDATED_AT = Columns.of(Game, "", ("version", "updated_at")).fields
