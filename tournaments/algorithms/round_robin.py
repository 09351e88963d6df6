"""Round robin schedules by the circle method, single or double, optionally in pools.

With ``n`` entries (``n`` even) there are ``n - 1`` rounds and every pair meets exactly once
per leg. With an odd count a phantom entry is added: whoever draws it has the bye, so every
entry sits out exactly once per leg and there are ``n`` rounds. A double round robin plays
the same rounds again with home and away swapped.

>>> pools = round_robin_pools([1, 2, 3, 4, 5, 6, 7, 8], pool_count=2)
>>> [pool.entries for pool in pools]
[(1, 4, 5, 8), (2, 3, 6, 7)]
>>> sum(len(pool.pairings()) for pool in pools), max(len(pool.rounds) for pool in pools)
(12, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.algorithms.common import AlgorithmError, EntryId, Pairing, require_unique
from tournaments.algorithms.seeding import snake_pools


@dataclass(frozen=True, slots=True)
class RoundRobinRound:
    """One round of a round robin: ``number`` counts from 1 across both legs."""

    number: int
    leg: int
    pairings: tuple[Pairing, ...]
    bye: EntryId | None


@dataclass(frozen=True, slots=True)
class Pool:
    """A pool (group) of a round-robin stage with its own schedule."""

    number: int
    entries: tuple[EntryId, ...]
    rounds: tuple[RoundRobinRound, ...]

    def pairings(self) -> tuple[Pairing, ...]:
        """Every pairing of the pool, round by round."""
        return tuple(pairing for rnd in self.rounds for pairing in rnd.pairings)


def round_robin(entries: Sequence[EntryId], *, legs: int = 1) -> tuple[RoundRobinRound, ...]:
    """The full schedule for one group of entries (given in seed order).

    >>> rounds = round_robin(["a", "b", "c"])
    >>> [(r.number, [p.entries() for p in r.pairings], r.bye) for r in rounds]
    [(1, [('b', 'c')], 'a'), (2, [('c', 'a')], 'b'), (3, [('a', 'b')], 'c')]
    """
    require_unique(entries, field="entries")
    if len(entries) < 2:
        raise AlgorithmError(
            "A round robin needs at least two entries.", field="entries", code="too_few"
        )
    if legs not in (1, 2):
        raise AlgorithmError(
            "A round robin is single (1 leg) or double (2 legs).", field="legs", code="invalid"
        )
    slots: list[EntryId | None] = list(entries)
    if len(slots) % 2:
        slots.append(None)
    size = len(slots)
    fixed, rotating = slots[0], slots[1:]
    first_leg: list[RoundRobinRound] = []
    for index in range(size - 1):
        table = [fixed, *rotating]
        pairings: list[Pairing] = []
        bye: EntryId | None = None
        for position in range(size // 2):
            home, away = table[position], table[size - 1 - position]
            if position == 0 and index % 2 == 1:
                home, away = away, home
            if home is None or away is None:
                bye = away if home is None else home
                continue
            pairings.append(Pairing(home, away))
        first_leg.append(RoundRobinRound(index + 1, 1, tuple(pairings), bye))
        rotating = rotating[-1:] + rotating[:-1]
    if legs == 1:
        return tuple(first_leg)
    second_leg = [
        RoundRobinRound(
            rnd.number + len(first_leg),
            2,
            tuple(Pairing(p.away, p.home) for p in rnd.pairings),
            rnd.bye,
        )
        for rnd in first_leg
    ]
    return (*first_leg, *second_leg)


def round_robin_pools(
    entries: Sequence[EntryId], *, pool_count: int, legs: int = 1
) -> tuple[Pool, ...]:
    """Snake-seed ``entries`` (in seed order) into pools and schedule each pool."""
    return tuple(
        Pool(number, members, round_robin(members, legs=legs))
        for number, members in enumerate(snake_pools(entries, pool_count), start=1)
    )
