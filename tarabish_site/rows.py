"""Model instances as the SQL that ``save()`` would send, for writing several rows in one statement.

A request that writes three rows through the ORM pays three round trips and three trips through
the query compiler. On PostgreSQL a data-modifying ``WITH`` statement writes them all at once,
and a later row may take the key the database gave an earlier one::

    hand = insert_row(new_hand, connection)
    revision = insert_row(new_revision, connection, expressions={"hand_id": 'h."id"'})
    sql = (
        f"WITH h AS ({hand.values_sql()} RETURNING id) "
        f"{revision.select_sql('h')} ..."
    )

The columns and values are the ones ``save()`` writes: every concrete field (an automatic
primary key left to the database), each field's ``pre_save`` run first (so ``auto_now`` and
``auto_now_add`` set the instance's times as ``save()`` does) and each value prepared for the
database by its field. No ``pre_save`` or ``post_save`` signal is sent: use it only for models
nothing listens to.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model


@dataclass(frozen=True)
class Row:
    """The table, the quoted columns, each column's placeholder (``%s``, or an SQL expression
    given by the caller) and the values of the ``%s`` placeholders, in order."""

    table: str
    columns: tuple[str, ...]
    placeholders: tuple[str, ...]
    params: tuple[Any, ...]

    def values_sql(self) -> str:
        """``INSERT INTO table (columns) VALUES (placeholders)``."""
        return (
            f"INSERT INTO {self.table} ({', '.join(self.columns)}) "  # noqa: S608 - quoted names
            f"VALUES ({', '.join(self.placeholders)})"
        )

    def select_sql(self, source: str) -> str:
        """``INSERT INTO table (columns) SELECT placeholders FROM source``: the expressions may
        name the columns of ``source`` (an earlier ``WITH`` query)."""
        return (
            f"INSERT INTO {self.table} ({', '.join(self.columns)}) "  # noqa: S608 - quoted names
            f"SELECT {', '.join(self.placeholders)} FROM {source}"
        )

    def set_sql(self) -> str:
        """``column = placeholder, ...`` for an ``UPDATE``."""
        return ", ".join(f"{c} = {p}" for c, p in zip(self.columns, self.placeholders, strict=True))


def insert_row(
    obj: Model, connection: BaseDatabaseWrapper, *, expressions: Mapping[str, str] | None = None
) -> Row:
    """The row ``obj.save()`` would insert. ``expressions`` maps a field's column (``hand_id``)
    to SQL written in its place, for a value the database only knows in the statement."""
    meta = obj._meta
    fields = [
        field
        for field in meta.concrete_fields
        if field is not meta.auto_field and not getattr(field, "generated", False)
    ]
    return _row(obj, connection, fields, add=True, expressions=expressions or {})


def update_row(obj: Model, connection: BaseDatabaseWrapper, field_names: Iterable[str]) -> Row:
    """The ``SET`` part that ``obj.save(update_fields=field_names)`` would send."""
    fields = [obj._meta.get_field(name) for name in field_names]
    return _row(obj, connection, fields, add=False, expressions={})


def _row(
    obj: Model,
    connection: BaseDatabaseWrapper,
    fields: list[Any],
    *,
    add: bool,
    expressions: Mapping[str, str],
) -> Row:
    quote = connection.ops.quote_name
    placeholders = []
    params = []
    for field in fields:
        if field.column in expressions:
            placeholders.append(expressions[field.column])
            continue
        placeholders.append("%s")
        params.append(field.get_db_prep_save(field.pre_save(obj, add), connection=connection))
    return Row(
        table=quote(obj._meta.db_table),
        columns=tuple(quote(field.column) for field in fields),
        placeholders=tuple(placeholders),
        params=tuple(params),
    )


def mark_saved(obj: Model, pk: Any, connection: BaseDatabaseWrapper) -> None:
    """Make ``obj`` what ``save()`` leaves behind: its primary key set, no longer new."""
    obj.pk = pk
    obj._state.adding = False
    obj._state.db = connection.alias
