"""``game_progress_after``: one hand added to where the game stood is the same game as
``game_progress`` over every hand, errors included."""

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import HandResult, InvalidEntry, Outcome, Ruleset, game_progress
from scoring.engine.game import GameProgress, game_progress_after

rulesets = st.builds(
    Ruleset,
    target=st.integers(1, 600),
    forced_at=st.one_of(st.none(), st.integers(0, 500)),
    both_over=st.sampled_from(["higher", "caller"]),
)
# (points of team A, points of team B, calling seat or None for a void hand)
hands = st.tuples(st.integers(0, 250), st.integers(0, 250), st.one_of(st.none(), st.integers(0, 3)))


def result(dealer: int, points: tuple[int, int], caller: int | None) -> HandResult:
    return HandResult(
        Outcome.VOID if caller is None else Outcome.MADE,
        dealer,
        caller,
        None if caller is None else caller % 2,
        None,
        points,
        (0, 0),
        (0, 0),
        points,
        sum(points),
        points,
    )


def fold(rules: Ruleset, first_dealer: int, results: list[HandResult]) -> GameProgress:
    progress = game_progress(rules, first_dealer, [])
    for r in results:
        progress = game_progress_after(rules, progress, r)
    return progress


@given(rulesets, st.integers(0, 3), st.lists(hands, max_size=14))
def test_hand_by_hand_is_the_whole_game(
    rules: Ruleset, first_dealer: int, entered: list[tuple[int, int, int | None]]
) -> None:
    results = [
        result((first_dealer + i) % 4, (a, b), caller) for i, (a, b, caller) in enumerate(entered)
    ]

    def outcome(play: Callable[[], GameProgress]) -> GameProgress | dict[str, object]:
        try:
            return play()
        except InvalidEntry as exc:  # a hand after the end: the same error either way
            return exc.to_json()

    whole = outcome(lambda: game_progress(rules, first_dealer, results))
    assert outcome(lambda: fold(rules, first_dealer, results)) == whole


@given(rulesets, st.integers(0, 3), st.lists(hands, min_size=1, max_size=6), st.integers(1, 3))
def test_a_hand_dealt_by_the_wrong_seat_is_refused_the_same_way(
    rules: Ruleset, first_dealer: int, entered: list[tuple[int, int, int | None]], off: int
) -> None:
    results = [
        result((first_dealer + i) % 4, (a, b), caller) for i, (a, b, caller) in enumerate(entered)
    ]
    last = results[-1]
    results[-1] = result((last.dealer + off) % 4, last.points, last.caller)
    with pytest.raises(InvalidEntry) as whole:
        game_progress(rules, first_dealer, results)
    with pytest.raises(InvalidEntry) as step:
        fold(rules, first_dealer, results)
    assert step.value.to_json() == whole.value.to_json()


def test_the_running_totals_are_kept_hand_by_hand() -> None:
    rules = Ruleset()
    first = game_progress(rules, 1, [result(1, (100, 62), 1)])
    after = game_progress_after(rules, first, result(2, (0, 162), 2))
    assert after.running == ((100, 62), (100, 224))
    assert (after.hands_played, after.next_dealer, after.over) == (2, 3, False)
