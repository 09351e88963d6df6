"""A whole 32-team day: eight pools of four, then a double elimination of the top two per pool.

Every game is simulated by the engine and entered hand by hand through the scoring services,
as a scorekeeper would; match results, brackets and standings follow from the signal the
scoring app sends after each commit. The ``services`` variant runs the same day with the real
Celery worker doing that work.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import pytest

from scoring import services as scoring_services
from scoring.engine import Ruleset, simulate_game
from tests.helpers import wait_for
from tests.tournaments.factories import add_stage, tournament_ready
from tournaments.models import Entry, Match, PlayerRating, Stage, Standing, Tournament
from tournaments.services import match_game_start, stage_advance, stage_start, tournament_finish

OPEN = [Match.State.READY, Match.State.IN_PROGRESS]


def _play_game(
    match: Match,
    rng: random.Random,
    ruleset: Ruleset,
    committing: Callable[[], AbstractContextManager[Any]],
) -> None:
    simulated = simulate_game(ruleset, rng)
    with committing():
        link = match_game_start(match_id=match.pk, actor=None, first_dealer=simulated.first_dealer)
    for hand in simulated.hands:
        with committing():
            scoring_services.hand_record(
                game=link.game, entry_kind="summary", entry=hand.summary.to_json()
            )


def _play_stage(
    stage: Stage,
    rng: random.Random,
    committing: Callable[[], AbstractContextManager[Any]],
    settled: Callable[[Match], None],
) -> int:
    """Play every open match until none is left; only the scoring services are called."""
    ruleset = Ruleset.from_json(stage.tournament.ruleset)
    played = 0
    while True:
        open_matches = list(Match.objects.filter(stage=stage, state__in=OPEN).order_by("id"))
        if not open_matches:
            return played
        for match in open_matches:
            _play_game(match, rng, ruleset, committing)
            settled(match)
            played += 1


def _day(
    committing: Callable[[], AbstractContextManager[Any]], settled: Callable[[Match], None]
) -> Tournament:
    tournament = tournament_ready(32)
    director = tournament.organiser
    pools = add_stage(tournament, "round_robin", pool_count=8)
    knockout = add_stage(tournament, "double_elim", qualifiers_per_pool=2, grand_final="reset")
    rng = random.Random(2026)
    with committing():
        stage_start(stage_id=pools.pk, actor=director)
    assert Match.objects.filter(stage=pools).count() == 48
    assert _play_stage(pools, rng, committing, settled) == 48
    pools.refresh_from_db()
    assert pools.status == Stage.Status.FINISHED
    # The pool tables were stored by the recompute that the results enqueued, not by us.
    assert wait_for(
        lambda: not Stage.objects.filter(pk=pools.pk, standings_dirty=True).exists(), timeout=60
    )
    rows = Standing.objects.filter(stage=pools)
    assert rows.count() == 32
    assert sum(rows.values_list("played", flat=True)) == 96
    with committing():
        stage_advance(tournament_id=tournament.pk, actor=director)
    assert knockout.stage_entries.count() == 16
    played = _play_stage(knockout, rng, committing, settled)
    assert played in (30, 31)  # the reset is played only if the losers-bracket side wins GF1
    knockout.refresh_from_db()
    assert knockout.status == Stage.Status.FINISHED
    with committing():
        return tournament_finish(tournament_id=tournament.pk, actor=director)


def _check_the_day(tournament: Tournament) -> None:
    places = Counter(
        Entry.objects.filter(tournament=tournament).values_list("final_place", flat=True)
    )
    assert places[1] == 1
    assert places[2] == 1
    assert sum(places.values()) == 32
    assert None not in places
    pools, knockout = tournament.stages.order_by("order")
    rows = Standing.objects.filter(stage=pools)
    assert rows.count() == 32
    assert sorted(Counter(rows.values_list("pool_id", flat=True)).values()) == [4] * 8
    assert sum(rows.values_list("played", flat=True)) == 96
    assert sum(rows.values_list("match_wins", flat=True)) == 48
    assert Standing.objects.filter(stage=knockout).count() == 16
    complete = Match.objects.filter(stage__tournament=tournament, state=Match.State.COMPLETE)
    assert all(m.winner_id in (m.home_id, m.away_id) for m in complete)
    assert all(m.home_games + m.away_games >= 1 for m in complete)


@pytest.mark.django_db
def test_a_32_team_day_played_by_the_simulator(
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[Any]],
) -> None:
    def committing() -> AbstractContextManager[Any]:
        # Runs what would run after each commit: the signal's task, standings, ratings.
        return django_capture_on_commit_callbacks(execute=True)

    def settled(match: Match) -> None:
        match.refresh_from_db()
        assert match.state == Match.State.COMPLETE, match.held_reason

    tournament = _day(committing, settled)
    _check_the_day(tournament)
    assert PlayerRating.objects.filter(matches__gte=3).count() >= 64


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_32_team_day_with_the_real_worker(celery_worker: str) -> None:
    def settled(match: Match) -> None:
        assert wait_for(
            lambda: Match.objects.filter(pk=match.pk, state=Match.State.COMPLETE).exists(),
            timeout=30,
        ), f"the worker did not settle match {match.pk}"

    tournament = _day(nullcontext, settled)

    def standings_done() -> bool:
        return not Stage.objects.filter(tournament=tournament, standings_dirty=True).exists()

    assert wait_for(standings_done, timeout=60)
    _check_the_day(tournament)
    assert wait_for(lambda: PlayerRating.objects.filter(matches__gte=3).count() >= 64, timeout=60)
