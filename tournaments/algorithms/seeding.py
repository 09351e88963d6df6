"""Seeding helpers: standard bracket order and snake seeding into pools.

Seeds are 1-based (seed 1 is the strongest entry). Entry lists are always given in seed
order, best first.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.algorithms.common import AlgorithmError, EntryId, require_unique


def bracket_size(entry_count: int) -> int:
    """The smallest power of two that holds ``entry_count`` entries.

    >>> [bracket_size(n) for n in (2, 3, 8, 9, 256)]
    [2, 4, 8, 16, 256]
    """
    if entry_count < 2:
        raise AlgorithmError(
            "A bracket needs at least two entries.", field="entries", code="too_few"
        )
    size = 1
    while size < entry_count:
        size *= 2
    return size


def bracket_order(size: int) -> tuple[int, ...]:
    """Seeds in the order of the first-round slots of a standard bracket of ``size``.

    Consecutive pairs are the first-round matches; seeds 1 and 2 can only meet in the final,
    and each first-round pairing adds up to ``size + 1``.

    >>> bracket_order(8)
    (1, 8, 4, 5, 2, 7, 3, 6)
    >>> bracket_order(16)[:4]
    (1, 16, 8, 9)
    """
    if size < 2 or size & (size - 1):
        raise AlgorithmError(
            f"Bracket size must be a power of two of at least 2, not {size}.",
            field="size",
            code="invalid",
        )
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return tuple(order)


def snake_pools(entries: Sequence[EntryId], pool_count: int) -> tuple[tuple[EntryId, ...], ...]:
    """Deal ``entries`` (in seed order) into ``pool_count`` pools, snaking back and forth.

    >>> snake_pools([1, 2, 3, 4, 5, 6, 7, 8], 2)
    ((1, 4, 5, 8), (2, 3, 6, 7))
    >>> snake_pools(["a", "b", "c", "d", "e", "f", "g"], 3)
    (('a', 'f', 'g'), ('b', 'e'), ('c', 'd'))
    """
    require_unique(entries, field="entries")
    if pool_count < 1:
        raise AlgorithmError("There must be at least one pool.", field="pool_count", code="too_few")
    if len(entries) < 2 * pool_count:
        raise AlgorithmError(
            f"{len(entries)} entries cannot fill {pool_count} pools of at least two.",
            field="pool_count",
            code="too_many",
        )
    pools: list[list[EntryId]] = [[] for _ in range(pool_count)]
    for index, entry in enumerate(entries):
        row, column = divmod(index, pool_count)
        pool = column if row % 2 == 0 else pool_count - 1 - column
        pools[pool].append(entry)
    return tuple(tuple(pool) for pool in pools)


def pool_qualifiers(tables: Sequence[Sequence[EntryId]], per_pool: int) -> tuple[EntryId, ...]:
    """Seed order for a knockout from the final order of each pool (pool 1 first).

    All pool winners come first (in pool order), then all runners-up, and so on. Each later
    group of places is rotated, greedily, to keep entries of the same pool from meeting in
    the first round of the standard bracket (none do for 2, 4, 6 or 8 pools of up to four
    qualifiers each, nor for 3 pools of up to three).

    >>> pool_qualifiers([["a1", "a2", "a3"], ["b1", "b2", "b3"]], 2)
    ('a1', 'b1', 'a2', 'b2')
    >>> pool_qualifiers([["a1", "a2"], ["b1", "b2"], ["c1", "c2"]], 2)
    ('a1', 'b1', 'c1', 'b2', 'c2', 'a2')
    """
    if per_pool < 1:
        raise AlgorithmError(
            "At least one entry per pool must go through.", field="per_pool", code="too_few"
        )
    for number, table in enumerate(tables, start=1):
        if len(table) < per_pool:
            raise AlgorithmError(
                f"Pool {number} has only {len(table)} entries, fewer than {per_pool}.",
                field="per_pool",
                code="too_many",
            )
    pools = len(tables)
    total = pools * per_pool
    size = bracket_size(total)
    order = bracket_order(size)
    opponent = {order[i]: order[i ^ 1] for i in range(size)}

    def clashes(pool_of_seed: list[int]) -> int:
        count = 0
        for seed, pool in enumerate(pool_of_seed, start=1):
            other = opponent[seed]
            if other < seed and other <= len(pool_of_seed) and pool_of_seed[other - 1] == pool:
                count += 1
        return count

    pool_of_seed: list[int] = list(range(pools))
    for _place in range(1, per_pool):
        rotations = [[(start + k) % pools for k in range(pools)] for start in range(pools)]
        best = min(rotations, key=lambda group: clashes(pool_of_seed + group))
        pool_of_seed.extend(best)
    qualifiers = tuple(tables[pool][index // pools] for index, pool in enumerate(pool_of_seed))
    require_unique(qualifiers, field="tables")
    return qualifiers
