"""Standings: stored rows per stage (and pool), derived from match results.

Writers call :func:`standings_touch` inside their transaction: it marks the stage dirty in
the same commit as the result, and after the commit schedules one recompute a moment later.
Many results committed close together find the recompute already scheduled (a cache flag)
and add nothing. The recompute locks the stage row, so it serializes with every writer, and
does its work only while the stage is dirty: running it twice changes nothing. The periodic
full recompute (celery beat) forces a recompute of every running stage.
"""

import logging
from collections.abc import Sequence
from typing import NamedTuple

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from tarabish_site import events, live, metrics
from tarabish_site.cache import UNREACHABLE
from tournaments.algorithms.standings import (
    MatchResult,
    StandingRow,
    TieBreaker,
    standings,
)
from tournaments.models import STANDING_FIELDS, Match, Stage, StageEntry, Standing, Tournament
from tournaments.services._common import algorithm_errors

log = logging.getLogger(__name__)

STANDINGS_DEBOUNCE_SECONDS = 2
"""How long a recompute waits for more results before it runs."""


def _flag(stage_id: int) -> str:
    return f"tournaments:standings-scheduled:{stage_id}"


def standings_touch(*, stage_id: int) -> None:
    """Note, in the caller's transaction, that the results of ``stage_id`` changed."""
    Stage.objects.filter(pk=stage_id).update(standings_dirty=True)
    transaction.on_commit(lambda: standings_schedule(stage_id=stage_id))


def standings_schedule(*, stage_id: int) -> bool:
    """Enqueue one recompute of the stage unless one is already waiting to run.

    Runs after the commit that marked the stage dirty, so nothing here may fail the request:
    without the cache the recompute is enqueued anyway (one per result, none debounced), and
    without the broker the stage stays dirty for the periodic recompute to find."""
    try:
        if not cache.add(_flag(stage_id), 1, timeout=STANDINGS_DEBOUNCE_SECONDS + 60):
            return False
    except UNREACHABLE:
        metrics.CACHE_UNREACHABLE.labels("standings").inc()
    from tournaments.tasks import standings_recompute

    try:
        standings_recompute.apply_async((stage_id,), countdown=STANDINGS_DEBOUNCE_SECONDS)
    except Exception:  # the broker is unreachable: the stage is still dirty
        log.warning(
            "standings of stage %s not scheduled: left to the periodic recompute",
            stage_id,
            exc_info=True,
        )
        _forget_flag(stage_id)
        return False
    return True


def _forget_flag(stage_id: int) -> None:
    try:
        cache.delete(_flag(stage_id))
    except UNREACHABLE:
        metrics.CACHE_UNREACHABLE.labels("standings").inc()


def standings_unschedule(*, stage_id: int) -> None:
    """Called by the task as it starts: results committed from now on schedule a new run."""
    _forget_flag(stage_id)


def tiebreakers_for(stage: Stage) -> tuple[TieBreaker, ...]:
    return tuple(stage.tiebreakers_in_effect)  # type: ignore[arg-type]


class MatchRow(NamedTuple):
    """The columns of a match that standings read (loaded as plain tuples: cheap)."""

    pool_id: int | None
    home_id: int | None
    away_id: int | None
    winner_id: int | None
    state: str
    bye: bool
    home_games: int
    away_games: int
    home_points: int
    away_points: int
    home_baits: int
    away_baits: int


class EntryRow(NamedTuple):
    entry_id: int
    pool_id: int | None
    seed: int


def match_result(match: MatchRow | Match) -> MatchResult | None:
    """The algorithm's view of a finished match; ``None`` if it does not count."""
    if match.home_id is None:
        return None
    if match.state == Match.State.COMPLETE and match.bye:
        return MatchResult(match.home_id, None, winner=match.home_id)
    if match.state != Match.State.COMPLETE or match.away_id is None:
        return None
    return MatchResult(
        home=match.home_id,
        away=match.away_id,
        winner=match.winner_id,
        home_games=match.home_games,
        away_games=match.away_games,
        home_points=match.home_points,
        away_points=match.away_points,
        home_baits=match.home_baits,
        away_baits=match.away_baits,
    )


class PoolTable(NamedTuple):
    pool_id: int | None
    rows: tuple[StandingRow, ...]


