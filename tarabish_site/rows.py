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

from django.db import models
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
    to SQL written in its place, for a value the database only knows in the statement; the
    field's ``pre_save`` is not run for it."""
    given = tuple((expressions or {}).items())
    key = (type(obj), connection.vendor, None, given)
    shape = _shapes.get(key)
    if shape is None:
        meta = obj._meta
        fields = [
            field
            for field in meta.concrete_fields
            if field is not meta.auto_field and not getattr(field, "generated", False)
        ]
        shape = _shapes[key] = _shape(obj, connection, fields, add=True, expressions=dict(given))
    return _row(obj, connection, shape)


def update_row(obj: Model, connection: BaseDatabaseWrapper, field_names: Iterable[str]) -> Row:
    """The ``SET`` part that ``obj.save(update_fields=field_names)`` would send."""
    names = tuple(field_names)
    key = (type(obj), connection.vendor, names, ())
    shape = _shapes.get(key)
    if shape is None:
        fields = [obj._meta.get_field(name) for name in names]
        shape = _shapes[key] = _shape(obj, connection, fields, add=False, expressions={})
    return _row(obj, connection, shape)


@dataclass(frozen=True)
class _Shape:
    """What a row of one model, with these fields and expressions, always has: made once
    per model, fields and expressions, so a row costs only its values."""

    table: str
    columns: tuple[str, ...]
    placeholders: tuple[str, ...]
    #: The fields whose values are parameters, in order, each with how its value is taken
    #: (``pre_save``, or the attribute when the field does not change it) and prepared.
    valued: tuple[tuple[Any, bool, str], ...]
    add: bool


# How a field's value is prepared for the database. Most columns of a row are whole numbers,
# text and yes/no values already of their Python type, which Django's generic path (four calls
# a value) would return unchanged, or for whole numbers give to the backend's adapter: those
# take a short path. Anything else, and any field class that prepares values its own way, goes
# through ``get_db_prep_save``.
_GENERIC, _INTEGER, _TEXT, _BOOLEAN = "generic", "integer", "text", "boolean"


def _preparation(field: Any) -> str:
    kind = type(field)
    if kind.get_db_prep_save is not models.Field.get_db_prep_save:
        return _GENERIC
    if (
        kind.get_db_prep_value is models.IntegerField.get_db_prep_value
        and kind.get_prep_value is models.IntegerField.get_prep_value
    ):
        return _INTEGER
    if kind.get_db_prep_value is models.Field.get_db_prep_value:
        if kind.get_prep_value is models.CharField.get_prep_value:
            return _TEXT
        if kind.get_prep_value is models.BooleanField.get_prep_value:
            return _BOOLEAN
    return _GENERIC


def _prepared(field: Any, how: str, value: Any, connection: BaseDatabaseWrapper) -> Any:
    """``field.get_db_prep_save(value, connection)``, by the short path when there is one."""
    if value is None and how != _GENERIC:
        return None
    kind = type(value)
    if how == _INTEGER and kind is int:
        return connection.ops.adapt_integerfield_value(value, field.get_internal_type())
    if (how == _TEXT and kind is str) or (how == _BOOLEAN and kind is bool):
        return value
    return field.get_db_prep_save(value, connection=connection)


#: By model, database vendor, the field names updated (None: an insert) and the expressions.
_shapes: dict[tuple[Any, ...], _Shape] = {}


def _shape(
    obj: Model,
    connection: BaseDatabaseWrapper,
    fields: list[Any],
    *,
    add: bool,
    expressions: Mapping[str, str],
) -> _Shape:
    quote = connection.ops.quote_name
    return _Shape(
        table=quote(obj._meta.db_table),
        columns=tuple(quote(field.column) for field in fields),
        placeholders=tuple(expressions.get(field.column, "%s") for field in fields),
        valued=tuple(
            (field, type(field).pre_save is not models.Field.pre_save, _preparation(field))
            for field in fields
            if field.column not in expressions
        ),
        add=add,
    )


def _row(obj: Model, connection: BaseDatabaseWrapper, shape: _Shape) -> Row:
    add = shape.add
    return Row(
        table=shape.table,
        columns=shape.columns,
        placeholders=shape.placeholders,
        params=tuple(
            _prepared(
                field,
                how,
                field.pre_save(obj, add) if pre_save else getattr(obj, field.attname),
                connection,
            )
            for field, pre_save, how in shape.valued
        ),
    )


def mark_saved(obj: Model, pk: Any, connection: BaseDatabaseWrapper) -> None:
    """Make ``obj`` what ``save()`` leaves behind: its primary key set, no longer new."""
    obj.pk = pk
    obj._state.adding = False
    obj._state.db = connection.alias
