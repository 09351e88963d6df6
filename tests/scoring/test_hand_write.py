"""The statements that store an entered hand (``scoring.services.hand_write``): they write
every column of their tables, the rows ``save()`` would write, and nothing when the game
moved on."""

import json
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connections, models
from django.forms.models import model_to_dict
from django.utils import timezone

from scoring.models import Game, Hand, ResultChange
from scoring.services import hand_write
from tarabish_site.core.models import IdempotencyRecord
from tests.scoring.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def _columns(model: type[models.Model]) -> set[str]:
    return {
        field.column
        for field in model._meta.get_fields()
        if isinstance(field, models.Field) and field.concrete and not field.many_to_many
    }


def _written(columns: hand_write.Columns) -> set[str]:
    return {field.column for field in columns.fields}


def test_the_statements_write_every_column_of_their_tables() -> None:
    # A column added to one of these tables and not to the statements fails here.
    assert hand_write.HAND.table == Hand._meta.db_table
    assert _written(hand_write.HAND) | {"id", "game_id", "created_at", "updated_at"} == _columns(
        Hand
    )
    assert hand_write.RECORD.table == IdempotencyRecord._meta.db_table
    assert _written(hand_write.RECORD) | {"id"} == _columns(IdempotencyRecord)
    assert ResultChange._meta.db_table == hand_write.RESULT_CHANGE_TABLE
    assert _columns(ResultChange) == {"id", "game_id", "created_at"}
    assert hand_write.GAME.table == Game._meta.db_table
    assert _written(hand_write.GAME) < _columns(Game)


@pytest.mark.parametrize("value", [None, 0, 7, -3, 40000, True, False, "", "made", "12", 2.0])
@pytest.mark.parametrize("model", [Game, Hand, ResultChange, IdempotencyRecord])
def test_a_value_is_prepared_as_its_field_prepares_it(model: Any, value: Any) -> None:
    # The short path for whole numbers, text and yes/no values gives what the field gives, of
    # the same type (the driver picks the parameter's type from it); a value the field would
    # refuse is refused alike.
    connection = connections["default"]
    for field in model._meta.get_fields():
        if not isinstance(field, models.Field) or not field.concrete:
            continue
        try:
            expected = field.get_db_prep_save(value, connection=connection)
        except (TypeError, ValueError, ValidationError) as refused:
            with pytest.raises(type(refused)):
                hand_write.prepared(field, value, connection)
            continue
        got = hand_write.prepared(field, value, connection)
        # (by their text: a driver's JSON wrapper has no equality of its own)
        assert (type(got), repr(got)) == (type(expected), repr(expected)), field.name


def _next_hand(game: Game, by: Any = None) -> Hand:
    hand = Hand(
        game=game,
        number=game.hands_played + 1,
        entry_kind="summary",
        entry={"caller": 0, "trump": "H", "card_points": [92, 70]},
        dealer=3,
        caller=0,
        trump="H",
        outcome="made",
        points_a=92,
        points_b=70,
        card_points_a=92,
        card_points_b=70,
        hand_total=162,
        result={"outcome": "made", "points": [92, 70]},
        running_a=game.score_a + 92,
        running_b=game.score_b + 70,
        created_by=by,
    )
    game.score_a, game.score_b = hand.running_a, hand.running_b
    game.hands_played += 1
    game.version += 1
    game.updated_at = hand.created_at = hand.updated_at = timezone.now()
    return hand


def _record(user: Any, key: str) -> IdempotencyRecord:
    return IdempotencyRecord(
        user=user,
        key=key,
        method="POST",
        path="/api/v1/games/1/hands/",
        fingerprint="f" * 64,
        status_code=201,
        response_body={"number": 1, "at": timezone.now()},  # the field's own encoder
        response_headers={"ETag": '"1"'},
    )


def _as_stored(pk: int) -> dict[str, Any]:
    stored = model_to_dict(Hand.objects.get(pk=pk))
    return {k: v for k, v in stored.items() if k not in {"id", "created_at", "updated_at"}}


def test_a_hand_is_the_row_save_writes_and_the_game_moves_on(
    django_assert_num_queries: Any,
) -> None:
    user = UserFactory.create()
    game = GameFactory.create()
    saved = _next_hand(game, user)
    saved.save()
    saved.undone = True  # the same number may be there once more, undone
    saved.save()
    game = Game.objects.get(pk=game.pk)
    read = (game.version, game.updated_at)

    hand = _next_hand(game, user)
    hand.number = saved.number
    record = _record(user, "k1")
    stored = hand_write.hand_insert(game, read, hand, record, ends=False)

    assert stored is not None
    assert stored.pk is not None
    assert _as_stored(stored.pk) == {**_as_stored(saved.pk), "undone": False}
    assert model_to_dict(stored) == model_to_dict(Hand.objects.get(pk=stored.pk))
    again = Game.objects.get(pk=game.pk)
    assert (again.version, again.score_a, again.updated_at) == (
        read[0] + 1,
        hand.running_a,
        game.updated_at,
    )
    assert Hand.objects.get(pk=stored.pk).created_at == game.updated_at
    kept = IdempotencyRecord.objects.get(key="k1")
    assert kept.user == user
    assert kept.response_headers == {"ETag": '"1"'}
    assert kept.response_body == json.loads(DjangoJSONEncoder().encode(record.response_body))
    assert not ResultChange.objects.exists()
    with django_assert_num_queries(0):  # what was read is kept, not read again
        assert (stored.game, stored.created_by) == (game, user)
    with django_assert_num_queries(1):  # a stored row: save() updates it, inserts nothing
        stored.save(update_fields=["undone"])


def test_the_hand_that_ends_the_game_records_its_result_change() -> None:
    game = GameFactory.create()
    read = (game.version, game.updated_at)
    hand = _next_hand(game)
    game.status, game.winner, game.finished_at = "finished", "team_a", game.updated_at
    stored = hand_write.hand_insert(game, read, hand, None, ends=True)
    assert stored is not None
    change = ResultChange.objects.get()
    assert (change.game_id, change.created_at) == (game.pk, game.updated_at)
    assert Game.objects.get(pk=game.pk).status == "finished"
    assert not IdempotencyRecord.objects.exists()


@pytest.mark.parametrize("moved", ["version", "updated_at"])
def test_a_game_that_moved_on_gets_nothing_written(moved: str) -> None:
    game = GameFactory.create()
    stale = Game.objects.get(pk=game.pk)
    read = (stale.version, stale.updated_at)
    if moved == "version":
        Game.objects.filter(pk=game.pk).update(version=game.version + 1)
    else:
        Game.objects.filter(pk=game.pk).update(updated_at=timezone.now())
    hand = _next_hand(stale)
    assert hand_write.hand_insert(stale, read, hand, _record(None, "k2"), ends=True) is None
    assert not Hand.objects.exists()
    assert not IdempotencyRecord.objects.exists()
    assert not ResultChange.objects.exists()
    assert Game.objects.get(pk=game.pk).hands_played == 0
