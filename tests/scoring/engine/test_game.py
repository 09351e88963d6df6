"""Game progress: totals, dealer rotation, forced call, game over and winner."""

import pytest

from scoring.engine import (
    GameProgress,
    HandResult,
    HandSummary,
    InvalidEntry,
    Outcome,
    Ruleset,
    Suit,
    game_progress,
    score_summary,
)
from scoring.engine.game import forced_call


def made(dealer: int, points: tuple[int, int], caller: int = 0) -> HandResult:
    return HandResult(
        Outcome.MADE,
        dealer,
        caller,
        caller % 2,
        Suit.HEARTS,
        points,
        (0, 0),
        (0, 0),
        points,
        sum(points),
        points,
    )


def test_running_totals_and_dealer_rotation():
    g = game_progress(Ruleset(), 2, [made(2, (100, 62)), made(3, (0, 162)), made(0, (92, 70))])
    assert g.totals == (192, 294)
    assert g.running == ((100, 62), (100, 224), (192, 294))
    assert g.hands_played == 3
    assert g.next_dealer == 1
    assert not g.over
    assert g.winner is None


def test_void_hand_moves_the_deal():
    void = score_summary(
        Ruleset(dealer_may_pass=True),
        HandSummary(dealer=0, caller=None, trump=None, card_points=None),
    )
    g = game_progress(Ruleset(dealer_may_pass=True), 0, [void])
    assert g.next_dealer == 1
    assert g.totals == (0, 0)


def test_wrong_dealer_is_rejected():
    with pytest.raises(InvalidEntry) as info:
        game_progress(Ruleset(), 0, [made(0, (100, 62)), made(3, (100, 62))])
    assert info.value.field == "results.1.dealer"


def test_500_exactly_is_enough():
    g = game_progress(Ruleset(), 0, [made(0, (338, 0)), made(1, (162, 0))])
    assert g.over
    assert g.winner == 0
    assert g.totals == (500, 0)


def test_target_switch():
    g = game_progress(Ruleset(target=1000), 0, [made(0, (338, 0)), made(1, (162, 0))])
    assert not g.over


def test_both_over_higher_total_wins():
    g = game_progress(Ruleset(), 0, [made(0, (420, 410)), made(1, (100, 62), caller=1)])
    assert g.over
    assert g.winner == 0


def test_both_over_exact_tie_plays_another_hand():
    g = game_progress(Ruleset(), 0, [made(0, (419, 419)), made(1, (81, 81), caller=1)])
    assert g.totals == (500, 500)
    assert not g.over
    g = game_progress(Ruleset(), 0, [made(0, (419, 419)), made(1, (81, 81)), made(2, (70, 92))])
    assert g.over
    assert g.winner == 1


def test_both_over_caller_switch_gives_the_calling_team_the_win():
    # seed 002: "If both teams pass 500 in the same hand, the team that last called trump wins."
    r = Ruleset(both_over="caller")
    g = game_progress(r, 0, [made(0, (420, 410)), made(1, (90, 112), caller=3)])
    assert g.totals == (510, 522)
    assert g.winner == 1
    g = game_progress(r, 0, [made(0, (420, 410)), made(1, (100, 92), caller=1)])
    assert g.winner == 1  # calling team wins even with the lower total


def test_hands_after_game_over_are_rejected():
    with pytest.raises(InvalidEntry) as info:
        game_progress(Ruleset(), 0, [made(0, (500, 0)), made(1, (100, 62))])
    assert info.value.field == "results.1"


def test_forced_at_off_by_default():
    assert forced_call(Ruleset(), 0, (450, 0)) == (None, None)


@pytest.mark.parametrize(
    ("dealer", "totals", "expected"),
    [
        (1, (401, 0), (0, 0)),  # team 0 over, opposing dealer 1: seat 0 (dealer's right) calls
        (3, (401, 0), (2, 0)),
        (0, (401, 0), (None, 0)),  # own team deals: nothing to force
        (1, (400, 0), (None, None)),  # "more than" 400
        (0, (401, 450), (3, 1)),  # both over: the higher team is forced
        (1, (460, 450), (0, 0)),
        (1, (460, 460), (0, 0)),  # exact tie: the team not dealing is forced
        (2, (460, 460), (1, 1)),
    ],
)
def test_forced_at(dealer, totals, expected):
    assert forced_call(Ruleset(forced_at=400), dealer, totals) == expected


def test_game_progress_reports_forced_seat():
    g = game_progress(Ruleset(forced_at=400), 0, [made(0, (300, 0)), made(1, (120, 42))])
    assert (g.forced_seat, g.forced_team) == (None, 0)
    g = game_progress(
        Ruleset(forced_at=400), 0, [made(0, (300, 0)), made(1, (120, 42)), made(2, (0, 162))]
    )
    assert (g.next_dealer, g.forced_seat, g.forced_team) == (3, 2, 0)
    assert isinstance(g, GameProgress)
    assert g.to_json()["forced_seat"] == 2
