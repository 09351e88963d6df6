"""The SQL that stores the rows of a stage as it starts (its entries, its matches), one
statement a table.

A double-elimination stage of 2,048 teams starts with 4,095 matches. ``bulk_create`` spends
most of its time in Python, not in the database: each of the 25 values of each row passes
through its model field's preparation, then through the driver's adapter, one by one (about
100,000 calls, 0.35 s of CPU at that size). On PostgreSQL :func:`rows_insert` sends the rows
as one JSON document instead, encoded at once by the standard library, and one
``INSERT ... SELECT`` reads it back into the table, each column cast to the column's own
type. A column whose value is the same in every row (the stage, the format, the games won
so far: most of them at the start) is prepared and sent once, as a parameter. Elsewhere
(SQLite) the rows are written by ``bulk_create``.

The columns are the model's own (``_meta``): a field added to the model is written here too,
and the tests compare every column of what this writes with what ``bulk_create`` writes.
The rows keep their order, so their keys ascend as ``bulk_create``'s would. The objects
given are not updated with their keys: a stage's start reads nothing back from them.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from typing import Any

from django.db import connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import CharField, Field, JSONField, Model, TextField


def rows_insert(model: type[Model], rows: Sequence[Model]) -> None:
    """Insert ``rows`` (new objects of ``model``, without keys) as ``bulk_create`` would,
    in one statement on PostgreSQL. Their fields hold plain values, as a stage's start gives
    them: no query expressions and no database defaults (``db_default``), which
    ``bulk_create`` resolves and this does not."""
    if not rows:
        return
    alias = router.db_for_write(model)
    connection = connections[alias]
    if connection.vendor != "postgresql":
        model._default_manager.using(alias).bulk_create(rows, batch_size=1000)
        return
    sql, params = _statement(model, rows, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _statement(
    model: type[Model], rows: Sequence[Model], connection: BaseDatabaseWrapper
) -> tuple[str, list[Any]]:
    quote = connection.ops.quote_name
    names: list[str] = []
    selected: list[str] = []
    params: list[Any] = []
    varying: list[list[Any]] = []
    for field in model._meta.concrete_fields:
        if field.primary_key:
            continue
        if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            values = [field.pre_save(row, add=True) for row in rows]
        else:
            values = [getattr(row, field.attname) for row in rows]
        names.append(quote(field.column))
        # Text goes to its column uncast, so a value too long is refused, not cut short.
        cast = "" if isinstance(field, CharField | TextField) else f"::{field.db_type(connection)}"
        first = values[0]
        if not isinstance(field, JSONField) and all(value == first for value in values):
            # the same in every row: prepared once, sent once
            selected.append(f"%s{cast}")
            params.append(field.get_db_prep_save(first, connection=connection))
            continue
        index = len(varying)
        if isinstance(field, JSONField):
            # JSON null is SQL NULL, as the ORM stores None
            selected.append(f"NULLIF(r.value -> {index}, 'null'::jsonb)")
        else:
            selected.append(f"(r.value ->> {index}){cast}")
            values = [_plain(field, value, connection) for value in values]
        varying.append(values)
    document = json.dumps([list(row) for row in zip(*varying, strict=True)])
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(names)}) "  # noqa: S608 - quoted names
        f"SELECT {', '.join(selected)} "
        "FROM jsonb_array_elements(%s::jsonb) WITH ORDINALITY AS r(value, n) ORDER BY r.n"
    )
    return sql, [*params, document]


def _plain(field: Field[Any, Any], value: Any, connection: BaseDatabaseWrapper) -> Any:
    """``value`` as JSON carries it to its column: numbers, text, yes/no and None as they
    are, a time as ``save()`` prepares it, written out in ISO 8601 (with its offset)."""
    if value is None or type(value) in (int, str, bool):
        return value
    prepared = field.get_db_prep_save(value, connection=connection)
    if isinstance(prepared, dt.datetime | dt.date):
        return prepared.isoformat()
    return prepared
