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

:func:`by_pk` reads one row by its key from SQL made once per model (:func:`locked` with
``FOR UPDATE``), for a hot path that reads a row at the start of every request; a
:class:`Remembered` keeps rows as this process last wrote them, for an optimistic writer
that can skip that read.

The columns and values are the ones ``save()`` writes: every concrete field (an automatic
primary key left to the database), each field's ``pre_save`` run first (so ``auto_now`` and
``auto_now_add`` set the instance's times as ``save()`` does) and each value prepared for the
database by its field. No ``pre_save`` or ``post_save`` signal is sent: use it only for models
nothing listens to.
"""

import operator
import pickle
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model

M = TypeVar("M", bound=Model)


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


@dataclass(frozen=True)
class _Select:
    sql: str
    attnames: list[str]
    #: For each column whose value the ORM converts, its position, the column and the
    #: converters (``from_db_value`` and the database backend's own).
    converters: list[tuple[int, Any, list[Any]]]


_selects: dict[tuple[type[Model], str, bool], _Select] = {}


def _select(model: type[Model], connection: BaseDatabaseWrapper, *, lock: bool) -> _Select:
    made = _selects.get((model, connection.vendor, lock))
    if made is None:
        quote = connection.ops.quote_name
        meta = model._meta
        fields = meta.concrete_fields
        columns = ", ".join(quote(field.column) for field in fields)
        sql = (
            f"SELECT {columns} FROM {quote(meta.db_table)} "  # noqa: S608 - quoted names
            f"WHERE {quote(meta.pk.column)} = %s{' FOR UPDATE' if lock else ''}"
        )
        converters = []
        for index, field in enumerate(fields):
            col = field.get_col(meta.db_table)
            found = connection.ops.get_db_converters(col)
            from_db = getattr(field, "from_db_value", None)  # as Field.get_db_converters
            if found or from_db:
                converters.append((index, col, [*found, from_db] if from_db else found))
        made = _Select(sql, [field.attname for field in fields], converters)
        _selects[(model, connection.vendor, lock)] = made
    return made


def locked(model: type[M], pk: Any, connection: BaseDatabaseWrapper) -> M | None:
    """The row of ``model`` with primary key ``pk``, locked until the end of the transaction
    (``None`` when there is none): what ``select_for_update().get(pk=pk)`` gives, without
    building the query again for every request. Needs a database with ``FOR UPDATE``."""
    return _fetch(model, pk, connection, lock=True)


def by_pk(model: type[M], pk: Any, connection: BaseDatabaseWrapper) -> M | None:
    """The row of ``model`` with primary key ``pk`` (``None`` when there is none): what
    ``model.objects.filter(pk=pk).first()`` gives, without building the query each time."""
    return _fetch(model, pk, connection, lock=False)


def _fetch(model: type[M], pk: Any, connection: BaseDatabaseWrapper, *, lock: bool) -> M | None:
    select = _select(model, connection, lock=lock)
    with connection.cursor() as cursor:
        cursor.execute(select.sql, [pk])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for index, col, converters in select.converters:
        for convert in converters:
            values[index] = convert(values[index], col, connection)
    return model.from_db(connection.alias, select.attnames, values)


class Remembered(Generic[M]):
    """Rows of one model as this process last wrote them, by database and key, for a writer
    that checks what it read when it writes (optimistic concurrency): it may start from the
    row it wrote last instead of reading it again.

    A row recalled may be out of date, since another process may have written it since. So
    a write based on one must be conditional on the row being unchanged (its version and
    time of change, say) and read the row again when it is not. Rows are remembered once
    their transaction commits, so a write rolled back leaves nothing behind. Shared by the
    threads of the process; the least recently used rows are forgotten beyond ``size``.
    """

    def __init__(self, model: type[M], size: int = 1024) -> None:
        self.model = model
        self.size = size
        self._attnames = [field.attname for field in model._meta.concrete_fields]
        getter = operator.attrgetter(*self._attnames)
        self._values = getter if len(self._attnames) > 1 else lambda obj: (getter(obj),)
        # Each row is kept pickled: a recall unpickles instances of its own (a JSON column's
        # dict is never shared), in a few microseconds where ``copy.deepcopy`` took tens.
        self._rows: OrderedDict[tuple[str, Any], bytes] = OrderedDict()
        self._lock = threading.Lock()

    def remember_on_commit(self, obj: M, connection: BaseDatabaseWrapper) -> None:
        """Remember ``obj`` as it is now, once the current transaction commits (at once
        outside one)."""
        try:
            values = pickle.dumps(self._values(obj), pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError):
            # A value that cannot be kept: the row is read the next time.
            self.forget(obj.pk, connection)
            return
        key = (connection.alias, obj.pk)

        def store() -> None:
            with self._lock:
                self._rows[key] = values
                self._rows.move_to_end(key)
                while len(self._rows) > self.size:
                    self._rows.popitem(last=False)

        connection.on_commit(store)

    def recall(self, pk: Any, connection: BaseDatabaseWrapper) -> M | None:
        """A new instance of the row with key ``pk`` as last remembered, or None."""
        key = (connection.alias, pk)
        with self._lock:
            values = self._rows.get(key)
            if values is None:
                return None
            self._rows.move_to_end(key)
        return self.model.from_db(connection.alias, self._attnames, list(pickle.loads(values)))  # noqa: S301 - pickled here

    def forget(self, pk: Any, connection: BaseDatabaseWrapper) -> None:
        with self._lock:
            self._rows.pop((connection.alias, pk), None)

    def clear(self) -> None:
        with self._lock:
            self._rows.clear()
