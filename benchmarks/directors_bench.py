"""What a director's day costs as the field grows, CPU time beside wall time (shared machine).

    .venv/bin/python benchmarks/directors_bench.py [--sizes 64,256,1024,2048]
        [--database postgres://postgres@127.0.0.1:5432/tarabish_directors_bench] [--keep-db]
        [--start-only] [--repeat N]

For each field size it prints:

* a Swiss round: pairing round 4 of a simulated event by the Dutch system and by the
  neighbours' pairing (no database), and by the Dutch system once more with its lowest 21
  entries stuck in a group of their own where all have met (the path that repairs a round
  the group-by-group pairing cannot finish), target under 2 s at 1,024 teams;
* starting a double-elimination stage of that many teams (``stage_start``), target under 1 s
  of CPU at 2,048;
* one match result (a first-round forfeit through ``match_forfeit``), averaged over ten, with
  its number of queries;
* the tournament page showing that bracket: server time and its size, plain and gzipped (as
  the app sends it to a browser), targets under 300 ms and 100 KiB at 1,024 teams.

``--start-only`` times the starts alone, each ``--repeat`` times (a fresh tournament each
time): on a shared machine the least of several runs is the figure to quote.

It uses a database of its own (created and migrated if missing, dropped at the end unless
``--keep-db``). Celery runs in-process; standings recomputes are left out, as a worker would
debounce them.
"""

from __future__ import annotations

import argparse
import gzip
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

# its database of its own, created, migrated and dropped as the tournament benchmark's
from tournament_bench import drop_database, setup_database

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tarabish_directors_bench"

#: Entries of the corner a stuck Swiss round cannot pair by score groups.
STUCK = 21


def timed(action: Callable[[], Any]) -> tuple[Any, float, float]:
    """``action()``, with the CPU and wall seconds it took."""
    cpu, wall = time.process_time(), time.perf_counter()
    value = action()
    return value, time.process_time() - cpu, time.perf_counter() - wall


def line(what: str, n: int, cpu: float, wall: float, extra: str = "") -> None:
    print(f"{what:<34} {n:>5} teams  cpu {cpu * 1000:9.1f} ms  wall {wall * 1000:9.1f} ms  {extra}")


def swiss_round(n: int) -> None:
    from tournaments.algorithms.dutch import dutch_pair
    from tournaments.algorithms.standings import SWISS_TIEBREAKERS, MatchResult, standings
    from tournaments.algorithms.swiss import SwissTeam, swiss_pair, swiss_teams

    rng = random.Random(n)
    entries = list(range(1, n + 1))
    results: list[MatchResult] = []
    for _ in range(3):
        teams = swiss_teams(standings(entries, results, tiebreakers=SWISS_TIEBREAKERS))
        paired = dutch_pair(teams)
        for p in paired.pairings:
            winner = p.home if rng.random() < 0.6 else p.away
            results.append(MatchResult(p.home, p.away, winner, home_games=2 * (winner == p.home)))
        if paired.bye is not None:
            results.append(MatchResult(paired.bye, None, paired.bye))
    teams = swiss_teams(standings(entries, results, tiebreakers=SWISS_TIEBREAKERS))
    # The same round stuck at the bottom: the lowest 21 entries (the most that can all have
    # met one another in 20 rounds) in a score group of their own, every pair of them met.
    low = {t.entry for t in teams[-STUCK:]}
    stuck = (
        *teams[:-STUCK],
        *(SwissTeam(t.entry, -1, t.opponents | (low - {t.entry}), t.byes) for t in teams[-STUCK:]),
    )
    for name, pair, field in (
        ("Swiss round 4, Dutch", dutch_pair, teams),
        ("Swiss round 4, neighbours", swiss_pair, teams),
        ("Swiss round 4, Dutch, stuck bottom", dutch_pair, stuck),
    ):
        result, cpu, wall = timed(lambda pair=pair, field=field: pair(field))  # type: ignore[misc]
        line(name, n, cpu, wall, f"floats {result.floats}, rematches {result.rematches}")


