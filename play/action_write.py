"""The SQL that stores an accepted action: the action appended to its hand's log, the hand's
new position and the table's new version, written as ``save()`` would write them.

On PostgreSQL the three writes are one data-modifying ``WITH`` statement (one round trip
under the table's lock, nothing compiled per move); elsewhere (SQLite) the models' own
``save()`` writes them one after another in the move's transaction. The statement names its
columns: a column added to one of these tables is added here too, or the tests of the moves
fail. Values are prepared by their model fields (``scoring.services.hand_write.prepared``).
No model signal is sent: nothing listens to these models' saves.
"""

from __future__ import annotations

from django.db import connections, router
from django.utils import timezone

from play.models import HandAction, OnlineHand, Table
from scoring.services.hand_write import Columns

#: Every column of an action but its key.
ACTION = Columns.of(
    HandAction,
    HandAction._meta.db_table,
    ("online_hand", "seq", "seat", "action", "created_at"),
)
#: What an action changes in its hand and its table.
HAND = Columns.of(OnlineHand, OnlineHand._meta.db_table, ("snapshot", "actions_count"))
TABLE = Columns.of(Table, Table._meta.db_table, ("version", "phase", "game", "updated_at"))

#: The fields ``save(update_fields=...)`` writes elsewhere.
HAND_FIELDS = [field.name for field in HAND.fields]
TABLE_FIELDS = [field.name for field in TABLE.fields]


def _update(columns: Columns) -> str:
    return f'UPDATE "{columns.table}" SET {columns.assignments()} WHERE "id" = %s'  # noqa: S608


_ONE_STATEMENT = (
    f'WITH a AS (INSERT INTO "{ACTION.table}" ({ACTION.names()}) '  # noqa: S608 - names above
    f"VALUES ({ACTION.placeholders()})), "
    f"h AS ({_update(HAND)}) "
    f"{_update(TABLE)}"
)


def action_append(action: HandAction, table: Table) -> None:
    """Store ``action`` (a new row of its hand's log), its hand's ``snapshot`` and
    ``actions_count``, and ``table``'s version, phase and game, with both times of change
    (the action's ``created_at``, the table's ``updated_at``) now, set on the objects too."""
    hand = action.online_hand
    now = timezone.now()
    action.created_at = table.updated_at = now
    alias = router.db_for_write(HandAction)
    connection = connections[alias]
    if connection.vendor != "postgresql":
        action.save(using=alias)
        hand.save(using=alias, update_fields=HAND_FIELDS)
        table.save(using=alias, update_fields=TABLE_FIELDS)
        return
    values = [
        *ACTION.values(action, connection),
        *HAND.values(hand, connection),
        hand.pk,
        *TABLE.values(table, connection),
        table.pk,
    ]
    with connection.cursor() as cursor:
        cursor.execute(_ONE_STATEMENT, values)
