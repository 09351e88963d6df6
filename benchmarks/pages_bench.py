"""How long the 256-team double elimination bracket page takes to render on the server.

Builds a tournament of 256 teams through the services in a throw-away SQLite database, plays
the first winners round (so the page has results, byes-free slots and drops into the losers
bracket to draw), then requests the pages through Django's test client, which runs the whole
request: URL routing, middleware, selectors, the SVG drawing and the templates.

    .venv/bin/python benchmarks/pages_bench.py [--teams 256] [--runs 30]

Prints the median, 90th percentile and best wall time of each page, the median CPU time (what a
page costs when the machine is shared with other work), its number of queries and its size.
Goal: the bracket page under 200 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOAL_MS = 200.0


def _setup(tmp: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
    os.environ["DJANGO_SETTINGS_MODULE"] = "tarabish_site.settings"
    os.environ["LOG_LEVEL"] = "WARNING"
    os.environ["DJANGO_DEBUG"] = "false"
    for name in ("CELERY_BROKER_URL", "REDIS_URL"):
        os.environ.pop(name, None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _build(teams: int) -> tuple[Any, Any]:
    from django.contrib.auth import get_user_model

    from scoring import services as scoring
    from tournaments import services
    from tournaments.models import Match

    director = get_user_model().objects.create_user("director", is_staff=True)
    tournament = services.tournament_create(
        actor=director, name="Provincial Championship", starts_on=date(2026, 11, 21)
    )
    services.tournament_open_registration(tournament_id=tournament.pk, actor=director)
    for n in range(teams):
        one = scoring.player_create(display_name=f"Player {2 * n + 1}", community="Sydney")
        two = scoring.player_create(display_name=f"Player {2 * n + 2}", community="Sydney")
        team = scoring.team_create(player_one=one, player_two=two, name=f"Team {n + 1:03d}")
        entry = services.entry_register(
            tournament_id=tournament.pk, actor=director, team_id=team.pk, seed=n + 1
        )
        services.entry_check_in(entry_id=entry.pk, actor=director)
    services.tournament_open_check_in(tournament_id=tournament.pk, actor=director)
    services.checkin_process(tournament_id=tournament.pk, actor=director)
    stage = services.stage_create(
        tournament_id=tournament.pk, actor=director, kind="double_elim", grand_final="reset"
    )
    services.stage_start(stage_id=stage.pk, actor=director)
    # the first winners round played: home wins two of three
    first = Match.objects.filter(stage=stage, key__startswith="W1-", state=Match.State.READY)
    for number, match in enumerate(first.order_by("pk")):
        loser = match.away_id if number % 3 else match.home_id
        assert loser is not None  # a ready match has both entries
        services.match_forfeit(
            match_id=match.pk, actor=director, loser_id=loser, expected_version=match.version
        )
    stage.refresh_from_db()
    return tournament, stage


def _time(client: Any, url: str, runs: int) -> tuple[list[float], list[float], int, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url)  # warm up: templates compiled, caches filled
    timings, cpu = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        timings.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
        assert response.status_code == 200, response.status_code
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    return timings, cpu, len(queries.captured_queries), len(response.content)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=256)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tarabish-bench-") as tmp:
        _setup(tmp)
        from django.test import Client

        started = time.perf_counter()
        tournament, stage = _build(args.teams)
        print(
            f"built {args.teams} teams, {stage.matches.count()} matches "
            f"in {time.perf_counter() - started:.1f} s"
        )
        client = Client(SERVER_NAME="localhost")
        slug = tournament.slug
        pages = {
            "bracket page (tournament, bracket stage)": f"/tournaments/{slug}/?stage={stage.pk}",
            "bracket alone (refreshed part)": f"/tournaments/{slug}/stages/{stage.pk}/live/",
            "big screen": f"/tournaments/{slug}/screen/",
            "whole schedule": f"/tournaments/{slug}/schedule/",
        }
        worst = worst_cpu = 0.0
        for name, url in pages.items():
            timings, cpu, queries, size = _time(client, url, args.runs)
            median = statistics.median(timings)
            p90 = statistics.quantiles(timings, n=10)[-1]
            print(
                f"{name:40s} median {median:6.1f} ms  p90 {p90:6.1f} ms  "
                f"best {min(timings):6.1f} ms  CPU median {statistics.median(cpu):6.1f} ms  "
                f"{queries} queries  {size // 1024} KiB"
            )
            if name.startswith("bracket page"):
                worst, worst_cpu = median, statistics.median(cpu)
        load = os.getloadavg()[0]
        print(f"load average while measuring: {load:.1f} on {os.cpu_count()} CPUs")
        verdict = "under" if worst < GOAL_MS else "OVER"
        print(
            f"{args.teams}-team double elimination bracket page: median {worst:.1f} ms "
            f"({worst_cpu:.1f} ms of CPU), {verdict} the {GOAL_MS:.0f} ms goal"
        )
    return 0 if worst < GOAL_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