def bracket_day(n: int, director: Any, *, start_only: bool = False, run: int = 0) -> None:
    import datetime as dt

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from scoring.models import Player, Team
    from tournaments import services
    from tournaments.models import Entry, Match, Tournament

    slug = f"bench-directors-{n}" + (f"-{run}" if run else "")
    Match.objects.filter(stage__tournament__slug=slug).delete()
    Tournament.objects.filter(slug=slug).delete()
    tournament = services.tournament_create(
        actor=director, name=f"Bench {n}", slug=slug, starts_on=dt.date(2026, 12, 5)
    )
    players = Player.objects.bulk_create(
        [
            Player(display_name=f"Bench {n}.{run} player {i}", community="Bench")
            for i in range(2 * n)
        ]
    )
    teams = Team.objects.bulk_create(
        [
            Team(
                name=f"Bench {n}.{run} team {i}",
                player_one=players[2 * i],
                player_two=players[2 * i + 1],
            )
            for i in range(n)
        ]
    )
    Entry.objects.bulk_create(
        [
            Entry(tournament=tournament, team=t, checked_in=True, seed=i + 1)
            for i, t in enumerate(teams)
        ]
    )
    stage = services.stage_create(
        tournament_id=tournament.pk, actor=director, kind="double_elim", grand_final="reset"
    )
    _, cpu, wall = timed(lambda: services.stage_start(stage_id=stage.pk, actor=director))
    line("double-elimination start", n, cpu, wall)
    if start_only:
        return

    ready = list(
        Match.objects.filter(stage=stage, state=Match.State.READY).order_by("round_id", "number")[
            :10
        ]
    )
    cpu_total = wall_total = 0.0
    queries = 0
    for match in ready:
        with CaptureQueriesContext(connection) as captured:
            _, cpu, wall = timed(
                lambda match=match: services.match_forfeit(  # type: ignore[misc]
                    match_id=match.pk,
                    actor=director,
                    loser_id=match.away_id,
                    expected_version=match.version,
                )
            )
        cpu_total, wall_total, queries = cpu_total + cpu, wall_total + wall, queries + len(captured)
    count = max(len(ready), 1)
    line(
        "one match result (forfeit)",
        n,
        cpu_total / count,
        wall_total / count,
        f"{queries / count:.0f} queries",
    )

    client = Client(SERVER_NAME="localhost")
    url = f"/tournaments/{slug}/?stage={stage.pk}"
    client.get(url)  # warm
    response, cpu, wall = timed(lambda: client.get(url))
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert packed.get("Content-Encoding") == "gzip"
    size = len(response.content)
    line(
        "bracket page",
        n,
        cpu,
        wall,
        f"{size / 1024:.0f} KiB, {len(packed.content) / 1024:.0f} KiB gzipped "
        f"(gzip -6 alone: {len(gzip.compress(response.content)) / 1024:.0f} KiB)",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="64,256,1024,2048")
    parser.add_argument("--database", default=DEFAULT_DB)
    parser.add_argument("--keep-db", action="store_true", help="do not drop the database")
    parser.add_argument(
        "--start-only", action="store_true", help="time the double-elimination starts alone"
    )
    parser.add_argument("--repeat", type=int, default=1, help="starts of each size")
    args = parser.parse_args()
    setup_database(args.database)
    try:
        from django.contrib.auth import get_user_model

        from tournaments.services import standings as standings_module

        standings_module.standings_schedule = lambda **kwargs: False
        director, _ = get_user_model().objects.get_or_create(
            username="bench-director", defaults={"is_superuser": True, "is_staff": True}
        )
        sizes = [int(size) for size in args.sizes.split(",")]
        if not args.start_only:
            for n in sizes:
                swiss_round(n)
        for n in sizes:
            for run in range(args.repeat):
                bracket_day(n, director, start_only=args.start_only, run=run)
    finally:
        if not args.keep_db:
            drop_database(args.database)


if __name__ == "__main__":
    main()
