"""Swiss pairing by the Dutch system, as chess federations and Challonge pair a Swiss round.

The entries come in standings order (best first) as :class:`~tournaments.algorithms.swiss.
SwissTeam` values. Entries level on score form a score group; the groups are paired from the
top down:

1. With an odd number of entries the bye goes first, to the lowest-ranked entry among those
   with the fewest byes (nobody has a second bye before everyone has had one).
2. Entries floated down from the group above (one left over, or one that could meet nobody
   new there) meet the highest-ranked entries of the group they float into that they have
   not met, best floater first.
3. The rest of the group is split into a top half S1 and a bottom half S2, and S1's first
   meets S2's first, the second the second, and so on: 1 v 5, 2 v 6, 3 v 7, 4 v 8 for eight.
   A pair that met before is avoided by the first rearrangement of S2 in order (S2 is
   "transposed"): S1's first takes the first S2 entry it has not met, then the second, and
   so on, backtracking when needed. An odd group floats the lowest entry left over.
4. If a group cannot be paired at all without a rematch, its lowest entries float down one
   by one until it can.

No pairing repeats an earlier meeting. When the group-by-group procedure is stuck (a group
that cannot pair however many entries float down, or last entries left with only rematches:
a corner of a small field late in the event), that group and every group below it are paired
together instead, as the handbook collapses the last brackets: the groups above keep their
Dutch pairings, and the entries they float down with the collapsed groups are paired by
:func:`~tournaments.algorithms.swiss.swiss_pair`'s exact matching (no rematch, fewest
floats, then neighbours). The groups taken in start at the stuck one and about double until
they pair, so a round costs what its stuck corner needs, not a matching of the whole field.
Only when even the whole field cannot pair without a rematch is the round paired by
:func:`~tournaments.algorithms.swiss.swiss_pair` alone, which may then move the bye and
keeps the fewest rematches.

>>> from tournaments.algorithms.swiss import SwissTeam
>>> teams = [SwissTeam(n, 0) for n in range(1, 9)]
>>> [p.entries() for p in dutch_pair(teams).pairings]
[(1, 5), (2, 6), (3, 7), (4, 8)]
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.algorithms.common import AlgorithmError, Pairing
from tournaments.algorithms.swiss import (
    SwissRound,
    SwissTeam,
    swiss_check,
    swiss_pair,
    swiss_pair_rematch_free,
)

#: Steps of the search for a rearrangement of S2 in one group before floating an entry down.
SEARCH_BUDGET = 20_000


#: Entries of one group floated down, one by one, before the group counts as stuck.
MAX_DROPPED = 6


class _Stuck(Exception):
    """The group-by-group procedure left entries that can only meet again."""


def dutch_pair(teams: Sequence[SwissTeam]) -> SwissRound:
    """Pair one Swiss round by the Dutch system. ``teams`` must be in standings order."""
    swiss_check(teams)
    n = len(teams)
    bye: int | None = None
    if n % 2:
        fewest = min(t.byes for t in teams)
        bye = max(i for i, t in enumerate(teams) if t.byes == fewest)
    order = [i for i in range(n) if i != bye]
    paired = _pair_groups(teams, _score_groups(teams, order))
    if paired is None:
        return swiss_pair(teams)
    boards = paired
    boards.sort()
    group = _groups(teams)
    return SwissRound(
        pairings=tuple(Pairing(teams[i].entry, teams[j].entry) for i, j in boards),
        bye=None if bye is None else teams[bye].entry,
        rematches=0,
        floats=sum(group[i] != group[j] for i, j in boards),
    )


def _groups(teams: Sequence[SwissTeam]) -> list[int]:
    scores = sorted({t.score for t in teams}, reverse=True)
    rank = {score: index for index, score in enumerate(scores)}
    return [rank[t.score] for t in teams]


def _met(teams: Sequence[SwissTeam], i: int, j: int) -> bool:
    a, b = teams[i], teams[j]
    return b.entry in a.opponents or a.entry in b.opponents


def _score_groups(teams: Sequence[SwissTeam], order: list[int]) -> list[list[int]]:
    """``order`` (indices into ``teams``) cut into score groups, best first."""
    group = _groups(teams)
    groups: list[list[int]] = []
    for index in order:
        if groups and group[groups[-1][0]] == group[index]:
            groups[-1].append(index)
        else:
            groups.append([index])
    return groups


Board = tuple[int, int]


def _pair_groups(teams: Sequence[SwissTeam], groups: list[list[int]]) -> list[Board] | None:
    """Pair the score groups from the top down; where that is stuck, the lowest groups
    collapsed (:func:`_pair_collapsed`). None if even the whole field needs a rematch."""
    boards: list[Board] = []
    floaters: list[int] = []
    # before each group reached: how many pairs the groups above made, who floated into it
    before: list[tuple[int, list[int]]] = []
    for number, residents in enumerate(groups):
        before.append((len(boards), floaters))
        try:
            last = number == len(groups) - 1
            pairs, floaters = _pair_bracket(teams, floaters, residents, last=last)
        except _Stuck:
            return _pair_collapsed(teams, groups, boards, before)
        boards += pairs
    return boards


def _pair_collapsed(
    teams: Sequence[SwissTeam],
    groups: list[list[int]],
    boards: list[Board],
    before: list[tuple[int, list[int]]],
) -> list[Board] | None:
    """Pair the round from the group the procedure is stuck in down, as one collapsed
    group with the entries floated into it, exactly (no rematch, fewest floats, then
    neighbours); while that needs a rematch, groups above are taken in too, about doubling
    the entries each time, and lose their Dutch pairs. The pairs of the groups above the
    collapsed ones stand as the procedure made them."""
    cut = len(before) - 1  # the group that is stuck
    while True:
        made, floaters = before[cut]
        members = sorted([*floaters, *(i for group in groups[cut:] for i in group)])
        found = swiss_pair_rematch_free([teams[i] for i in members])
        if found is not None:
            return boards[:made] + [(members[a], members[b]) for a, b in found]
        if cut == 0:
            return None
        size, wanted = len(members), 2 * len(members)
        while cut > 0 and size < wanted:
            cut -= 1
            size += len(groups[cut])


def _pair_bracket(
    teams: Sequence[SwissTeam], floaters: list[int], residents: list[int], *, last: bool
) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair one score group with the entries floated into it; return the pairs and the
    entries floated on down."""
    pairs: list[tuple[int, int]] = []
    left = list(residents)
    still_floating: list[int] = []
    for floater in floaters:  # best floater first, against the highest resident not met
        partner = next((r for r in left if not _met(teams, floater, r)), None)
        if partner is None:
            still_floating.append(floater)
            continue
        left.remove(partner)
        pairs.append((min(floater, partner), max(floater, partner)))
    if last and still_floating:
        raise _Stuck
    # float the lowest entries down one by one until the rest pair without a rematch
    for dropped in range(min(len(left), MAX_DROPPED) + 1):
        kept = left[: len(left) - dropped] if dropped else left
        if len(kept) % 2:
            continue
        found = _homogeneous(teams, kept)
        if found is not None:
            floated = [*still_floating, *left[len(kept) :]]
            if last and floated:
                raise _Stuck
            return pairs + found, floated
    raise _Stuck


