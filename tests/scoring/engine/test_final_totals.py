"""``final_winner``: the winner of a game played on paper, from its final totals alone, is the
winner the hands would have given, and totals no finished game can end on are refused."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import HandResult, InvalidEntry, Ruleset, final_winner, game_progress
from scoring.engine.game import FINAL_TOTAL_MAX
from tests.scoring.engine.test_game_after import hands, result, rulesets


@given(rulesets, st.integers(0, 3), st.lists(hands, max_size=14))
def test_the_totals_of_a_game_played_to_its_end_give_its_winner(
    rules: Ruleset, first_dealer: int, entered: list[tuple[int, int, int | None]]
) -> None:
    results: list[HandResult] = []
    progress = game_progress(rules, first_dealer, results)
    for i, (a, b, caller) in enumerate(entered):
        results.append(result((first_dealer + i) % 4, (a, b), caller))
        progress = game_progress(rules, first_dealer, results)
        if progress.over:
            break
    else:
        # a game not over: its totals are refused, whatever winner is named; but under the
        # caller's rule, totals both over the target cannot say the last hand had no caller
        # (which leaves the game going on), so a named winner is taken at its word
        both_over = min(progress.totals) >= rules.target and rules.both_over == "caller"
        for named in (None,) if both_over else (None, 0, 1):
            with pytest.raises(InvalidEntry):
                final_winner(rules, progress.totals, named)
        return
    assert progress.winner is not None
    # the caller's rule needs the winner named (the totals cannot tell); it is then taken
    both_over = min(progress.totals) >= rules.target
    if both_over and rules.both_over == "caller":
        with pytest.raises(InvalidEntry) as needed:
            final_winner(rules, progress.totals)
        assert needed.value.code == "winner_needed"
        assert final_winner(rules, progress.totals, progress.winner) == progress.winner
        return
    assert final_winner(rules, progress.totals) == progress.winner
    assert final_winner(rules, progress.totals, progress.winner) == progress.winner
    with pytest.raises(InvalidEntry) as wrong:
        final_winner(rules, progress.totals, 1 - progress.winner)
    assert (wrong.value.code, wrong.value.field) == ("wrong_winner", "winner")


@pytest.mark.parametrize(
    ("totals", "code", "field"),
    [
        ((499, 320), "game_not_over", "totals"),
        ((530, 530), "game_not_over", "totals"),
        ((-5, 510), "bad_value", "totals.0"),
        ((510, FINAL_TOTAL_MAX + 1), "bad_value", "totals.1"),
        ((True, 510), "bad_value", "totals.0"),
        ((510.0, 20), "bad_value", "totals.0"),
    ],
)
def test_totals_no_game_ends_on_are_refused_naming_the_total(
    totals: tuple[int, int], code: str, field: str
) -> None:
    with pytest.raises(InvalidEntry) as refused:
        final_winner(Ruleset(), totals)
    assert (refused.value.code, refused.value.field) == (code, field)


def test_a_winner_named_is_a_team() -> None:
    with pytest.raises(InvalidEntry) as refused:
        final_winner(Ruleset(), (510, 20), 2)
    assert (refused.value.code, refused.value.field) == ("bad_value", "winner")


def test_the_target_is_the_rulesets() -> None:
    assert final_winner(Ruleset(target=1000), (1010, 980)) == 0
    with pytest.raises(InvalidEntry):
        final_winner(Ruleset(target=1000), (600, 980))
