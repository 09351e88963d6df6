"""Tournament benchmark on PostgreSQL: a big Swiss played through the database.

    .venv/bin/python benchmarks/tournament_bench.py [--teams 512] [--rounds 9]
        [--database postgres://postgres@127.0.0.1:5432/tarabish_bench_tournaments] [--keep-db]

Builds a tournament of ``--teams`` entries in its own database (created and migrated if
missing, emptied of its benchmark tournament first, and dropped at the end, after a failure
too, unless ``--keep-db``: ``--database`` names a database of the benchmark's own), plays a
Swiss of ``--rounds`` rounds in which every game is simulated by the engine and entered hand
by hand through the scoring services, and prints:

* the time to pair each round (``swiss_round_pair``: load the table, pair by maximum-weight
  matching, write the matches), target under 2 s;
* the time and the number of queries of a full standings recompute, target under 1 s in a
  number of queries that does not grow with the field;
* the time to build the bracket document of a 256-team double elimination from the database
  (the Swiss top 256 go on to it), target under 200 ms.

Celery runs in-process here. The standings recompute that each result would enqueue after
commit is left to the measured full recomputes between rounds (a worker debounces it in
production); match results, brackets and ratings follow each game as they do in service.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tarabish_bench_tournaments"


def setup_database(database: str) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ["DATABASE_URL"] = database
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarabish_site.settings")
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ["DJANGO_DEBUG"] = "false"  # no query log kept in memory
    import psycopg

    name = database.rsplit("/", 1)[1]
    admin_url = database.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
            # A throwaway database: commits need not wait for the disk.
            conn.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def drop_database(database: str) -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    name = database.rsplit("/", 1)[1]
    admin_url = database.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print(f"database {name} dropped")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teams", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--bracket", type=int, default=256)
    parser.add_argument("--database", default=DEFAULT_DB)
    parser.add_argument("--keep-db", action="store_true", help="do not drop the database")
    parser.add_argument("--seed", type=int, default=512)
    args = parser.parse_args()
    setup_database(args.database)
    try:
        _run(args)
    finally:
        if not args.keep_db:
            drop_database(args.database)


def _run(args: argparse.Namespace) -> None:
    import datetime as dt

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring import services as scoring_services
    from scoring.models import Player
    from tournaments import selectors, services
    from tournaments.demo import stage_play_simulated
    from tournaments.models import Entry, Match, MatchGame, Stage, Tournament
    from tournaments.services import standings as standings_module

    standings_module.standings_schedule = lambda **kwargs: False
    rng = random.Random(args.seed)

    print(f"database {connection.settings_dict['NAME']} ({connection.vendor})")
    # Matches hold their entries (PROTECT): clear them before the tournament itself.
    Match.objects.filter(stage__tournament__slug="benchmark-swiss").delete()
    Tournament.objects.filter(slug="benchmark-swiss").delete()
    director, _ = get_user_model().objects.get_or_create(
        username="bench-director", defaults={"is_superuser": True, "is_staff": True}
    )
    started = time.perf_counter()
    tournament = services.tournament_create(
        actor=director,
        name="Benchmark Swiss",
        slug="benchmark-swiss",
        starts_on=dt.date(2026, 11, 21),
    )
    services.tournament_open_registration(tournament_id=tournament.pk, actor=director)
    teams: list[int] = []
    existing = {(p.display_name, p.community): p for p in Player.objects.filter(community="Bench")}
    for number in range(args.teams):
        pair = []
        for seat in (0, 1):
            name = f"Bench player {2 * number + seat}"
            player = existing.get((name, "Bench")) or scoring_services.player_create(
                display_name=name, community="Bench"
            )
            pair.append(player)
        team = scoring_services.team_find(player_one=pair[0], player_two=pair[1])
        team = team or scoring_services.team_create(
            player_one=pair[0], player_two=pair[1], name=f"Bench team {number}"
        )
        teams.append(team.pk)
    Entry.objects.bulk_create(
        [Entry(tournament=tournament, team_id=t, checked_in=True) for t in teams]
    )
    services.tournament_open_check_in(tournament_id=tournament.pk, actor=director)
    services.checkin_process(tournament_id=tournament.pk, actor=director)
    swiss = services.stage_create(
        tournament_id=tournament.pk, actor=director, kind="swiss", swiss_rounds=args.rounds
    )
    knockout = services.stage_create(
        tournament_id=tournament.pk,
        actor=director,
        kind="double_elim",
        qualifiers_per_pool=args.bracket,
        grand_final="reset",
    )
    print(f"{args.teams} entries registered in {time.perf_counter() - started:.1f} s")

    pair_times: list[float] = []
    recompute: list[tuple[float, int]] = []
    for number in range(1, args.rounds + 1):
        began = time.perf_counter()
        if number == 1:
            services.stage_start(stage_id=swiss.pk, actor=director)
        else:
            services.swiss_round_pair(stage_id=swiss.pk, actor=director)
        pair_times.append(time.perf_counter() - began)
        began = time.perf_counter()
        played = stage_play_simulated(stage_id=swiss.pk, rng=rng)
        play_time = time.perf_counter() - began
        with CaptureQueriesContext(connection) as queries:
            began = time.perf_counter()
            services.standings_recompute(stage_id=swiss.pk, force=True)
            elapsed = time.perf_counter() - began
        recompute.append((elapsed, len(queries.captured_queries)))
        print(
            f"round {number}: paired in {pair_times[-1]:.3f} s; {played} matches played "
            f"in {play_time:.1f} s; full standings recompute {elapsed:.3f} s "
            f"in {len(queries.captured_queries)} queries"
        )
    matches = Match.objects.filter(stage=swiss)
    print(
        f"Swiss: {matches.count()} matches, {matches.filter(bye=True).count()} byes, "
        f"{MatchGame.objects.filter(match__stage=swiss).count()} games"
    )
    print(
        f"pairing a round: max {max(pair_times):.3f} s, "
        f"median {statistics.median(pair_times):.3f} s (target < 2 s)"
    )
    print(
        f"full standings recompute: max {max(t for t, _ in recompute):.3f} s, queries "
        f"{sorted({q for _, q in recompute})} (target < 1 s, constant)"
    )

    began = time.perf_counter()
    services.stage_advance(tournament_id=tournament.pk, actor=director)
    print(f"double elimination of {args.bracket} started in {time.perf_counter() - began:.2f} s")
    stage_play_simulated(stage_id=knockout.pk, rng=rng, limit=args.bracket // 2)
    knockout = Stage.objects.get(pk=knockout.pk)
    times = []
    for _ in range(5):
        with CaptureQueriesContext(connection) as queries:
            began = time.perf_counter()
            document = selectors.stage_bracket_document(knockout)
            times.append(time.perf_counter() - began)
    print(
        f"bracket document, {document['match_count']} matches in {document['round_count']} "
        f"rounds: best {min(times) * 1000:.0f} ms, median {statistics.median(times) * 1000:.0f} ms"
        f" in {len(queries.captured_queries)} queries (target < 200 ms)"
    )


if __name__ == "__main__":
    main()
