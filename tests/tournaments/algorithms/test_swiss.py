"""Swiss pairing: rematches only as a last resort, fair byes, score groups, whole events."""

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.algorithms.common import AlgorithmError, EntryId
from tournaments.algorithms.standings import SWISS_TIEBREAKERS, MatchResult, standings
from tournaments.algorithms.swiss import (
    SwissRound,
    SwissTeam,
    swiss_pair,
    swiss_round_count,
    swiss_teams,
)


def pairings_of(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect pairing of an even-sized list (brute force for small fields)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for index, partner in enumerate(rest):
        for others in pairings_of(rest[:index] + rest[index + 1 :]):
            yield [(first, partner), *others]


def fewest_rematches(teams: list[SwissTeam]) -> tuple[int, set[EntryId]]:
    """Brute force: the fewest rematches any fair pairing has, and the byes that achieve it."""
    n = len(teams)
    fewest_byes = min(t.byes for t in teams)
    byes: list[int | None] = (
        [i for i in range(n) if teams[i].byes == fewest_byes] if n % 2 else [None]
    )
    best, best_byes = n, set[EntryId]()
    for bye in byes:
        rest = [i for i in range(n) if i != bye]
        for pairing in pairings_of(rest):
            count = sum(teams[j].entry in teams[i].opponents for i, j in pairing)
            if count < best:
                best, best_byes = count, set()
            if count == best and bye is not None:
                best_byes.add(teams[bye].entry)
    return best, best_byes


def check_round(teams: list[SwissTeam], result: SwissRound) -> None:
    seen = [e for p in result.pairings for e in p.entries()]
    if result.bye is not None:
        seen.append(result.bye)
    assert Counter(seen) == Counter(t.entry for t in teams)  # everyone exactly once
    assert (result.bye is not None) == (len(teams) % 2 == 1)
    if result.bye is not None:
        fewest = min(t.byes for t in teams)
        assert next(t for t in teams if t.entry == result.bye).byes == fewest
    by_entry = {t.entry: t for t in teams}
    actual = sum(p.away in by_entry[p.home].opponents for p in result.pairings)
    assert actual == result.rematches
    rank = {t.entry: i for i, t in enumerate(teams)}
    assert all(rank[p.home] < rank[p.away] for p in result.pairings)


@st.composite
def histories(draw: st.DrawFn, max_size: int = 9) -> list[SwissTeam]:
    n = draw(st.integers(min_value=2, max_value=max_size))
    entries = list(range(1, n + 1))
    pairs = [(a, b) for a in entries for b in entries if a < b]
    met = draw(st.sets(st.sampled_from(pairs), max_size=len(pairs)))
    opponents: dict[int, set[int]] = {e: set() for e in entries}
    for a, b in met:
        opponents[a].add(b)
        opponents[b].add(a)
    scores = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    byes = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    order = sorted(entries, key=lambda e: -scores[e - 1])
    return [SwissTeam(e, scores[e - 1], frozenset(opponents[e]), byes[e - 1]) for e in order]


@settings(deadline=None, max_examples=150)
@given(histories(), st.sampled_from([1, 2, 6]))
def test_never_a_rematch_while_a_rematch_free_pairing_exists(
    teams: list[SwissTeam], window: int
) -> None:
    result = swiss_pair(teams, window=window)
    check_round(teams, result)
    best, best_byes = fewest_rematches(teams)
    assert result.rematches == best
    if result.bye is not None:
        assert result.bye in best_byes
        # The lowest-ranked of those byes that keep the rematches down gets it.
        assert result.bye == [t.entry for t in teams if t.entry in best_byes][-1]


@settings(deadline=None, max_examples=100)
@given(histories(max_size=11))
def test_the_blocked_fast_path_keeps_the_same_guarantees(teams: list[SwissTeam]) -> None:
    result = swiss_pair(teams, window=1, block_size=2)
    check_round(teams, result)
    best, best_byes = fewest_rematches(teams)
    assert result.rematches == best
    if result.bye is not None:
        assert result.bye == [t.entry for t in teams if t.entry in best_byes][-1]


def test_first_round_pairs_neighbours_in_the_standings() -> None:
    teams = [SwissTeam(f"t{i}", 0) for i in range(1, 9)]
    result = swiss_pair(teams)
    assert [p.entries() for p in result.pairings] == [
        ("t1", "t2"),
        ("t3", "t4"),
        ("t5", "t6"),
        ("t7", "t8"),
    ]
    assert (result.bye, result.rematches, result.floats) == (None, 0, 0)


def test_an_odd_score_group_floats_its_lowest_entry_down() -> None:
    scores = [2, 2, 2, 1, 1, 1]
    teams = [SwissTeam(i, s) for i, s in enumerate(scores)]
    result = swiss_pair(teams)
    assert [p.entries() for p in result.pairings] == [(0, 1), (2, 3), (4, 5)]
    assert result.floats == 1


def test_bye_goes_to_the_lowest_ranked_entry_without_one() -> None:
    teams = [SwissTeam(i, 5 - i, byes=1 if i >= 3 else 0) for i in range(5)]
    assert swiss_pair(teams).bye == 2


def test_a_rematch_is_paired_only_when_nothing_else_is_possible() -> None:
    teams = [SwissTeam("a", 1, frozenset({"b"})), SwissTeam("b", 0, frozenset({"a"}))]
    result = swiss_pair(teams)
    assert result.rematches == 1
    assert [p.entries() for p in result.pairings] == [("a", "b")]


def play_swiss(n: int, seed: int, rounds: int | None = None) -> list[SwissRound]:
    """A whole Swiss event: standings, pairing, simulated results (the better seed favoured)."""
    rng = random.Random(seed)
    entries = list(range(1, n + 1))
    results: list[MatchResult] = []
    played: list[SwissRound] = []
    for _ in range(rounds or swiss_round_count(n)):
        table = standings(entries, results, tiebreakers=SWISS_TIEBREAKERS)
        teams = list(swiss_teams(table))
        result = swiss_pair(teams)
        check_round(teams, result)
        played.append(result)
        for p in result.pairings:
            edge = (int(p.away) - int(p.home)) / (4 * n)
            winner = p.home if rng.random() < 0.5 + edge else p.away
            results.append(MatchResult(p.home, p.away, winner, home_games=2 * (winner == p.home)))
        if result.bye is not None:
            results.append(MatchResult(result.bye, None, result.bye))
    return played


@pytest.mark.parametrize(("n", "seed"), [(7, 1), (21, 2), (32, 3), (65, 4)])
def test_a_whole_swiss_event_has_no_rematch_and_fair_byes(n: int, seed: int) -> None:
    played = play_swiss(n, seed)
    assert len(played) == swiss_round_count(n)
    met = Counter(frozenset(p.entries()) for rnd in played for p in rnd.pairings)
    assert max(met.values()) == 1
    byes = [rnd.bye for rnd in played if rnd.bye is not None]
    assert len(byes) == len(set(byes))


def test_more_rounds_than_entries_can_bear_hand_out_byes_fairly() -> None:
    played = play_swiss(5, seed=9, rounds=12)
    byes = [rnd.bye for rnd in played]
    # Nobody has a second bye before all five have had one.
    assert Counter(byes[:5]) == Counter(range(1, 6))
    assert Counter(byes[5:10]) == Counter(range(1, 6))
    assert all(rnd.rematches == 0 for rnd in played[:5])  # four rounds fit without one


@settings(deadline=None, max_examples=25)
@given(st.integers(min_value=1, max_value=6), st.integers(min_value=0, max_value=10**6))
def test_no_second_bye_before_everyone_has_had_one(half: int, seed: int) -> None:
    n = 2 * half + 1
    byes = [rnd.bye for rnd in play_swiss(n, seed, rounds=2 * n)]
    assert Counter(byes[:n]) == Counter(range(1, n + 1))
    assert Counter(byes[n:]) == Counter(range(1, n + 1))


@pytest.mark.parametrize("n", [300, 511])
def test_big_fields_are_paired_completely_without_rematches(n: int) -> None:
    played = play_swiss(n, seed=n, rounds=3)
    assert all(rnd.rematches == 0 for rnd in played)


def test_round_count_and_bad_input() -> None:
    assert [swiss_round_count(n) for n in (2, 16, 17, 512)] == [1, 4, 5, 9]
    with pytest.raises(AlgorithmError) as caught:
        swiss_pair([SwissTeam("a", 0)])
    assert caught.value.field == "teams"
    with pytest.raises(AlgorithmError) as caught:
        swiss_pair([SwissTeam("a", 0), SwissTeam("a", 0)])
    assert caught.value.code == "duplicate"
    with pytest.raises(AlgorithmError) as caught:
        swiss_pair([SwissTeam("a", 0, frozenset({"a"})), SwissTeam("b", 0)])
    assert caught.value.field == "teams.opponents"
    with pytest.raises(AlgorithmError) as caught:
        swiss_pair([SwissTeam("a", 0), SwissTeam("b", 0)], window=0)
    assert caught.value.field == "window"
