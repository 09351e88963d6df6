"""Standings: one row per entry from match results, ordered by configurable tie-breakers.

Results come in as plain :class:`MatchResult` values, one per finished match, with the
games, hand points and baits of each side already summed by the caller. The table is a pure
function of the *set* of results: the order in which they are given never matters.

Tie-breakers (higher is better unless noted):

``match_wins``
    match points: 2 per match won (a bye counts as a win), 1 per drawn match;
``game_wins``
    games won;
``points_for`` / ``points_against`` (lower is better) / ``points_difference``
    hand points scored, conceded, and the difference;
``baits_forced`` / ``baits_suffered`` (lower is better)
    hands in which the other side called trump and went bait, and the reverse;
``head_to_head``
    match points in a mini-table of the matches among exactly the tied entries; when it
    splits them, it is applied again among each still-tied subgroup before moving on;
``buchholz`` / ``median_buchholz``
    sum of the match points of every opponent met (byes count nothing); the median variant
    leaves out the best and the worst opponent when there were at least three;
``sonneborn_berger``
    the match points of every opponent beaten, and half those of every opponent drawn with
    (kept doubled, as whole numbers: the order is the same);
``opponents_match_win``
    the mean of the opponents' match-win percentages (wins, and half of draws, per match
    played), each counted as at least a third so that a weak opponent costs no more than
    that; in thousandths;
``seed``
    the lower seed number first: a last resort that never ties.

Entries still tied after the last tie-breaker share a place and are listed by id.

>>> results = [
...     MatchResult("a", "b", winner="a", home_games=2, away_games=1),
...     MatchResult("b", "c", winner="b", home_games=2, away_games=0),
...     MatchResult("c", "a", winner="c", home_games=2, away_games=1),
... ]
>>> [(row.place, row.entry, row.game_wins) for row in standings(["a", "b", "c"], results)]
[(1, 'a', 3), (2, 'b', 3), (3, 'c', 2)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias, get_args

from tournaments.algorithms.common import (
    AlgorithmError,
    EntryId,
    entry_sort_key,
    require_unique,
)

TieBreaker: TypeAlias = Literal[
    "match_wins",
    "game_wins",
    "points_for",
    "points_against",
    "points_difference",
    "baits_forced",
    "baits_suffered",
    "head_to_head",
    "buchholz",
    "median_buchholz",
    "sonneborn_berger",
    "opponents_match_win",
    "seed",
]
TIEBREAKERS: tuple[TieBreaker, ...] = get_args(TieBreaker)

DEFAULT_TIEBREAKERS: tuple[TieBreaker, ...] = (
    "match_wins",
    "head_to_head",
    "game_wins",
    "points_difference",
    "points_for",
    "seed",
)
"""For round robin pools and elimination stages."""

SWISS_TIEBREAKERS: tuple[TieBreaker, ...] = (
    "match_wins",
    "buchholz",
    "median_buchholz",
    "game_wins",
    "points_difference",
    "seed",
)
"""For Swiss stages, where head-to-head rarely separates anyone."""


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The result of one finished match (``away`` is ``None`` for a bye to ``home``).

    ``winner`` is ``None`` for a drawn match. ``*_baits`` count the hands in which that side
    called trump and went bait.
    """

    home: EntryId
    away: EntryId | None
    winner: EntryId | None
    home_games: int = 0
    away_games: int = 0
    home_points: int = 0
    away_points: int = 0
    home_baits: int = 0
    away_baits: int = 0


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the table. ``opponents`` lists each opponent once per meeting."""

    place: int
    entry: EntryId
    seed: int
    played: int
    byes: int
    match_wins: int
    match_draws: int
    match_losses: int
    match_points: int
    game_wins: int
    game_losses: int
    points_for: int
    points_against: int
    points_difference: int
    baits_forced: int
    baits_suffered: int
    buchholz: int
    median_buchholz: int
    opponents: tuple[EntryId, ...]


@dataclass(slots=True)
class _Tally:
    seed: int
    played: int = 0
    byes: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    game_wins: int = 0
    game_losses: int = 0
    points_for: int = 0
    points_against: int = 0
    baits_forced: int = 0
    baits_suffered: int = 0
    byes_won: int = 0

    @property
    def match_points(self) -> int:
        return 2 * self.wins + self.draws


def _match_win_share(tally: _Tally) -> float:
    """Matches won (a draw half) per match played, at least a third (byes left out)."""
    if tally.played == 0:
        return 1 / 3
    return max((tally.wins - tally.byes_won + tally.draws / 2) / tally.played, 1 / 3)


def _check_result(index: int, result: MatchResult, seeds: Mapping[EntryId, int]) -> None:
    where = f"results[{index}]"
    if result.home not in seeds:
        raise AlgorithmError(
            f"{where}.home {result.home!r} is not an entry.", field="results.home", code="unknown"
        )
    if result.away is not None and result.away not in seeds:
        raise AlgorithmError(
            f"{where}.away {result.away!r} is not an entry.", field="results.away", code="unknown"
        )
    if result.away == result.home:
        raise AlgorithmError(
            f"{where}: an entry cannot play itself.", field="results.away", code="invalid"
        )
    allowed = (result.home,) if result.away is None else (result.home, result.away, None)
    if result.winner not in allowed:
        raise AlgorithmError(
            f"{where}.winner {result.winner!r} is not one of the entries of the match.",
            field="results.winner",
            code="invalid",
        )
    for name in (
        "home_games",
        "away_games",
        "home_points",
        "away_points",
        "home_baits",
        "away_baits",
    ):
        if getattr(result, name) < 0:
            raise AlgorithmError(
                f"{where}.{name} must not be negative.", field=f"results.{name}", code="negative"
            )


def standings(
    entries: Sequence[EntryId],
    results: Iterable[MatchResult],
    *,
    tiebreakers: Sequence[TieBreaker] = DEFAULT_TIEBREAKERS,
) -> tuple[StandingRow, ...]:
    """The ordered table of ``entries`` (given in seed order: the first is seed 1)."""
    require_unique(entries, field="entries")
    require_unique(tiebreakers, field="tiebreakers")
    for name in tiebreakers:
        if name not in TIEBREAKERS:
            raise AlgorithmError(
                f"Unknown tie-breaker {name!r}; choose from {', '.join(TIEBREAKERS)}.",
                field="tiebreakers",
                code="unknown",
            )
    seeds = {entry: seed for seed, entry in enumerate(entries, start=1)}
    tally = {entry: _Tally(seeds[entry]) for entry in entries}
    met: dict[EntryId, list[EntryId]] = {entry: [] for entry in entries}
    # Match points each entry took from each opponent, for head-to-head.
    taken: dict[EntryId, dict[EntryId, int]] = {entry: {} for entry in entries}
    for index, result in enumerate(results):
        _check_result(index, result, seeds)
        home = tally[result.home]
        if result.away is None:
            home.byes += 1
            if result.winner == result.home:
                home.wins += 1
                home.byes_won += 1
            continue
        away = tally[result.away]
        sides = ((home, result.home, result.away, "home"), (away, result.away, result.home, "away"))
        for row, me, other, side in sides:
            mine, theirs = ("home", "away") if side == "home" else ("away", "home")
            row.played += 1
            row.game_wins += getattr(result, f"{mine}_games")
            row.game_losses += getattr(result, f"{theirs}_games")
            row.points_for += getattr(result, f"{mine}_points")
            row.points_against += getattr(result, f"{theirs}_points")
            row.baits_suffered += getattr(result, f"{mine}_baits")
            row.baits_forced += getattr(result, f"{theirs}_baits")
            met[me].append(other)
            if result.winner is None:
                row.draws += 1
                gained = 1
            elif result.winner == me:
                row.wins += 1
                gained = 2
            else:
                row.losses += 1
                gained = 0
            taken[me][other] = taken[me].get(other, 0) + gained

    buchholz: dict[EntryId, int] = {}
    median: dict[EntryId, int] = {}
    berger: dict[EntryId, int] = {}
    omw: dict[EntryId, int] = {}
    for entry, opponents in met.items():
        scores = sorted(tally[o].match_points for o in opponents)
        buchholz[entry] = sum(scores)
        median[entry] = sum(scores[1:-1]) if len(scores) >= 3 else sum(scores)
        berger[entry] = sum(
            gained * tally[other].match_points for other, gained in taken[entry].items()
        )
        omw[entry] = (
            round(1000 * sum(_match_win_share(tally[o]) for o in opponents) / len(opponents))
            if opponents
            else 0
        )

    def metric(name: TieBreaker) -> Callable[[EntryId], int]:
        if name == "buchholz":
            return buchholz.__getitem__
        if name == "median_buchholz":
            return median.__getitem__
        if name == "sonneborn_berger":
            return berger.__getitem__
        if name == "opponents_match_win":
            return omw.__getitem__
        if name == "match_wins":
            return lambda e: tally[e].match_points
        if name == "points_difference":
            return lambda e: tally[e].points_for - tally[e].points_against
        if name in ("points_against", "baits_suffered", "seed"):
            return lambda e: -getattr(tally[e], name)
        return lambda e: int(getattr(tally[e], name))

    def head_to_head(group: list[EntryId]) -> Callable[[EntryId], int]:
        members = set(group)
        mini = {e: sum(p for o, p in taken[e].items() if o in members) for e in group}
        return mini.__getitem__

    def split(group: list[EntryId], key: Callable[[EntryId], int]) -> list[list[EntryId]]:
        parts: dict[int, list[EntryId]] = {}
        for entry in group:
            parts.setdefault(key(entry), []).append(entry)
        return [parts[value] for value in sorted(parts, reverse=True)]

    def rank(group: list[EntryId], order: tuple[TieBreaker, ...]) -> list[list[EntryId]]:
        if len(group) == 1:
            return [group]
        if not order:
            return [sorted(group, key=entry_sort_key)]
        first, rest = order[0], order[1:]
        if first == "head_to_head":
            parts = split(group, head_to_head(group))
            if len(parts) == 1:
                return rank(group, rest)
            return [tied for part in parts for tied in rank(part, order)]
        return [tied for part in split(group, metric(first)) for tied in rank(part, rest)]

    rows: list[StandingRow] = []
    for tied in rank(list(entries), tuple(tiebreakers)):
        place = len(rows) + 1
        for entry in tied:
            t = tally[entry]
            rows.append(
                StandingRow(
                    place=place,
                    entry=entry,
                    seed=t.seed,
                    played=t.played,
                    byes=t.byes,
                    match_wins=t.wins,
                    match_draws=t.draws,
                    match_losses=t.losses,
                    match_points=t.match_points,
                    game_wins=t.game_wins,
                    game_losses=t.game_losses,
                    points_for=t.points_for,
                    points_against=t.points_against,
                    points_difference=t.points_for - t.points_against,
                    baits_forced=t.baits_forced,
                    baits_suffered=t.baits_suffered,
                    buchholz=buchholz[entry],
                    median_buchholz=median[entry],
                    opponents=tuple(sorted(met[entry], key=entry_sort_key)),
                )
            )
    return tuple(rows)
