"""Round robin schedules, snake seeding into pools, and the standard bracket order."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.algorithms.common import AlgorithmError
from tournaments.algorithms.round_robin import round_robin, round_robin_pools
from tournaments.algorithms.seeding import (
    bracket_order,
    bracket_size,
    pool_qualifiers,
    snake_pools,
)


def test_eight_teams_in_two_pools_play_twelve_matches_in_three_rounds() -> None:
    pools = round_robin_pools(list(range(1, 9)), pool_count=2)
    assert [pool.entries for pool in pools] == [(1, 4, 5, 8), (2, 3, 6, 7)]
    assert sum(len(pool.pairings()) for pool in pools) == 12
    assert {len(pool.rounds) for pool in pools} == {3}
    assert all(rnd.bye is None for pool in pools for rnd in pool.rounds)


def test_double_round_robin_swaps_home_and_away() -> None:
    rounds = round_robin(["a", "b", "c", "d"], legs=2)
    assert len(rounds) == 6
    assert [rnd.leg for rnd in rounds] == [1, 1, 1, 2, 2, 2]
    first = Counter(p.entries() for rnd in rounds[:3] for p in rnd.pairings)
    second = Counter((p.away, p.home) for rnd in rounds[3:] for p in rnd.pairings)
    assert first == second


@given(st.integers(min_value=2, max_value=24), st.sampled_from([1, 2]))
def test_every_pair_meets_once_per_leg_and_odd_counts_give_one_bye(n: int, legs: int) -> None:
    entries = list(range(100, 100 + n))
    rounds = round_robin(entries, legs=legs)
    per_leg = n - 1 if n % 2 == 0 else n
    assert len(rounds) == per_leg * legs
    assert [rnd.number for rnd in rounds] == list(range(1, len(rounds) + 1))
    for rnd in rounds:
        seen = [e for p in rnd.pairings for e in p.entries()]
        if rnd.bye is not None:
            seen.append(rnd.bye)
        assert sorted(seen) == entries  # everyone plays or sits out, exactly once a round
    for leg in range(1, legs + 1):
        leg_rounds = [rnd for rnd in rounds if rnd.leg == leg]
        meetings = Counter(frozenset(p.entries()) for rnd in leg_rounds for p in rnd.pairings)
        assert meetings == Counter(frozenset(pair) for pair in combinations(entries, 2))
        byes = Counter(rnd.bye for rnd in leg_rounds if rnd.bye is not None)
        assert byes == (Counter(entries) if n % 2 else Counter())


def test_home_and_away_are_roughly_balanced() -> None:
    rounds = round_robin(list(range(10)))
    home = Counter(p.home for rnd in rounds for p in rnd.pairings)
    assert max(home.values()) - min(home.values()) <= 2


def test_pools_of_uneven_size_schedule_their_own_byes() -> None:
    pools = round_robin_pools(list(range(1, 8)), pool_count=2)
    assert [pool.entries for pool in pools] == [(1, 4, 5), (2, 3, 6, 7)]
    assert [len(pool.rounds) for pool in pools] == [3, 3]
    assert sorted(rnd.bye for rnd in pools[0].rounds) == [1, 4, 5]  # type: ignore[type-var]


@pytest.mark.parametrize(
    ("entries", "legs", "field"),
    [([1], 1, "entries"), ([1, 1, 2], 1, "entries"), ([1, 2], 3, "legs")],
)
def test_round_robin_rejects_bad_input(entries: list[int], legs: int, field: str) -> None:
    with pytest.raises(AlgorithmError) as caught:
        round_robin(entries, legs=legs)
    assert caught.value.field == field


def test_snake_pools_refuse_pools_smaller_than_two() -> None:
    with pytest.raises(AlgorithmError) as caught:
        snake_pools([1, 2, 3], 2)
    assert caught.value.field == "pool_count"


@given(st.integers(min_value=1, max_value=60), st.integers(min_value=1, max_value=8))
def test_snake_pools_keep_every_entry_and_balance_sizes(n: int, pools: int) -> None:
    entries = list(range(n))
    if n < 2 * pools:
        return
    dealt = snake_pools(entries, pools)
    assert sorted(e for pool in dealt for e in pool) == entries
    assert max(map(len, dealt)) - min(map(len, dealt)) <= 1
    assert [pool[0] for pool in dealt] == entries[:pools]  # the top seeds head the pools


def test_standard_bracket_order_for_sixteen() -> None:
    assert bracket_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)


@given(st.integers(min_value=1, max_value=9))
def test_bracket_order_pairs_add_up_and_top_seeds_are_apart(power: int) -> None:
    size = 2**power
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
    half = size // 2
    assert (1 in order[:half]) != (2 in order[:half]) or size == 2


@pytest.mark.parametrize("size", [0, 1, 3, 12])
def test_bracket_order_needs_a_power_of_two(size: int) -> None:
    with pytest.raises(AlgorithmError):
        bracket_order(size)


def test_bracket_size() -> None:
    assert [bracket_size(n) for n in (2, 5, 16, 17)] == [2, 8, 16, 32]
    with pytest.raises(AlgorithmError):
        bracket_size(1)


@pytest.mark.parametrize(
    ("pools", "per_pool"),
    [(p, k) for p in (2, 4, 6, 8) for k in (1, 2, 3, 4)] + [(3, 1), (3, 2), (3, 3)],
)
def test_pool_qualifiers_do_not_meet_their_own_pool_in_the_first_round(
    pools: int, per_pool: int
) -> None:
    tables = [[f"{pool}:{place}" for place in range(1, 6)] for pool in range(pools)]
    seeded = [str(entry).split(":") for entry in pool_qualifiers(tables, per_pool)]
    assert len(seeded) == pools * per_pool
    assert seeded[:pools] == [[str(pool), "1"] for pool in range(pools)]  # winners first
    places = [int(place) for _, place in seeded]
    assert places == sorted(places)
    order = bracket_order(bracket_size(len(seeded)))
    for top, bottom in zip(order[::2], order[1::2], strict=True):
        if bottom <= len(seeded):
            assert seeded[top - 1][0] != seeded[bottom - 1][0]


def test_pool_qualifiers_reject_too_many_per_pool() -> None:
    with pytest.raises(AlgorithmError) as caught:
        pool_qualifiers([["a1", "a2"], ["b1"]], 2)
    assert caught.value.field == "per_pool"
    with pytest.raises(AlgorithmError):
        pool_qualifiers([["a1"]], 0)
