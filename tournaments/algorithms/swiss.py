"""Swiss pairing as a maximum-weight matching (networkx).

The caller passes the entries in current standings order (best first) as
:class:`SwissTeam` values: score so far, opponents already met, byes already had.
:func:`swiss_pair` then pairs them so that, in strict order of importance:

1. no two entries meet again while any rematch-free pairing of the whole field exists
   (a rematch is a last resort, and then as few as possible);
2. with an odd count, the bye goes to the lowest-ranked entry among those with the fewest
   byes, so nobody has a second bye before everyone has had one;
3. entries meet inside their own score group, floating as few groups as possible;
4. entries meet neighbours in the standings (1 v 2, 3 v 4, ... inside a group).

How:

- The bye is settled first: the candidates (fewest byes) are tried from the lowest-ranked
  up, and the first one that leaves a rematch-free pairing of everyone else gets it.
- The others are paired by a maximum-weight, maximum-cardinality matching in which each
  pair weighs ``top - cost``; the cost of criterion 3 outweighs any total of criterion 4.
  Rematch pairs are left out of the graph.
- For speed the graph first holds only pairs at most ``window`` places apart; the window
  doubles whenever it holds no complete pairing, up to the whole field.
- Fields of at least ``2 * block_size`` entries are first cut into runs of neighbouring
  ranks (at score-group boundaries where possible) that are matched one by one; a run with
  no rematch-free pairing is merged into the next, and if that still fails the whole field
  is paired at once.
- Only when no rematch-free pairing exists for any bye candidate is the whole field matched
  with rematch pairs (and a bye node) in the graph, each rematch costing more than every
  other criterion together: the fewest rematches, then the bye rule, then 3 and 4.

Criteria 1 and 2 hold exactly; 3 and 4 are optimal inside each run. Pairing a 512-entry
round takes well under a second.

>>> teams = [SwissTeam(e, score=s) for e, s in [("a", 1), ("b", 1), ("c", 0), ("d", 0)]]
>>> [p.entries() for p in swiss_pair(teams).pairings]
[('a', 'b'), ('c', 'd')]
>>> again = [
...     SwissTeam("a", 2, frozenset({"b", "c"})), SwissTeam("b", 1, frozenset({"a", "d"})),
...     SwissTeam("c", 1, frozenset({"d", "a"})), SwissTeam("d", 0, frozenset({"c", "b"})),
... ]
>>> [p.entries() for p in swiss_pair(again).pairings]
[('a', 'd'), ('b', 'c')]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from tournaments.algorithms.common import AlgorithmError, EntryId, Pairing, require_unique
from tournaments.algorithms.standings import StandingRow

DEFAULT_WINDOW = 6
"""Initial rank distance of the candidate pairs; doubled until a complete pairing exists."""

DEFAULT_BLOCK = 32
"""Fields of at least twice this size are paired in runs of this many neighbouring ranks."""


@dataclass(frozen=True, slots=True)
class SwissTeam:
    """One entry as the Swiss pairing sees it.

    ``score`` is whatever the standings rank by first (match wins, or match points); entries
    with equal score form one score group. ``opponents`` are the entries already met and
    ``byes`` the number of byes already had.
    """

    entry: EntryId
    score: float
    opponents: frozenset[EntryId] = frozenset()
    byes: int = 0


@dataclass(frozen=True, slots=True)
class SwissRound:
    """The pairings of one Swiss round, best-ranked board first.

    ``rematches`` counts pairings of entries that met before (0 unless unavoidable);
    ``floats`` counts pairings across score groups.
    """

    pairings: tuple[Pairing, ...]
    bye: EntryId | None
    rematches: int
    floats: int


def swiss_teams(rows: Sequence[StandingRow]) -> tuple[SwissTeam, ...]:
    """The pairing input for the next round from the current standings (already ordered).

    The score is the entry's match points, so score groups are entries level on points.
    """
    return tuple(
        SwissTeam(row.entry, row.match_points, frozenset(row.opponents), row.byes) for row in rows
    )


def swiss_round_count(entry_count: int) -> int:
    """Default number of Swiss rounds: ``ceil(log2 n)``.

    >>> [swiss_round_count(n) for n in (2, 3, 8, 9, 512)]
    [1, 2, 3, 4, 9]
    """
    if entry_count < 2:
        raise AlgorithmError("Swiss needs at least two entries.", field="entries", code="too_few")
    return math.ceil(math.log2(entry_count))


@dataclass(frozen=True, slots=True)
class _Costs:
    group: int
    bye: int
    rematch: int
    top: int

    @classmethod
    def for_size(cls, n: int) -> _Costs:
        rank_total = n**3  # sum of squared rank gaps over a whole pairing stays below this
        group = rank_total + 1
        group_total = n**3 * group
        bye = group_total + rank_total + 1
        rematch = n * bye + group_total + rank_total + 1
        return cls(group=group, bye=bye, rematch=rematch, top=rematch * (n + 1))


def _check(teams: Sequence[SwissTeam]) -> None:
    if len(teams) < 2:
        raise AlgorithmError("Swiss needs at least two entries.", field="teams", code="too_few")
    require_unique((t.entry for t in teams), field="teams")
    for index, team in enumerate(teams):
        if team.byes < 0:
            raise AlgorithmError(
                f"teams[{index}].byes must not be negative.", field="teams.byes", code="invalid"
            )
        if team.entry in team.opponents:
            raise AlgorithmError(
                f"{team.entry!r} cannot have met itself.", field="teams.opponents", code="invalid"
            )


swiss_check = _check


def swiss_pair(
    teams: Sequence[SwissTeam], *, window: int = DEFAULT_WINDOW, block_size: int = DEFAULT_BLOCK
) -> SwissRound:
    """Pair one Swiss round. ``teams`` must be in standings order, best first.

    ``window`` and ``block_size`` only tune speed (see the module docstring); the
    rematch and bye guarantees hold for any values.
    """
    _check(teams)
    if window < 1 or block_size < 2:
        raise AlgorithmError(
            "window must be at least 1 and block_size at least 2.",
            field="window" if window < 1 else "block_size",
            code="invalid",
        )
    pairer = _Pairer(teams, window)
    boards, bye = pairer.blocked(block_size) if len(teams) >= 2 * block_size else (None, None)
    if boards is None:
        boards, bye = pairer.whole()
    boards.sort()
    rematches = sum(pairer.rematch(i, j) for i, j in boards)
    floats = sum(pairer.group[i] != pairer.group[j] for i, j in boards)
    return SwissRound(
        pairings=tuple(Pairing(teams[i].entry, teams[j].entry) for i, j in boards),
        bye=None if bye is None else teams[bye].entry,
        rematches=rematches,
        floats=floats,
    )


def swiss_pair_rematch_free(
    teams: Sequence[SwissTeam], *, window: int = DEFAULT_WINDOW, block_size: int = DEFAULT_BLOCK
) -> list[tuple[int, int]] | None:
    """Pair an even number of entries (standings order) as :func:`swiss_pair` does when no
    rematch is needed: fewest floats, then neighbours; as pairs of indices into ``teams``.
    None if every pairing repeats a meeting (the exact matching of rematches, costly on a
    big field, is not tried)."""
    if len(teams) % 2:
        raise AlgorithmError("An even number of entries is paired.", field="teams", code="odd")
    pairer = _Pairer(teams, window)
    if len(teams) >= 2 * block_size:
        boards, _ = pairer.blocked(block_size)
        if boards is not None:
            return boards
    return pairer._widening(list(range(len(teams))), False, False)


class _Pairer:
    """The matching problem of one round; nodes are indices into the standings order."""

    def __init__(self, teams: Sequence[SwissTeam], window: int) -> None:
        self.teams = teams
        self.window = window
        n = len(teams)
        self.costs = _Costs.for_size(n)
        scores = sorted({t.score for t in teams}, reverse=True)
        rank_of_score = {score: index for index, score in enumerate(scores)}
        self.group = [rank_of_score[t.score] for t in teams]
        fewest = min(t.byes for t in teams)
        # Whoever may take the bye: the fewest byes so far, lowest-ranked preferred.
        self.bye_candidates = [i for i, t in enumerate(teams) if t.byes == fewest] if n % 2 else []

    def rematch(self, i: int, j: int) -> bool:
        a, b = self.teams[i], self.teams[j]
        return b.entry in a.opponents or a.entry in b.opponents

    def cost(self, i: int, j: int) -> int:
        costs = self.costs
        return (
            self.rematch(i, j) * costs.rematch
            + (self.group[i] - self.group[j]) ** 2 * costs.group
            + (i - j) ** 2
        )

    def _attempt(
        self, nodes: Sequence[int], width: int, allow_rematch: bool, with_bye: bool
    ) -> list[tuple[int, int]] | None:
        """Max-weight matching of ``nodes`` (ascending) using pairs at most ``width`` apart."""
        costs = self.costs
        graph: nx.Graph[int] = nx.Graph()
        graph.add_nodes_from(nodes)
        for a, i in enumerate(nodes):
            for j in nodes[a + 1 : a + width + 1]:
                if allow_rematch or not self.rematch(i, j):
                    graph.add_edge(i, j, weight=costs.top - self.cost(i, j))
        count = len(nodes)
        if with_bye:
            last = len(self.teams) - 1
            graph.add_weighted_edges_from(
                (i, -1, costs.top - (last - i) * costs.bye) for i in self.bye_candidates
            )
            count += 1
        matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
        if len(matching) * 2 != count:
            return None
        return [(min(u, v), max(u, v)) for u, v in matching]

    def _widening(
        self, nodes: Sequence[int], allow_rematch: bool, with_bye: bool
    ) -> list[tuple[int, int]] | None:
        width = self.window
        while True:
            found = self._attempt(nodes, width, allow_rematch, with_bye)
            if found is not None or width >= len(nodes):
                return found
            width *= 2

    def whole(self) -> tuple[list[tuple[int, int]], int | None]:
        """Exact pairing of the whole field (the first two criteria hold strictly)."""
        n = len(self.teams)
        # The lowest-ranked bye candidate that leaves a rematch-free pairing gets the bye.
        candidates: list[int | None] = [*self.bye_candidates] or [None]
        for bye in reversed(candidates):
            found = self._widening([i for i in range(n) if i != bye], False, False)
            if found is not None:
                return found, bye
        # No rematch-free pairing at all: the fewest rematches, then the bye rule.
        with_bye = bool(self.bye_candidates)
        found = self._attempt(list(range(n)), n, True, with_bye)
        if found is None:  # pragma: no cover - a complete graph always has a full matching
            raise AlgorithmError("No pairing exists.", field="teams", code="unpairable")
        bye = next((j for i, j in found if i == -1), None)
        return [(i, j) for i, j in found if i != -1], bye

    def blocked(self, block_size: int) -> tuple[list[tuple[int, int]] | None, int | None]:
        """Fast path for big fields: pair runs of neighbouring ranks on their own.

        The bye goes to the lowest-ranked candidate; the rest is cut into runs of even length
        (at score-group boundaries where possible) that are matched separately. A run with
        no rematch-free pairing is merged with the next one (the last with the one above it);
        if even the whole field has none, this gives up and :meth:`whole` decides (where
        another bye may help).
        """
        bye = self.bye_candidates[-1] if self.bye_candidates else None
        order = [i for i in range(len(self.teams)) if i != bye]
        runs: list[list[int]] = [[]]
        for position, index in enumerate(order):
            run = runs[-1]
            run.append(index)
            following = order[position + 1] if position + 1 < len(order) else None
            at_boundary = following is None or self.group[following] != self.group[index]
            if len(run) % 2 == 0 and (
                (at_boundary and len(run) >= block_size) or len(run) >= 2 * block_size
            ):
                runs.append([])
        if not runs[-1]:
            runs.pop()
        done: list[tuple[list[int], list[tuple[int, int]]]] = []
        while runs:
            run = runs.pop(0)
            found = self._widening(run, False, False)
            if found is not None:
                done.append((run, found))
            elif runs:
                runs[0] = run + runs[0]
            elif done:
                # The last run cannot be paired on its own: take back the run above it.
                runs.append(done.pop()[0] + run)
            else:
                return None, None
        return [board for _, boards in done for board in boards], bye
