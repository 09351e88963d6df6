"""Online play's services: seats, the deal, every move judged by the engine, hands stored
as scoring hands, the log replayed to the very position the snapshot holds."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.db.models import F

from play import services
from play.models import HandAction, OnlineHand, Table
from scoring.engine import IllegalPlay, game_progress
from scoring.models import Game, Hand
from tarabish_site.api.errors import Conflict, NotAllowed
from tests.play.helpers import all_computers, play_out, table_with
from tests.scoring.factories import UserFactory

pytestmark = pytest.mark.django_db


def _started(table: Table, seed: int = 1) -> Table:
    services.move(table=table, seat=0, data={"type": "start"}, rng=random.Random(seed))
    table.refresh_from_db()
    return table


def test_a_game_starts_only_with_four_seats_taken() -> None:
    owner = UserFactory.create()
    table = services.table_create(by=owner)
    services.table_sit(table=table, user=owner, seat=2)
    with pytest.raises(Conflict, match="all four seats"):
        services.move(table=table, seat=2, data={"type": "start"})
    assert Game.objects.count() == 0


def test_sitting_in_a_taken_seat_is_refused_and_standing_frees_it() -> None:
    table, _ = table_with(1)
    bob = UserFactory.create()
    with pytest.raises(Conflict, match="seat 1 is taken"):
        services.table_sit(table=table, user=bob, seat=1)
    table.seats.filter(number=1).update(player=None, bot=False)
    services.table_sit(table=table, user=bob, seat=1)
    assert services.seat_of(table, bob) == 1
    services.table_stand(table=table, user=bob)
    assert services.seat_of(table, bob) is None


def test_nobody_signed_in_takes_a_seat() -> None:
    table, _ = table_with(1)
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(NotAllowed):
        services.table_sit(table=table, user=AnonymousUser(), seat=1)


def test_start_flips_for_jacks_and_waits_for_the_cut_from_the_dealers_right() -> None:
    table, _ = table_with(1)
    table = _started(table)
    game = table.game
    assert game is not None
    assert game.first_dealer_method == Game.FirstDealerMethod.FLIP_FOR_JACKS
    assert game.first_dealer_flips[-1][1].startswith("J")
    hand = OnlineHand.objects.get(table=table)
    assert table.phase == Table.Phase.CUTTING
    assert hand.dealer == game.first_dealer
    wrong = (hand.dealer + 1) % 4
    with pytest.raises(IllegalPlay, match="on the dealer's right, cuts"):
        services.move(table=table, seat=wrong, data={"type": "cut", "at": 10})
    cutter = services.cutter_of(hand.dealer)
    with pytest.raises(IllegalPlay, match="at least 4 cards"):
        services.move(table=table, seat=cutter, data={"type": "cut", "at": 2})
    services.move(table=table, seat=cutter, data={"type": "cut", "at": 10})
    hand.refresh_from_db()
    assert hand.deal is not None
    assert hand.cut_at == 10
    # packets of three from the dealer's left: the cut deck's first card goes there
    left = (hand.dealer + 1) % 4
    assert hand.deal[left][0] == hand.deck[10]


def test_a_move_out_of_turn_is_refused_with_the_engines_reason() -> None:
    table, _ = table_with(1)
    table = _started(table)
    hand = OnlineHand.objects.get(table=table)
    services.move(table=table, seat=services.cutter_of(hand.dealer), data={"type": "cut", "at": 8})
    first = (hand.dealer + 1) % 4
    other = (first + 1) % 4
    with pytest.raises(IllegalPlay, match=f"it is seat {first}'s turn to call"):
        services.move(table=table, seat=other, data={"type": "pass"})
    with pytest.raises(IllegalPlay, match="act for it only"):
        services.move(table=table, seat=first, data={"type": "pass", "seat": other})
    with pytest.raises(IllegalPlay, match="is not a move"):
        services.move(table=table, seat=first, data={"type": "shuffle"})
    assert HandAction.objects.count() == 0


def test_two_moves_for_one_turn_one_is_taken_the_other_refused() -> None:
    table, _ = table_with(1)
    table = _started(table)
    hand = OnlineHand.objects.get(table=table)
    services.move(table=table, seat=services.cutter_of(hand.dealer), data={"type": "cut", "at": 8})
    first = (hand.dealer + 1) % 4
    services.move(table=table, seat=first, data={"type": "call", "trump": "H"})
    with pytest.raises(IllegalPlay, match="trump has already been named"):
        services.move(table=table, seat=first, data={"type": "call", "trump": "S"})
    assert HandAction.objects.count() == 1


def test_the_dealer_is_stuck() -> None:
    table, _ = table_with(1)
    table = _started(table)
    hand = OnlineHand.objects.get(table=table)
    services.move(table=table, seat=services.cutter_of(hand.dealer), data={"type": "cut", "at": 8})
    for k in (1, 2, 3):
        services.move(table=table, seat=(hand.dealer + k) % 4, data={"type": "pass"})
    with pytest.raises(IllegalPlay, match="the dealer is stuck"):
        services.move(table=table, seat=hand.dealer, data={"type": "pass"})


def test_a_passed_out_hand_is_stored_void_where_the_dealer_may_pass() -> None:
    table, _ = table_with(1, ruleset={"dealer_may_pass": True})
    table = _started(table)
    hand = OnlineHand.objects.get(table=table)
    services.move(table=table, seat=services.cutter_of(hand.dealer), data={"type": "cut", "at": 8})
    for k in (1, 2, 3, 4):
        services.move(table=table, seat=(hand.dealer + k) % 4, data={"type": "pass"})
    hand.refresh_from_db()
    table.refresh_from_db()
    assert hand.hand is not None
    assert hand.hand.caller is None
    assert table.phase == Table.Phase.HAND_OVER
    services.move(table=table, seat=3, data={"type": "continue"})
    second = OnlineHand.objects.get(table=table, number=2)
    assert second.dealer == (hand.dealer + 1) % 4


def test_throwing_in_stops_the_hand_and_the_engine_scores_it() -> None:
    table, _ = table_with(1)
    table = _started(table)
    hand = OnlineHand.objects.get(table=table)
    services.move(table=table, seat=services.cutter_of(hand.dealer), data={"type": "cut", "at": 8})
    caller = (hand.dealer + 1) % 4
    services.move(table=table, seat=caller, data={"type": "call", "trump": "C"})
    services.move(table=table, seat=(caller + 1) % 4, data={"type": "throw_in"})
    hand.refresh_from_db()
    assert hand.hand is not None
    assert hand.hand.entry["thrown_in_by"] == (caller + 1) % 4
    assert hand.hand.result == services.hand_replayed(hand).result().to_json()


@pytest.mark.parametrize("seed", [3, 8])
def test_a_whole_game_of_computers_is_stored_as_the_engine_scores_it(seed: int) -> None:
    rng = random.Random(seed)
    table, _ = table_with(1, ruleset={"target": 300, "forced_at": 200})
    all_computers(table)
    table = _started(table, seed)
    made = play_out(table, rng)
    assert made > 30
    table.refresh_from_db()
    game = table.game
    assert game is not None
    assert table.phase == Table.Phase.GAME_OVER
    assert game.status == Game.Status.FINISHED
    online = list(OnlineHand.objects.filter(game=game).order_by("number"))
    stored = list(Hand.objects.active().filter(game=game).order_by("number"))
    assert [h.hand_id for h in online] == [h.pk for h in stored]
    results = []
    for oh in online:
        final = services.hand_replayed(oh)
        assert services.hand_stored_state(oh) == final  # the snapshot is the log's position
        assert oh.hand is not None
        assert oh.hand.result == final.result().to_json()
        results.append(final.result())
    progress = game_progress(game.engine_ruleset, game.first_dealer or 0, results)
    assert progress.over
    assert progress.totals == (game.score_a, game.score_b)
    assert progress.winner == (0 if game.winner == "team_a" else 1)
    # another game at the same table
    services.move(table=table, seat=0, data={"type": "start"}, rng=rng)
    table.refresh_from_db()
    assert table.game_id != game.pk
    assert table.phase == Table.Phase.CUTTING


@pytest.mark.django_db(transaction=True)
def test_a_move_takes_the_position_the_move_before_kept_only_at_its_version(
    django_assert_max_num_queries: Any,
) -> None:
    table, _ = table_with(1)
    all_computers(table)
    rng = random.Random(11)
    table = _started(table)
    while table.phase != Table.Phase.PLAYING:
        services.computer_move(table=table, rng=rng)
        table.refresh_from_db()
    for _ in range(5):
        services.computer_move(table=table, rng=rng)
    table.refresh_from_db()
    hand = OnlineHand.objects.get(table=table, hand__isnull=True)
    known = services.kept(table.pk, table.version)
    assert known is not None
    assert known[1] == services.hand_stored_state(hand) == services.hand_replayed(hand)
    # the transaction's begin and end; lock, seats; the action appended with the hand's
    # snapshot and the table's version (one statement on PostgreSQL, three elsewhere)
    with django_assert_max_num_queries(5 if connection.vendor == "postgresql" else 7):
        assert services.computer_move(table=table, rng=rng)
    # a move made elsewhere (another process) moves the version on: nothing kept is used
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table.refresh_from_db()
    assert services.kept(table.pk, table.version) is None
    assert services.computer_move(table=table, rng=rng)
    table.refresh_from_db()
    hand.refresh_from_db()
    known = services.kept(table.pk, table.version)
    assert known is not None
    assert known[1] == services.hand_replayed(hand)


@pytest.mark.django_db(transaction=True)
def test_a_move_reads_the_game_again_only_once_its_version_moved() -> None:
    table, _ = table_with(1)
    all_computers(table)
    table = _started(table)
    game = table.game
    assert game is not None
    dealer = game.next_dealer
    assert dealer is not None
    services.move(table=table, seat=services.cutter_of(dealer), data={"type": "cut", "at": 12})
    # a row changed without moving its version (as no save does): the game kept is taken
    Game.objects.filter(pk=game.pk).update(score_a=5)
    moved = services.move(table=table, seat=(dealer + 1) % 4, data={"type": "pass"})
    assert moved.game is not None
    assert moved.game.score_a == 0
    # a change that moves the version is read by the next move
    Game.objects.filter(pk=game.pk).update(score_a=7, version=F("version") + 1)
    moved = services.move(table=table, seat=(dealer + 2) % 4, data={"type": "pass"})
    assert moved.game is not None
    assert moved.game.score_a == 7
