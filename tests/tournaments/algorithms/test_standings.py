"""Standings: tallies, each tie-breaker, head-to-head among exactly the tied, order-free."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.algorithms.common import AlgorithmError, EntryId
from tournaments.algorithms.standings import (
    DEFAULT_TIEBREAKERS,
    TIEBREAKERS,
    MatchResult,
    TieBreaker,
    standings,
)


def win(home: str, away: str, **scores: int) -> MatchResult:
    return MatchResult(home, away, home, **scores)


def order(
    entries: list[str], results: list[MatchResult], *tiebreakers: TieBreaker
) -> list[EntryId]:
    return [row.entry for row in standings(entries, results, tiebreakers=tiebreakers)]


def test_rows_tally_games_points_and_baits_from_both_sides() -> None:
    results = [
        MatchResult(
            "a",
            "b",
            "a",
            home_games=2,
            away_games=1,
            home_points=1320,
            away_points=1105,
            home_baits=1,
            away_baits=3,
        ),
        MatchResult("c", None, "c"),
        MatchResult("b", "c", None, home_games=1, away_games=1, home_points=600, away_points=600),
    ]
    rows = {row.entry: row for row in standings(["a", "b", "c"], results)}
    a, b, c = rows["a"], rows["b"], rows["c"]
    assert (a.played, a.match_wins, a.match_points, a.game_wins, a.game_losses) == (1, 1, 2, 2, 1)
    assert (a.points_for, a.points_against, a.points_difference) == (1320, 1105, 215)
    assert (a.baits_suffered, a.baits_forced) == (1, 3)
    assert (b.match_losses, b.match_draws, b.match_points, b.points_for) == (1, 1, 1, 1705)
    assert (b.baits_suffered, b.baits_forced) == (3, 1)
    assert (c.played, c.byes, c.match_wins, c.match_points) == (1, 1, 1, 3)
    assert b.opponents == ("a", "c")
    assert b.buchholz == a.match_points + c.match_points


@pytest.mark.parametrize(
    ("tiebreaker", "expected"),
    [
        ("game_wins", ["y", "x"]),
        ("points_for", ["x", "y"]),
        ("points_against", ["y", "x"]),
        ("points_difference", ["x", "y"]),
        ("baits_forced", ["y", "x"]),
        ("baits_suffered", ["x", "y"]),
        ("seed", ["x", "y"]),
    ],
)
def test_each_tiebreaker_orders_the_right_way(tiebreaker: TieBreaker, expected: list[str]) -> None:
    # x and y both beat z once; their numbers differ in every column.
    results = [
        MatchResult("x", "z", "x", 2, 0, 900, 300, 0, 2),
        MatchResult("y", "z", "y", 3, 1, 700, 200, 1, 4),
    ]
    assert order(["x", "y", "z"], results, "match_wins", tiebreaker)[:2] == expected


def test_head_to_head_is_reapplied_among_exactly_the_still_tied() -> None:
    # a, b, c, d all win twice. In their mini-table a and b take 4, c and d take 2; among
    # a and b alone b beat a, among c and d alone c beat d.
    results = [
        win("b", "a"),
        win("a", "c"),
        win("a", "d"),
        win("b", "c"),
        win("d", "b"),
        win("c", "d"),
        win("c", "e"),
        win("d", "e"),
    ]
    seeds = ["d", "c", "a", "b", "e"]  # seed order alone would say d, c, a, b
    assert order(seeds, results, "match_wins", "head_to_head", "seed") == [
        "b",
        "a",
        "c",
        "d",
        "e",
    ]
    assert order(seeds, results, "match_wins", "seed") == ["d", "c", "a", "b", "e"]


def test_head_to_head_that_does_not_split_falls_through() -> None:
    results = [
        win("a", "b", home_games=2),
        win("b", "c", home_games=3),
        win("c", "a", home_games=1),
    ]
    assert order(["a", "b", "c"], results, "head_to_head", "game_wins") == ["b", "a", "c"]


def test_buchholz_and_median_buchholz() -> None:
    # p beats strong s, q beats weak w; both 1 win. s beat w and t, so s is the strong one.
    results = [win("p", "s"), win("q", "w"), win("s", "w"), win("s", "t"), win("t", "w")]
    rows = {r.entry: r for r in standings(["p", "q", "s", "t", "w"], results)}
    assert (rows["p"].buchholz, rows["q"].buchholz) == (4, 0)
    assert order(["q", "p", "s", "t", "w"], results, "match_wins", "buchholz")[:3] == [
        "s",
        "p",
        "t",
    ]
    # w met q (2), s (4), t (2): the median variant drops the best and the worst.
    assert (rows["w"].buchholz, rows["w"].median_buchholz) == (8, 2)


def test_entries_tied_on_every_tiebreaker_share_a_place() -> None:
    rows = standings(["a", "b", "c"], [win("a", "b")], tiebreakers=["match_wins"])
    assert [(r.entry, r.place) for r in rows] == [("a", 1), ("b", 2), ("c", 2)]


@st.composite
def events(draw: st.DrawFn) -> tuple[list[str], list[MatchResult]]:
    n = draw(st.integers(min_value=2, max_value=8))
    entries = [f"e{i}" for i in range(n)]
    small = st.integers(min_value=0, max_value=3)
    results = []
    for _ in range(draw(st.integers(min_value=0, max_value=14))):
        home, away = draw(st.lists(st.sampled_from(entries), min_size=2, max_size=2, unique=True))
        bye = draw(st.integers(0, 9)) == 0
        if bye:
            results.append(MatchResult(home, None, home))
            continue
        winner = draw(st.sampled_from([home, away, None]))
        results.append(MatchResult(home, away, winner, *(draw(small) for _ in range(6))))
    return entries, results


@settings(deadline=None, max_examples=100)
@given(
    events(),
    st.lists(st.sampled_from(TIEBREAKERS), unique=True, max_size=6),
    st.randoms(use_true_random=False),
)
def test_the_table_is_a_pure_function_of_the_results(
    event: tuple[list[str], list[MatchResult]], tiebreakers: list[TieBreaker], rng: random.Random
) -> None:
    entries, results = event
    table = standings(entries, results, tiebreakers=tiebreakers)
    shuffled = results[:]
    rng.shuffle(shuffled)
    assert standings(entries, shuffled, tiebreakers=tiebreakers) == table
    assert sorted(r.entry for r in table) == sorted(entries)
    places = [r.place for r in table]
    assert places == sorted(places)
    assert places[0] == 1
    if "seed" in tiebreakers:
        assert len(set(places)) == len(places)
    if tiebreakers and tiebreakers[0] == "match_wins":
        points = [r.match_points for r in table]
        assert points == sorted(points, reverse=True)


@pytest.mark.parametrize(
    ("results", "field"),
    [
        ([MatchResult("a", "x", "a")], "results.away"),
        ([MatchResult("x", "a", "a")], "results.home"),
        ([MatchResult("a", "a", "a")], "results.away"),
        ([MatchResult("a", "b", "c")], "results.winner"),
        ([MatchResult("a", None, None)], "results.winner"),
        ([MatchResult("a", "b", "a", home_points=-5)], "results.home_points"),
    ],
)
def test_bad_results_name_the_field(results: list[MatchResult], field: str) -> None:
    with pytest.raises(AlgorithmError) as caught:
        standings(["a", "b", "c"], results)
    assert caught.value.field == field


def test_unknown_or_repeated_tiebreakers_are_refused() -> None:
    with pytest.raises(AlgorithmError) as caught:
        standings(["a", "b"], [], tiebreakers=["luck"])  # type: ignore[list-item]
    assert caught.value.code == "unknown"
    with pytest.raises(AlgorithmError) as caught:
        standings(["a", "b"], [], tiebreakers=["seed", "seed"])
    assert caught.value.code == "duplicate"
    assert DEFAULT_TIEBREAKERS[-1] == "seed"
