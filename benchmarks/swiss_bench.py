"""Figures for tournament pairing and brackets.

Run from the repository root::

    .venv/bin/python -m benchmarks.swiss_bench
    .venv/bin/python -m benchmarks.swiss_bench --entries 512 --rounds 9 --bracket 256 --seed 7

Prints one line per figure with its limit, and exits non-zero if any figure is over its
limit. Each section is a function ``(options) -> list[Figure]`` listed in ``SECTIONS``; a
database-backed section (standings recompute, queries) plugs in the same way.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tournaments.algorithms.bracket import bracket_document, resolve
from tournaments.algorithms.elimination import double_elimination
from tournaments.algorithms.standings import SWISS_TIEBREAKERS, MatchResult, standings
from tournaments.algorithms.swiss import swiss_pair, swiss_round_count, swiss_teams


@dataclass(frozen=True)
class Figure:
    """One measured figure; ``limit`` (seconds) is the target it must stay under."""

    name: str
    seconds: float
    limit: float | None = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.limit is None or self.seconds < self.limit

    def line(self) -> str:
        limit = f"(limit {self.limit * 1000:.0f} ms)" if self.limit is not None else ""
        verdict = "" if self.limit is None else ("ok" if self.ok else "OVER")
        return (
            f"{self.name:<44} {self.seconds * 1000:9.1f} ms  {limit:<18} {verdict:<4} {self.detail}"
        )


def simulated_match(rng: random.Random, home: int, away: int, entries: int) -> MatchResult:
    """A best-of-three match; the better seed (lower number) is somewhat more likely to win."""
    home_wins = rng.random() < 0.5 + (away - home) / (3 * entries)
    loser_games = rng.choice((0, 1))
    winner_points = sum(rng.randint(500, 640) for _ in range(2 + loser_games))
    loser_points = sum(rng.randint(150, 480) for _ in range(2)) + loser_games * 510
    baits = (rng.randint(0, 2), rng.randint(0, 3))
    return MatchResult(
        home,
        away,
        home if home_wins else away,
        home_games=2 if home_wins else loser_games,
        away_games=loser_games if home_wins else 2,
        home_points=winner_points if home_wins else loser_points,
        away_points=loser_points if home_wins else winner_points,
        home_baits=baits[0] if home_wins else baits[1],
        away_baits=baits[1] if home_wins else baits[0],
    )


def swiss_figures(options: argparse.Namespace) -> list[Figure]:
    """Pair every round of a simulated Swiss, timing the pairing and the (pure) standings."""
    rng = random.Random(options.seed)
    n = options.entries
    rounds = options.rounds or swiss_round_count(n)
    entries = list(range(1, n + 1))
    results: list[MatchResult] = []
    figures: list[Figure] = []
    for number in range(1, rounds + 1):
        started = time.perf_counter()
        table = standings(entries, results, tiebreakers=SWISS_TIEBREAKERS)
        standings_seconds = time.perf_counter() - started
        teams = swiss_teams(table)
        started = time.perf_counter()
        paired = swiss_pair(teams)
        seconds = time.perf_counter() - started
        figures.append(
            Figure(
                f"swiss {n} entries: pair round {number}",
                seconds,
                limit=2.0,
                detail=(
                    f"{len(paired.pairings)} boards, bye {paired.bye}, "
                    f"{paired.rematches} rematches, {paired.floats} floats; "
                    f"standings {standings_seconds * 1000:.1f} ms"
                ),
            )
        )
        results.extend(simulated_match(rng, int(p.home), int(p.away), n) for p in paired.pairings)
        if paired.bye is not None:
            results.append(MatchResult(paired.bye, None, paired.bye))
    worst = max(figures, key=lambda f: f.seconds)
    figures.append(
        Figure(f"swiss {n} entries: slowest of {rounds} rounds", worst.seconds, limit=2.0)
    )
    return figures


def _median_seconds(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def bracket_figures(options: argparse.Namespace) -> list[Figure]:
    """Build a double elimination bracket and its document, empty and half played."""
    rng = random.Random(options.seed)
    size = options.bracket
    entries = list(range(1, size + 1))
    built = _median_seconds(lambda: double_elimination(entries), options.repeat)
    bracket = double_elimination(entries)
    results: dict[str, int] = {}
    for _ in range(len(bracket.matches) // 2):
        ready = resolve(bracket, results).with_status("ready")
        results[rng.choice(ready)] = rng.randrange(2)

    def build_and_draw(played: dict[str, int]) -> object:
        return bracket_document(double_elimination(entries), played)

    empty = _median_seconds(lambda: build_and_draw({}), options.repeat)
    half = _median_seconds(lambda: build_and_draw(results), options.repeat)
    matches = f"{len(bracket.matches)} matches"
    return [
        Figure(f"double elim {size}: build bracket", built, detail=matches),
        Figure(f"double elim {size}: build + document, no results", empty, 0.2, matches),
        Figure(
            f"double elim {size}: build + document, half played",
            half,
            0.2,
            f"{len(results)} results",
        ),
    ]


SECTIONS: list[Callable[[argparse.Namespace], list[Figure]]] = [swiss_figures, bracket_figures]


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--entries", type=int, default=512, help="Swiss field size")
    parser.add_argument("--rounds", type=int, default=9, help="Swiss rounds (0: ceil(log2 n))")
    parser.add_argument("--bracket", type=int, default=256, help="double elimination size")
    parser.add_argument("--repeat", type=int, default=5, help="runs per bracket figure")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the simulation")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    options = parse(argv)
    over = 0
    for section in SECTIONS:
        for figure in section(options):
            print(figure.line())
            over += not figure.ok
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
