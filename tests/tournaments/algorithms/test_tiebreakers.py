"""Sonneborn-Berger and opponents' match-win percentage, worked by hand."""

from tournaments.algorithms.standings import MatchResult, standings

# b is seed 1, a seed 2. a beat b, c beat a, c beat d, b beat d: c leads on 4 match points,
# a and b are level on 2, d has none.
RESULTS = [
    MatchResult("a", "b", "a", home_games=1),
    MatchResult("c", "d", "c", home_games=1),
    MatchResult("a", "c", "c", away_games=1),
    MatchResult("b", "d", "b", home_games=1),
]
ENTRIES = ["b", "a", "c", "d"]


def order(*tiebreakers: str) -> list[str]:
    rows = standings(ENTRIES, RESULTS, tiebreakers=tiebreakers)  # type: ignore[arg-type]
    return [str(row.entry) for row in rows]


def test_level_teams_go_by_seed_without_a_tiebreaker_between() -> None:
    assert order("match_wins", "seed") == ["c", "b", "a", "d"]


def test_sonneborn_berger_counts_the_points_of_the_teams_beaten() -> None:
    # a beat b (2 match points), b beat only d (none): a goes above b
    assert order("match_wins", "sonneborn_berger", "seed") == ["c", "a", "b", "d"]


def test_opponents_match_win_percentage_floors_each_opponent_at_a_third() -> None:
    # a met b (1 of 2 won) and c (2 of 2): 75%; b met a (50%) and d (0%, counted as a third)
    assert order("match_wins", "opponents_match_win", "seed") == ["c", "a", "b", "d"]


def test_a_bye_is_not_a_match_won_for_the_opponents_percentage() -> None:
    results = [
        MatchResult("e", None, "e"),  # e's bye
        MatchResult("f", "e", "f", home_games=1),  # f beat e
        MatchResult("g", "h", "g", home_games=1),  # g beat h, who then beat ...
        MatchResult("h", "i", "h", home_games=1),
    ]
    rows = standings(
        ["g", "f", "e", "h", "i"],
        results,
        tiebreakers=("match_wins", "opponents_match_win", "seed"),
    )
    # e, f, g and h all have one win (e's is its bye). e met f (won its one match: 100%),
    # h met g (100%) and i (none: a third), g met h (a half), f met e, whose only win was
    # the bye (none: a third). Counted as a win, e's bye would have put f level with e.
    assert [str(r.entry) for r in rows] == ["e", "h", "g", "f", "i"]
