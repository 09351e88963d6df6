"""Services: players, teams, games, hands of every outcome, corrections, undo, end and reopen."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring import services
from scoring.engine import EngineError, Ruleset, RulesetError, simulate_hand
from scoring.models import Game, Hand, HandRevision, Player, ResultChange
from tarabish_site.api.errors import Conflict, NotAllowed, PreconditionFailed, ValidationFailed
from tests.scoring.factories import (
    GameFactory,
    PlayerFactory,
    TeamFactory,
    UserFactory,
    record_hand,
    record_hands,
    summary,
)

pytestmark = pytest.mark.django_db


def _game(**kwargs: Any) -> Game:
    return GameFactory.create(**kwargs)


def _reload(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


# ----------------------------------------------------------------------------- players, teams


def test_player_names_are_unique_within_a_community() -> None:
    services.player_create(display_name="Angus MacNeil", community="Glace Bay")
    services.player_create(display_name="Angus MacNeil", community="Cheticamp")
    with pytest.raises(Conflict, match="already a player"):
        services.player_create(display_name=" Angus MacNeil ", community="Glace Bay")
    with pytest.raises(Conflict, match=r'already a player "Angus MacNeil \(Glace Bay\)"'):
        services.player_create(display_name="angus macneil", community="glace bay")
    found = services.player_named("ANGUS MACNEIL", "Cheticamp")
    assert found is not None
    assert found.community == "Cheticamp"
    with pytest.raises(ValidationFailed) as err:
        services.player_create(display_name="  ")
    assert err.value.fields == {"display_name": ["a display name is required"]}


def test_a_pair_is_one_team_whatever_the_order() -> None:
    one, two = PlayerFactory.create(), PlayerFactory.create()
    team = services.team_create(player_one=one, player_two=two)
    assert team.name == f"{one.display_name} & {two.display_name}"
    with pytest.raises(Conflict) as err:
        services.team_create(player_one=two, player_two=one, name="Again")
    assert str(team.pk) in err.value.message
    assert services.team_find(player_one=two, player_two=one) == team
    with pytest.raises(ValidationFailed):
        services.team_create(player_one=one, player_two=one)


def test_the_database_refuses_a_pair_twice() -> None:
    team = TeamFactory.create()
    with pytest.raises(IntegrityError), transaction.atomic():
        TeamFactory.create(player_one=team.player_two, player_two=team.player_one)


# ----------------------------------------------------------------------------- games


def test_game_seats_partners_opposite() -> None:
    a, b = TeamFactory.create(), TeamFactory.create()
    game = services.game_create(team_a=a, team_b=b, first_dealer=2)
    assert game.seat_ids == (a.player_one_id, b.player_one_id, a.player_two_id, b.player_two_id)
    assert (game.next_dealer, game.status, game.version) == (2, "in_progress", 1)
    assert game.ruleset == Ruleset().to_json()
    assert game.ruleset_preset == "cape-breton-standard"
    with pytest.raises(ValidationFailed) as err:
        services.game_create(
            team_a=a, team_b=b, seats=[a.player_one, a.player_two, b.player_one, b.player_two]
        )
    assert err.value.code == "bad_seats"
    assert set(err.value.fields) == {"seats.2"}


def test_game_refuses_teams_sharing_a_player() -> None:
    a = TeamFactory.create()
    b = TeamFactory.create(player_one=a.player_one)
    with pytest.raises(ValidationFailed, match="share a player"):
        services.game_create(team_a=a, team_b=b)


def test_game_ruleset_from_a_preset_or_explicit() -> None:
    game = _game(ruleset_preset="kitchen-table")
    assert game.engine_ruleset.half_bait_is_whole_bait
    custom = _game(ruleset={"target": 1000})
    assert (custom.ruleset_preset, custom.engine_ruleset.target) == ("custom", 1000)
    named = _game(ruleset={"forced_at": 400})
    assert named.ruleset_preset == "forced-at-400"
    with pytest.raises(RulesetError) as err:
        _game(ruleset={"traget": 1000})
    assert err.value.field == "traget"
    with pytest.raises(RulesetError):
        _game(ruleset_preset="no-such-preset")


def test_creator_is_a_scorekeeper() -> None:
    user = UserFactory.create()
    game = _game(created_by=user)
    assert list(game.scorekeepers.all()) == [user]
    assert services.user_can_keep_score(user, game)
    assert not services.user_can_keep_score(UserFactory.create(), game)
    assert services.user_can_keep_score(UserFactory.create(director=True), game)
    assert services.user_can_direct(UserFactory.create(director=True))
    assert not services.user_can_direct(user)
    assert not services.user_can_direct(None)


def test_first_dealer_flip_for_jacks_keeps_the_cards() -> None:
    game = _game(first_dealer=None)
    assert game.next_dealer is None
    services.game_first_dealer_flip(game=game, rng=random.Random(5))
    assert game.first_dealer_method == "flip_for_jacks"
    seat, card = game.first_dealer_flips[-1]
    assert card.startswith("J")
    assert all(not c.startswith("J") for _, c in game.first_dealer_flips[:-1])
    assert game.first_dealer == seat == game.next_dealer
    with pytest.raises(Conflict):
        services.game_first_dealer_flip(game=game)


def test_first_dealer_high_card_by_ruleset() -> None:
    game = _game(first_dealer=None, ruleset={"first_dealer": "high_card"})
    services.game_first_dealer_flip(game=game, rng=random.Random(1))
    assert game.first_dealer_method == "high_card"
    assert game.first_dealer in (0, 1, 2, 3)
    assert len(game.first_dealer_flips) >= 4


def test_first_dealer_is_needed_and_fixed_once_hands_are_in() -> None:
    game = _game(first_dealer=None)
    with pytest.raises(ValidationFailed) as err:
        record_hand(game)
    assert err.value.code == "no_first_dealer"
    services.game_first_dealer_set(game=game, seat=3)
    assert game.next_dealer == 3
    record_hand(game)
    with pytest.raises(ValidationFailed):
        services.game_first_dealer_set(game=game, seat=1)


# ----------------------------------------------------------------------------- outcomes


@pytest.mark.parametrize(
    ("entry", "outcome", "points"),
    [
        (summary(caller=0, card_points=(92, 70)), "made", (92, 70)),
        (summary(caller=1, card_points=(81, 81)), "half_bait", (81, 0)),
        (summary(caller=1, card_points=(100, 62)), "bait", (162, 0)),
        (
            summary(caller=0, misplay={"called_by": 1, "proven": True}, card_points=None),
            "misplay_proven",
            (0, 162),
        ),
        (
            summary(caller=0, misplay={"called_by": 1, "proven": False}, card_points=None),
            "misplay_not_proven",
            (162, 0),
        ),
        (summary(caller=0, card_points=(40, 20), thrown_in_by=1), "thrown_in", (142, 20)),
        (summary(caller=2, card_points={"team": "team_b", "points": 70}), "made", (92, 70)),
        (summary(caller=0, card_points=(92, 70), run_points=[20, 0]), "made", (112, 70)),
        (summary(caller=0, card_points=(92, 70), run_points=[0, 50]), "bait", (0, 212)),
        (
            summary(
                caller=0,
                trump="S",
                card_points=(100, 62),
                runs=[{"seat": 3, "kind": "fifty", "suit": "C", "top": "A"}],
                bella_seat=0,
            ),
            "made",
            (120, 112),
        ),
    ],
)
def test_summary_outcomes(entry: dict[str, Any], outcome: str, points: tuple[int, int]) -> None:
    game = _game()
    hand = record_hand(game, entry)
    assert (hand.outcome, (hand.points_a, hand.points_b)) == (outcome, points)
    assert (hand.running_a, hand.running_b) == points
    assert (game.score_a, game.score_b, game.hands_played, game.next_dealer) == (*points, 1, 1)
    assert hand.entry == entry  # kept exactly as entered
    assert hand.dealer == 0
    stored = Hand.objects.get(pk=hand.pk)
    assert stored.result["points"] == list(points)
    assert not stored.revisions.exists()  # the hand is its own first version
    (first,) = stored.history()
    assert first.action == HandRevision.Action.RECORDED
    assert (first.version, first.entry_kind, first.entry, first.result) == (
        1,
        "summary",
        stored.entry,
        stored.result,
    )


def test_runs_and_bella_columns() -> None:
    entry = summary(
        caller=0,
        trump="S",
        card_points=(100, 62),
        runs=[{"seat": 3, "kind": "fifty", "suit": "C", "top": "A"}],
        bella_seat=0,
    )
    hand = record_hand(_game(), entry)
    assert (hand.run_points_a, hand.run_points_b, hand.runs_counted_by) == (0, 50, 3)
    assert (hand.bella_points_a, hand.bella_points_b, hand.bella_seat) == (20, 0, 0)
    assert (hand.hand_total, hand.trump, hand.caller) == (232, "S", 0)


SHIRLEY_FIFTY_MURDOCK_TWENTY = [{"fifties": 1}, {}, {"twenties": 1}, {}]


def test_runs_entered_per_player_are_kept_as_entered_and_the_best_run_counts() -> None:
    entry = summary(caller=0, card_points=(92, 70), run_counts=SHIRLEY_FIFTY_MURDOCK_TWENTY)
    hand = record_hand(_game(), entry)
    assert hand.entry == entry
    assert (hand.run_points_a, hand.run_points_b, hand.runs_counted_by) == (50, 0, 0)
    assert (hand.points_a, hand.points_b) == (142, 70)
    assert Hand.objects.get(pk=hand.pk).result["runs_counted_by"] == 0


def test_runs_per_player_that_cannot_tell_who_counts_are_refused_and_nothing_written() -> None:
    game = _game()
    entry = summary(
        caller=0, card_points=(92, 70), run_counts=[{"fifties": 1}, {"fifties": 1}, {}, {}]
    )
    with pytest.raises(EngineError) as info:
        record_hand(game, entry)
    assert (info.value.code, info.value.field) == ("runs_undecided", "run_counts")
    assert not Hand.objects.exists()
    assert _reload(game).version == game.version


def test_a_verdict_on_a_hand_of_runs_per_player_keeps_its_runs(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = _game(first_dealer=3)
    entry = summary(caller=0, card_points=(92, 70), run_counts=SHIRLEY_FIFTY_MURDOCK_TWENTY)
    hand = record_hand(game, entry)
    evidence = {
        "dealer": 3,
        "caller": 0,
        "trump": "H",
        "tricks": [["KH", "6H", "7H", "8H"], ["AS", "9H", "10S", "6S"]],
    }
    with django_capture_on_commit_callbacks(execute=True):
        services.dispute_open(hand=hand, called_by=0, accused=1, trick=1, evidence=evidence)
    hand.refresh_from_db()
    assert (hand.outcome, hand.points_a, hand.points_b) == ("misplay_proven", 212, 0)
    assert (hand.run_points_a, hand.runs_counted_by) == (50, 0)


def test_void_hand_moves_the_deal() -> None:
    game = _game(ruleset_preset="kitchen-table")
    hand = record_hand(game, {"caller": None, "trump": None})
    assert (hand.outcome, hand.points_a, hand.points_b) == ("void", 0, 0)
    assert game.next_dealer == 1
    standard = _game()
    with pytest.raises(EngineError) as err:
        record_hand(standard, {"caller": None, "trump": None})
    assert err.value.field == "caller"


def test_tricks_entry_is_scored_by_the_engine() -> None:
    game = _game(first_dealer=1)
    sim = simulate_hand(Ruleset(), random.Random(11), dealer=1)
    hand = record_hand(game, sim.record.to_json(), entry_kind="tricks")
    assert hand.entry_kind == "tricks"
    assert hand.outcome == sim.result.outcome.value
    assert (hand.points_a, hand.points_b) == sim.result.points


def test_bad_entries_name_the_field() -> None:
    game = _game()
    with pytest.raises(EngineError) as err:
        record_hand(game, summary(caller=0, card_points=(161, 1)))
    assert (err.value.code, err.value.field) == ("card_points_impossible", "card_points.0")
    with pytest.raises(EngineError) as err:
        record_hand(game, summary(caller=0, card_points={"team": "team_a", "points": 161}))
    assert "no card is worth 1" in str(err.value)
    with pytest.raises(EngineError) as err:
        record_hand(game, summary(caller=0, dealer=2))
    assert err.value.field == "dealer"
    with pytest.raises(EngineError) as err:
        record_hand(game, summary(caller=0, card_points=(100, 100)))
    assert err.value.code == "card_points_sum"
    with pytest.raises(EngineError) as err:
        record_hand(game, summary(caller=0), entry_kind="scribbles")
    assert err.value.field == "entry_kind"
    assert not Hand.objects.exists()  # nothing half-written
    assert _reload(game).version == 1


# ----------------------------------------------------------------------------- numbers


def test_an_existing_number_is_a_conflict_naming_the_hand() -> None:
    game = _game()
    record_hand(game)
    with pytest.raises(Conflict) as err:
        record_hand(game, number=1)
    assert err.value.code == "hand_exists"
    assert "hand 1 of game" in err.value.message
    assert "92-70" in err.value.message
    with pytest.raises(ValidationFailed) as gap:
        record_hand(game, number=3)
    assert gap.value.code == "hand_number_gap"
    assert record_hand(game, number=2).number == 2


def test_the_database_allows_one_counting_hand_per_number() -> None:
    game = _game()
    hand = record_hand(game)
    hand.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        hand.save()
    hand.undone = True
    hand.save()  # an undone hand may share its number


# ----------------------------------------------------------------------------- game end


def test_team_a_wins() -> None:
    game = _game()
    record_hands(game, 5)
    assert game.status == "in_progress"
    record_hands(game, 1)
    game = _reload(game)
    assert (game.status, game.winner, game.score_a, game.score_b) == (
        "finished",
        "team_a",
        552,
        420,
    )
    assert game.finished_at is not None
    assert game.winning_team == game.team_a
    assert (game.next_dealer, game.forced_seat) == (2, None)


def test_team_b_wins() -> None:
    game = _game()
    for _ in range(6):
        record_hand(game, summary(caller=1, card_points=(70, 92)))
    assert (game.status, game.winner, game.score_b) == ("finished", "team_b", 552)


def test_finished_game_refuses_hands() -> None:
    game = _game()
    record_hands(game, 6)
    with pytest.raises(ValidationFailed) as err:
        record_hand(game)
    assert err.value.code == "game_over"
    assert "finished" in err.value.message


def test_both_over_higher_total_wins() -> None:
    game = _game(ruleset={"target": 200})
    record_hand(game, summary(caller=0, card_points=(92, 70)))
    record_hand(game, summary(caller=0, card_points=(82, 80)))
    record_hand(game, summary(caller=0, card_points=(90, 72)))
    assert (game.score_a, game.score_b, game.winner) == (264, 222, "team_a")


def test_both_over_exact_tie_plays_another_hand() -> None:
    game = _game(ruleset={"target": 150})
    record_hand(game, summary(caller=0, card_points=(92, 70)))
    record_hand(game, summary(caller=1, card_points=(70, 92)))
    assert (game.score_a, game.score_b, game.status) == (162, 162, "in_progress")
    record_hand(game, summary(caller=1, card_points=(62, 100)))
    assert (game.status, game.winner) == ("finished", "team_b")


def test_both_over_caller_wins_by_switch() -> None:
    game = _game(ruleset={"target": 150, "both_over": "caller"})
    record_hand(game, summary(caller=0, card_points=(92, 70)))
    record_hand(game, summary(caller=1, card_points=(70, 92)))
    assert (game.status, game.winner) == ("finished", "team_b")


def test_forced_seat_follows_the_engine() -> None:
    game = _game(ruleset_preset="forced-at-400")
    record_hands(game, 3, points=(142, 20))  # team A 426 after three hands, dealer next seat 3
    assert (game.score_a, game.next_dealer, game.forced_seat) == (426, 3, 2)


def test_a_forced_call_never_reaches_the_dealer() -> None:
    game = _game(ruleset={"forced_at": 400, "dealer_may_pass": True})
    record_hands(game, 3, points=(142, 20))  # seat 2 (team A, 426) is forced; seat 3 deals
    dealer_calls = summary(caller=3, card_points=(70, 92))
    for entry in (dealer_calls, summary(caller=None, trump=None, card_points=None)):
        with pytest.raises(EngineError) as err:
            record_hand(game, entry)
        assert (err.value.code, err.value.field) == ("forced_call", "caller")
    assert "seat 2 must call" in str(err.value)
    hand = record_hand(game, summary(caller=2, card_points=(70, 92)))
    with pytest.raises(EngineError) as err:
        services.hand_correct(
            hand=hand,
            entry=summary(caller=3, card_points=(70, 92)),
            expected_version=hand.version,
            reason="typo",
        )
    assert err.value.code == "forced_call"
    assert _reload(game).hands.active().count() == 4


# ----------------------------------------------------------------------------- corrections


def _finished_by_team_a() -> tuple[Game, list[Hand]]:
    game = _game()
    hands = record_hands(game, 6)
    assert game.winner == "team_a"
    return game, hands


def test_only_a_director_corrects_a_finished_game() -> None:
    game, hands = _finished_by_team_a()
    scorekeeper = UserFactory.create()
    with pytest.raises(NotAllowed) as err:
        services.hand_correct(
            hand=hands[5],
            entry=summary(caller=0, card_points=(40, 122)),
            reason="the caller went bait",
            by=scorekeeper,
            expected_version=1,
        )
    assert err.value.code == "director_only"
    game = _reload(game)
    assert (game.status, game.winner, game.score_a) == ("finished", "team_a", 552)
    assert Hand.objects.get(pk=hands[5].pk).version == 1


def test_correction_changes_the_winner_and_keeps_history() -> None:
    game, hands = _finished_by_team_a()
    user = UserFactory.create(director=True)
    corrected = services.hand_correct(
        hand=hands[5],
        entry=summary(caller=0, card_points=(40, 122)),
        reason="the caller went bait",
        by=user,
        expected_version=1,
    )
    assert (corrected.outcome, corrected.version, corrected.points_b) == ("bait", 2, 162)
    game = _reload(game)
    assert (game.winner, game.score_a, game.score_b) == ("team_b", 460, 512)
    revisions = list(corrected.revisions.order_by("version"))
    assert [r.action for r in revisions] == ["recorded", "corrected"]
    assert revisions[0].entry == summary(caller=0, card_points=(92, 70))
    assert revisions[1].reason == "the caller went bait"
    assert revisions[1].changed_by == user
    assert hands[5].version == 2  # the caller's object sees the new version


def test_the_first_version_is_stored_when_the_hand_first_changes() -> None:
    scorekeeper, director = UserFactory.create(), UserFactory.create(director=True)
    game = _game()
    hand = record_hand(game, summary(caller=0, card_points=(92, 70)), by=scorekeeper)
    entered = Hand.objects.get(pk=hand.pk)
    assert not HandRevision.objects.filter(hand=hand).exists()
    for version in (1, 2):
        services.hand_correct(
            hand=hand,
            entry=summary(caller=0, card_points=(100 + version, 62 - version)),
            reason=f"fix {version}",
            by=director,
            expected_version=version,
        )
    stored = list(HandRevision.objects.filter(hand=hand).order_by("version"))
    assert [(r.version, r.action) for r in stored] == [
        (1, "recorded"),
        (2, "corrected"),
        (3, "corrected"),
    ]
    # The first version is the hand as entered: by whom and when, not by the corrector.
    first = stored[0]
    assert (first.entry, first.result, first.changed_by, first.changed_at, first.reason) == (
        entered.entry,
        entered.result,
        scorekeeper,
        entered.created_at,
        "",
    )
    assert Hand.objects.get(pk=hand.pk).history() == stored


def test_a_first_version_already_stored_is_not_stored_twice() -> None:
    game = _game()
    hand = record_hand(game)
    HandRevision.objects.create(**_fields_of(Hand.objects.get(pk=hand.pk).recorded_revision()))
    services.hand_undo_last(game=game, reason="entered twice")
    assert [r.action for r in HandRevision.objects.filter(hand=hand).order_by("version")] == [
        "recorded",
        "undone",
    ]


def _fields_of(revision: HandRevision) -> dict[str, Any]:
    """The fields of an unsaved revision, to store it as a hand entered long ago would have."""
    return {
        field.attname: getattr(revision, field.attname)
        for field in HandRevision._meta.concrete_fields
        if not field.primary_key
    }


def test_correction_recomputes_later_running_totals() -> None:
    game = _game()
    hands = record_hands(game, 3)
    services.hand_correct(
        hand=hands[0],
        entry=summary(caller=1, card_points=(81, 81)),
        reason="half-bait, not made",
        expected_version=1,
    )
    running = list(Hand.objects.order_by("number").values_list("running_a", "running_b"))
    assert running == [(81, 0), (173, 70), (265, 140)]
    assert (_reload(game).score_a, _reload(game).version) == (265, 5)


def test_correction_can_unfinish_and_refinish() -> None:
    game = _game()
    hands = record_hands(game, 5, points=(122, 40))
    assert game.status == "finished"
    services.hand_correct(
        hand=hands[4],
        entry=summary(caller=0, card_points=(81, 81)),
        reason="it was a half-bait",
        expected_version=1,
    )
    game = _reload(game)
    assert (game.status, game.winner, game.score_a) == ("in_progress", "", 488)
    assert game.finished_at is None
    assert game.next_dealer == 1
    record_hand(game)
    assert _reload(game).winner == "team_a"


def test_a_correction_preview_says_what_the_correction_gives_and_writes_nothing(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game, hands = _finished_by_team_a()
    director = UserFactory.create(director=True)
    correction = {
        "entry": summary(caller=0, card_points=(40, 122)),
        "reason": "the caller went bait",
        "by": director,
        "expected_version": 1,
    }
    with django_capture_on_commit_callbacks() as callbacks:
        preview = services.hand_correct_preview(hand=hands[5], **correction)
    assert callbacks == []  # nothing announced
    assert (preview.hand.outcome, preview.hand.points_b, preview.hand.version) == ("bait", 162, 2)
    assert (preview.game.status, preview.game.winner) == ("finished", "team_b")
    assert (preview.game.score_a, preview.game.score_b) == (460, 512)
    assert hands[5].version == 1  # the caller's hand is left as it was
    stored = _reload(game)
    assert (stored.winner, stored.score_a, stored.version) == ("team_a", 552, game.version)
    assert Hand.objects.get(pk=hands[5].pk).version == 1
    assert not HandRevision.objects.exists()
    done = services.hand_correct(hand=hands[5], **correction)
    assert (done.outcome, _reload(game).winner) == ("bait", "team_b")
    with pytest.raises(NotAllowed):  # refused as the correction itself is
        services.hand_correct_preview(
            hand=hands[5], **{**correction, "by": UserFactory.create(), "expected_version": 2}
        )


def test_why_the_hands_of_a_game_may_not_be_changed() -> None:
    game, _ = _finished_by_team_a()
    keeper, director = UserFactory.create(), UserFactory.create(director=True)
    game.scorekeepers.add(keeper)
    assert "only a director corrects or disputes" in services.hand_change_refused_why(keeper, game)
    assert services.hand_change_refused_why(director, game) == ""
    running = _game(scorekeepers=[keeper])
    assert services.hand_change_refused_why(keeper, running) == ""
    assert services.hand_change_refused_why(UserFactory.create(), running) != ""
    services.game_end_early(game=running, reason="the hall closed")
    assert "ended early" in services.hand_change_refused_why(director, running)


def test_correction_needs_the_current_version_and_a_reason() -> None:
    game = _game()
    hand = record_hand(game)
    with pytest.raises(PreconditionFailed):
        services.hand_correct(hand=hand, entry=summary(caller=0), reason="x", expected_version=2)
    with pytest.raises(ValidationFailed) as err:
        services.hand_correct(hand=hand, entry=summary(caller=0), reason=" ", expected_version=1)
    assert "reason" in err.value.fields


def test_correction_that_would_end_the_game_before_later_hands_is_refused() -> None:
    game = _game(ruleset={"target": 300})
    hands = record_hands(game, 3)
    with pytest.raises(ValidationFailed) as err:
        services.hand_correct(
            hand=hands[0],
            entry=summary(caller=0, card_points=(92, 70), run_points=[100, 0], bella_seat=2),
            reason="two fifties and bella were forgotten",
            expected_version=1,
        )
    assert err.value.code == "game_over_before_last_hand"
    assert "over after hand 2, but hand 3 follows" in err.value.message
    assert Hand.objects.get(pk=hands[0].pk).version == 1


# ----------------------------------------------------------------------------- undo, end, reopen


def test_undo_last_keeps_the_hand_and_frees_its_number() -> None:
    game = _game()
    first, second = record_hands(game, 2)
    undone = services.hand_undo_last(game=game, reason="entered twice")
    assert undone.pk == second.pk
    assert (game.score_a, game.hands_played, game.next_dealer) == (92, 1, 1)
    again = record_hand(game, summary(caller=1, card_points=(70, 92)))
    assert again.number == 2
    assert Hand.objects.filter(game=game, number=2).count() == 2
    assert [r.action for r in undone.revisions.order_by("version")] == ["recorded", "undone"]
    services.hand_undo_last(game=game)
    services.hand_undo_last(game=game)
    with pytest.raises(ValidationFailed) as err:
        services.hand_undo_last(game=game)
    assert err.value.code == "no_hands"
    assert first.pk in set(Hand.objects.filter(undone=True).values_list("pk", flat=True))


def test_end_early_and_reopen() -> None:
    game = _game()
    record_hands(game, 2)
    with pytest.raises(ValidationFailed):
        services.game_end_early(game=game, reason="")
    services.game_end_early(game=game, reason="the hall closed")
    game = _reload(game)
    assert (game.status, game.winner, game.ended_reason) == ("abandoned", "", "the hall closed")
    assert game.finished_at is not None
    with pytest.raises(ValidationFailed, match="ended early"):
        record_hand(game)
    with pytest.raises(ValidationFailed):
        services.hand_undo_last(game=game)
    services.game_reopen(game=game)
    assert (game.status, game.next_dealer) == ("in_progress", 2)
    assert game.finished_at is None
    record_hand(game)
    with pytest.raises(ValidationFailed):
        services.game_reopen(game=game)


def test_only_a_director_reopens_a_game() -> None:
    game, _ = _finished_by_team_a()
    keeper = UserFactory.create()
    game.scorekeepers.add(keeper)
    with pytest.raises(NotAllowed) as info:
        services.game_reopen(game=game, by=keeper)
    assert info.value.message == "only a director may reopen a game"
    assert _reload(game).status == "finished"
    director = UserFactory.create(is_staff=True)
    services.game_reopen(game=game, by=director)
    assert _reload(game).status == "in_progress"


def test_reopened_finished_game_needs_a_change_before_more_hands() -> None:
    game, _ = _finished_by_team_a()
    services.game_reopen(game=game)
    with pytest.raises(ValidationFailed, match="already end"):
        record_hand(game)
    services.hand_undo_last(game=game)
    assert (game.status, game.hands_played) == ("in_progress", 5)
    record_hand(game, summary(caller=0, card_points=(81, 81)))
    assert (game.status, game.score_a, game.score_b) == ("in_progress", 460, 431)


# ----------------------------------------------------------------------------- signal


def test_result_changes_are_announced_after_commit(
    django_capture_on_commit_callbacks: Any, only_this_receiver: list[int]
) -> None:
    seen = only_this_receiver
    game = _game()
    with django_capture_on_commit_callbacks(execute=True):
        hand = record_hand(game)
    assert seen == []  # the game goes on: its score moved, no result changed
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.hand_correct(
            hand=hand,
            entry=summary(caller=1, card_points=(81, 81)),
            reason="r",
            expected_version=1,
        )
    assert len(callbacks) == 2  # the result change, and the pages watching the game told
    assert seen == []
    with pytest.raises(EngineError), django_capture_on_commit_callbacks() as failed:
        record_hand(game, summary(caller=0, card_points=(161, 1)))
    assert failed == []


def test_the_hand_that_ends_the_game_is_announced(
    django_capture_on_commit_callbacks: Any, only_this_receiver: list[int]
) -> None:
    game = _game()
    with django_capture_on_commit_callbacks(execute=True):
        record_hands(game, 5)
    assert (game.status, only_this_receiver) == ("in_progress", [])
    with django_capture_on_commit_callbacks(execute=True):
        record_hand(game)
    assert (game.status, only_this_receiver) == ("finished", [game.pk])


def test_a_delivered_change_is_deleted_and_one_recorded_since_kept(
    django_capture_on_commit_callbacks: Any, only_this_receiver: list[int]
) -> None:
    game, other = _game(), _game()
    record_hands(game, 5)
    ResultChange.objects.create(game=other)
    later = ResultChange.objects.create(game=game, created_at=timezone.now() + timedelta(hours=1))
    with django_capture_on_commit_callbacks(execute=True):
        record_hand(game)  # ends it: its change is recorded, delivered, then deleted
    assert only_this_receiver == [game.pk]
    # what was recorded before the delivery began is gone; a later change, another game's, stay
    assert set(ResultChange.objects.values_list("pk", flat=True)) == {
        later.pk,
        *ResultChange.objects.filter(game=other).values_list("pk", flat=True),
    }
    assert ResultChange.objects.count() == 2


def test_player_factory_names_are_distinct() -> None:
    assert PlayerFactory.create().display_name != PlayerFactory.create().display_name
    assert Player.objects.count() == 2
