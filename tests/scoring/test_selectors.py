"""Selectors: flat query counts and the score-pad's plain data."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring import selectors, services
from scoring.models import Game
from tarabish_site.api.errors import NotFound
from tests.scoring.factories import GameFactory, TeamFactory, record_hand, record_hands, summary

pytestmark = pytest.mark.django_db

LONG = {"target": 10_000}  # room for forty hands


def _queries(run: Any) -> int:
    with CaptureQueriesContext(connection) as ctx:
        run()
    return len(ctx.captured_queries)


def test_game_detail_reads_forty_hands_in_constant_queries(
    django_assert_max_num_queries: Any,
) -> None:
    short = GameFactory.create(ruleset=LONG)
    record_hands(short, 2)
    long = GameFactory.create(ruleset=LONG)
    hands = record_hands(long, 40)
    with (
        django_assert_max_num_queries(4),  # game + joins, hands, their disputes, scorekeepers
    ):
        game = selectors.game_detail(long.pk)
        state = selectors.game_state(game)
        disputes = [d.pk for h in game.hands.all() for d in h.disputes.all()]
    assert disputes == []
    assert len(state["hands"]) == 40
    assert state["hands"][-1]["running"] == {"team_a": 40 * 92, "team_b": 40 * 70}
    assert _queries(lambda: selectors.game_state(selectors.game_detail(short.pk))) == _queries(
        lambda: selectors.game_state(selectors.game_detail(long.pk))
    )
    assert hands[-1].number == 40


def test_a_hand_is_entered_in_constant_queries(django_assert_max_num_queries: Any) -> None:
    few = GameFactory.create(ruleset=LONG)
    record_hands(few, 1)
    many = GameFactory.create(ruleset=LONG)
    record_hands(many, 39)
    # The game lock, then the hand and the game's new state: one statement on PostgreSQL, two
    # elsewhere; and the savepoint around them (the test's transaction).
    writes = 1 if connection.vendor == "postgresql" else 2
    with django_assert_max_num_queries(1 + writes + 2):
        record_hand(many)
    assert _queries(lambda: record_hand(few)) == _queries(lambda: record_hand(many))


def test_game_row_is_the_game_as_a_query_reads_it(django_assert_num_queries: Any) -> None:
    game = GameFactory.create(
        ruleset=LONG, first_dealer=2, first_dealer_flips=[[0, "9S"], [1, "JD"]]
    )
    record_hands(game, 3)
    expected = Game.objects.get(pk=game.pk)
    with django_assert_num_queries(1):
        row = selectors.game_row(game.pk)
    assert row is not None
    assert type(row) is Game
    assert not row.get_deferred_fields()
    for field in Game._meta.concrete_fields:
        assert getattr(row, field.attname) == getattr(expected, field.attname), field.name
        assert type(getattr(row, field.attname)) is type(getattr(expected, field.attname))
    assert row.ruleset == expected.ruleset
    assert isinstance(row.ruleset, dict)
    assert timezone.is_aware(row.updated_at)
    assert timezone.is_aware(row.created_at)
    # a row as loaded: saving it updates it, and it reads its relations as any other does
    assert row.team_a == expected.team_a
    with django_assert_num_queries(1):
        row.save(update_fields=["table"])
    assert selectors.game_row(game.pk + 1000) is None


def test_a_correction_is_constant_in_queries_too() -> None:
    game = GameFactory.create(ruleset=LONG)
    hands = record_hands(game, 30)

    def correct(i: int) -> None:
        services.hand_correct(
            hand=hands[i],
            entry=summary(caller=0, card_points=(82, 80)),
            reason="miscounted",
            expected_version=1,
        )

    assert _queries(lambda: correct(28)) == _queries(lambda: correct(0))


def test_game_list_filters_in_one_query(django_assert_max_num_queries: Any) -> None:
    team = TeamFactory.create()
    mine = [GameFactory.create(team_a=team), GameFactory.create(team_b=team)]
    other = GameFactory.create()
    services.game_end_early(game=other, reason="rain")
    with django_assert_max_num_queries(1):
        games = list(selectors.game_list(team=team))
        names = [(g.team_a.name, g.seat_3.display_name, g.pending_disputes) for g in games]
    assert {g.pk for g in games} == {g.pk for g in mine}
    assert len(names) == 2
    assert [g.pk for g in selectors.game_list(status="abandoned")] == [other.pk]
    player = mine[0].seat_1
    assert [g.pk for g in selectors.game_list(player=player)] == [mine[0].pk]
    today = timezone.localdate()
    assert selectors.game_list(date=today).count() == 3
    assert selectors.game_list(date=today - datetime.timedelta(days=1)).count() == 0
    assert selectors.game_list(date_from=today, date_to=today).count() == 3


def test_game_list_counts_pending_disputes() -> None:
    game = GameFactory.create(first_dealer=3)
    hand = record_hand(game)
    services.dispute_open(
        hand=hand,
        called_by=0,
        accused=1,
        trick=1,
        evidence={"dealer": 3, "caller": 0, "trump": "H", "tricks": [["KH", "6H", "7H", "8H"]]},
    )
    (listed,) = selectors.game_list()
    assert listed.pending_disputes == 1


def test_game_state_for_a_score_pad() -> None:
    game = GameFactory.create(ruleset_preset="forced-at-400", first_dealer=1)
    record_hands(game, 3, points=(142, 20))
    state = selectors.game_state(selectors.game_detail(game.pk))
    assert state["totals"] == {"team_a": 426, "team_b": 60}
    assert state["next_hand"] == 4
    assert state["next_dealer"] == 0
    assert state["seats"][state["next_dealer"]]["player_id"] == game.seat_0_id
    assert state["forced_seat"] is None  # team A deals: the call cannot reach an opposing dealer
    assert state["forced_team"] == "team_a"
    assert (state["over"], state["winner"], state["target"]) == (False, None, 500)
    assert {d["label"]: d["value"] for d in state["ruleset_described"]}[
        "Forced to call"
    ].startswith("A team with more than 400")
    assert [h["outcome"] for h in state["hands"]] == ["made"] * 3
    record_hand(game, summary(caller=0, card_points=(142, 20)))
    over = selectors.game_state(Game.objects.get(pk=game.pk))
    assert (over["over"], over["winner"], over["next_dealer"]) == (True, "team_a", None)
    assert over["winning_team"]["id"] == game.team_a_id


def test_missing_rows_are_not_found() -> None:
    with pytest.raises(NotFound):
        selectors.game_detail(404)
    with pytest.raises(NotFound):
        selectors.hand_detail(404)
    with pytest.raises(NotFound):
        selectors.dispute_detail(404)


def test_hand_detail_has_the_history() -> None:
    game = GameFactory.create()
    hand = record_hand(game)
    services.hand_correct(
        hand=hand, entry=summary(caller=0, card_points=(102, 60)), reason="r", expected_version=1
    )
    detail = selectors.hand_detail(hand.pk)
    assert [r.version for r in detail.revisions.all()] == [1, 2]
    services.hand_undo_last(game=game)
    assert list(selectors.hand_list(game=game)) == []
    assert len(selectors.hand_list(game=game, include_undone=True)) == 1
