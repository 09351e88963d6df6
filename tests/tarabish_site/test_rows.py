"""A row rendered by ``tarabish_site.rows`` is the row ``save()`` would write."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.forms.models import model_to_dict

from scoring.models import Game, Hand, HandRevision
from tarabish_site import rows
from tarabish_site.core.models import IdempotencyRecord
from tests.scoring.factories import GameFactory

pytestmark = pytest.mark.django_db

MADE_BY_THE_DATABASE = {"id", "created_at", "updated_at"}


def _hand(game: Game) -> Hand:
    return Hand(
        game=game,
        number=1,
        entry_kind="summary",
        entry={"caller": 0, "trump": "H", "card_points": [92, 70]},
        dealer=3,
        caller=0,
        trump="H",
        outcome="made",
        points_a=92,
        points_b=70,
        result={"outcome": "made", "points": [92, 70]},
    )


def _as_stored(pk: Any) -> dict[str, Any]:
    stored = model_to_dict(Hand.objects.get(pk=pk))
    return {k: v for k, v in stored.items() if k not in MADE_BY_THE_DATABASE}


def test_an_inserted_row_is_what_save_writes() -> None:
    game = GameFactory.create()
    saved = _hand(game)
    saved.save()
    saved.undone = True  # the same row may exist once more, undone
    saved.save()

    written = _hand(game)
    row = rows.insert_row(written, connection)
    with connection.cursor() as cursor:
        cursor.execute(f"{row.values_sql()} RETURNING id", row.params)
        (pk,) = cursor.fetchone()
    rows.mark_saved(written, pk, connection)

    assert written.created_at is not None  # auto_now_add ran, as in save()
    assert not written._state.adding
    assert _as_stored(pk) == {**_as_stored(saved.pk), "undone": False}
    written.refresh_from_db()
    assert written.entry == {"caller": 0, "trump": "H", "card_points": [92, 70]}


def test_an_expression_takes_a_columns_place() -> None:
    row = rows.insert_row(_hand(GameFactory.create()), connection, expressions={"game_id": "g.id"})
    assert row.placeholders[row.columns.index(connection.ops.quote_name("game_id"))] == "g.id"
    assert len(row.params) == row.placeholders.count("%s")
    assert row.select_sql("g").endswith(" FROM g")


def test_an_updated_row_sets_the_named_columns() -> None:
    game = GameFactory.create()
    before = game.updated_at
    game.score_a, game.score_b = 120, 40
    row = rows.update_row(game, connection, ["score_a", "score_b", "updated_at"])
    with connection.cursor() as cursor:
        sql = f"UPDATE {row.table} SET {row.set_sql()} WHERE id = %s"  # noqa: S608 - quoted names
        cursor.execute(sql, [*row.params, game.pk])
    stored = Game.objects.get(pk=game.pk)
    assert (stored.score_a, stored.score_b) == (120, 40)
    assert stored.updated_at == game.updated_at > before  # auto_now ran, as in save()


@pytest.mark.parametrize("value", [None, 0, 7, -3, True, False, "", "made", "12", 2.0])
@pytest.mark.parametrize("model", [Game, Hand, HandRevision, IdempotencyRecord])
def test_a_value_is_prepared_as_the_field_prepares_it(model: Any, value: Any) -> None:
    # The short path for whole numbers, text and yes/no values gives what the field gives,
    # of the same type (the driver picks the column type from it); a value the field would
    # refuse is refused alike.
    for field in model._meta.concrete_fields:
        how = rows._preparation(field)
        if how == "generic":  # that path is get_db_prep_save itself
            continue
        try:
            expected = field.get_db_prep_save(value, connection=connection)
        except (TypeError, ValueError, ValidationError) as refused:
            with pytest.raises(type(refused)):
                rows._prepared(field, how, value, connection)
            continue
        got = rows._prepared(field, how, value, connection)
        assert (type(got), got) == (type(expected), expected), (field.name, how)


def test_the_short_paths_are_taken_for_plain_columns() -> None:
    kinds = {field.name: rows._preparation(field) for field in Hand._meta.concrete_fields}
    assert kinds["number"] == kinds["points_a"] == "integer"
    assert kinds["outcome"] == kinds["trump"] == "text"
    assert kinds["undone"] == "boolean"
    assert kinds["entry"] == kinds["created_at"] == kinds["game"] == "generic"