def stage_tables(
    stage: Stage,
    stage_entries: Sequence[EntryRow | StageEntry],
    matches: Sequence[MatchRow | Match],
) -> list[PoolTable]:
    """The ordered table of every pool of ``stage`` (one table with pool ``None`` if no pools)."""
    by_pool: dict[int | None, list[int]] = {}
    for se in sorted(stage_entries, key=lambda se: se.seed):
        by_pool.setdefault(se.pool_id, []).append(se.entry_id)
    results: dict[int | None, list[MatchResult]] = {pool: [] for pool in by_pool}
    for match in matches:
        result = match_result(match)
        if result is not None:
            results.setdefault(match.pool_id, []).append(result)
    tables = []
    with algorithm_errors("standings."):
        for pool_id in sorted(by_pool, key=lambda p: (p is not None, p or 0)):
            rows = standings(
                by_pool[pool_id], results.get(pool_id, []), tiebreakers=tiebreakers_for(stage)
            )
            tables.append(PoolTable(pool_id, rows))
    return tables


def stage_tables_load(stage: Stage) -> list[PoolTable]:
    """Compute the tables of ``stage`` from the database (two queries), without storing them."""
    stage_entries = [
        EntryRow._make(values)
        for values in StageEntry.objects.filter(stage=stage).values_list(*EntryRow._fields)
    ]
    matches = [
        MatchRow._make(values)
        for values in Match.objects.filter(stage=stage).values_list(*MatchRow._fields)
    ]
    return stage_tables(stage, stage_entries, matches)


def standings_recompute(*, stage_id: int, force: bool = False) -> bool:
    """Recompute and store the standings of a stage if its results changed (or ``force``).

    Returns whether it recomputed. Runs in a constant number of queries, whatever the
    number of entries.
    """
    with transaction.atomic():
        stage = (
            Stage.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .filter(pk=stage_id)
            .first()
        )
        if stage is None or not (stage.standings_dirty or force):
            return False
        tables = stage_tables_load(stage)
        columns = [name if name != "pool" else "pool_id" for name in STANDING_FIELDS]
        stored = {
            values[0]: values[1:]
            for values in Standing.objects.filter(stage_id=stage.pk).values_list(
                "entry_id", *columns
            )
        }
        rows = [
            Standing(
                stage_id=stage.pk,
                pool_id=table.pool_id,
                entry_id=row.entry,
                **{name: getattr(row, name) for name in STANDING_FIELDS if name != "pool"},
            )
            for table in tables
            for row in table.rows
        ]
        # Only rows that differ are written: a recompute that finds nothing new writes nothing.
        changed = [
            row
            for row in rows
            if stored.get(row.entry_id) != tuple(getattr(row, name) for name in columns)
        ]
        if changed:
            Standing.objects.bulk_create(
                changed,
                update_conflicts=True,
                unique_fields=["stage", "entry"],
                update_fields=list(STANDING_FIELDS),
                batch_size=1000,
            )
        gone = set(stored) - {row.entry_id for row in rows}
        if gone:
            Standing.objects.filter(stage_id=stage.pk, entry_id__in=gone).delete()
        Stage.objects.filter(pk=stage.pk).update(
            standings_dirty=False, standings_computed_at=timezone.now()
        )
        if changed or gone:  # the standings shown moved: the tournament's pages look again
            live.publish(live.TOURNAMENT, stage.tournament.slug, stage=stage.pk)
            events.record(
                events.STANDINGS_CHANGED,
                tournament_id=stage.tournament_id,
                stage=stage.pk,
                name=stage.name,
                standings=[
                    {
                        "entry": row.entry_id,
                        "pool": row.pool_id,
                        "place": row.place,
                        "played": row.played,
                        "match_points": row.match_points,
                        "game_wins": row.game_wins,
                        "game_losses": row.game_losses,
                        "points_difference": row.points_difference,
                    }
                    for row in sorted(rows, key=lambda r: (r.pool_id or 0, r.place))
                ],
            )
        return True


def standings_recompute_all() -> int:
    """The periodic full recompute: every stage of a running tournament. Returns the count."""
    stage_ids = list(
        Stage.objects.filter(
            tournament__status=Tournament.Status.RUNNING,
            status__in=[Stage.Status.RUNNING, Stage.Status.FINISHED],
        ).values_list("pk", flat=True)
    )
    for stage_id in stage_ids:
        standings_recompute(stage_id=stage_id, force=True)
    return len(stage_ids)