def _homogeneous(teams: Sequence[SwissTeam], members: list[int]) -> list[tuple[int, int]] | None:
    """Top half against bottom half, S2 rearranged in order where two have met; None if no
    rearrangement pairs everyone without a rematch (within the search budget).

    A depth-first search that gives S1's first the first S2 entry it has not met, then the
    second, and so on, backtracking when one is left with nobody: the first rearrangement in
    order that works. The S2 entries not yet taken are kept in a linked list, so a round with
    no rematch to avoid costs one step per pair.
    """
    half = len(members) // 2
    s1, s2 = members[:half], members[half:]
    size = len(s2)
    head = size  # the list's sentinel
    after = [*range(1, size + 1), 0]
    before = [head, *range(size)]
    cursor = [head] * len(s1)
    steps = 0
    level = 0
    while 0 <= level < len(s1):
        position = cursor[level]
        if position != head:  # take back this level's last choice, then try the next one
            after[before[position]] = position
            before[after[position]] = position
        position = after[position]
        while position != head and _met(teams, s1[level], s2[position]):
            steps += 1
            position = after[position]
        steps += 1
        if steps > SEARCH_BUDGET:
            return None
        cursor[level] = position
        if position == head:
            level -= 1
            continue
        after[before[position]] = after[position]
        before[after[position]] = before[position]
        level += 1
    if level < 0:
        return None
    return [(min(a, s2[p]), max(a, s2[p])) for a, p in zip(s1, cursor, strict=True)]


__all__ = ["AlgorithmError", "dutch_pair"]
