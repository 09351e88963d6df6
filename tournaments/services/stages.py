"""Stages: creating them, starting them (pools, Swiss, brackets), pairing Swiss rounds,
advancing from one stage to the next, and finishing the tournament with final placements."""

import string
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext

from tarabish_site import events, live
from tarabish_site.api.errors import Conflict, NotFound
from tournaments.algorithms.bracket import feed_lists, resolve, round_names
from tournaments.algorithms.dutch import dutch_pair
from tournaments.algorithms.elimination import final_placements
from tournaments.algorithms.round_robin import round_robin_pools
from tournaments.algorithms.seeding import pool_qualifiers
from tournaments.algorithms.standings import TIEBREAKERS
from tournaments.algorithms.swiss import swiss_pair, swiss_round_count, swiss_teams
from tournaments.models import (
    POOLS_MAX,
    QUALIFIERS_PER_POOL_MAX,
    SWISS_ROUNDS_MAX,
    Entry,
    Match,
    Pool,
    Round,
    Stage,
    StageEntry,
    Tournament,
    TournamentEvent,
)
from tournaments.services._common import (
    Actor,
    algorithm_errors,
    invalid,
    require_director,
    require_not_finished,
    require_status,
)
from tournaments.services.bulk_write import rows_insert
from tournaments.services.matches import (
    FINISHED,
    bracket_build,
    bracket_place,
    bracket_results,
    stage_refresh_status,
)
from tournaments.services.standings import (
    PoolTable,
    stage_tables_load,
    standings_recompute,
    standings_touch,
)
from tournaments.services.tournaments import check_match_format, entries_close_up

Kind = Stage.Kind
TStatus = Tournament.Status


def _lock_tournament(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(f"There is no tournament {tournament_id}.")
    live.publish(live.TOURNAMENT, tournament.slug)  # its pages look again after the commit
    return tournament


def _lock_stage(stage_id: int) -> tuple[Tournament, Stage]:
    tournament_id = (
        Stage.objects.filter(pk=stage_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        raise NotFound(f"There is no stage {stage_id}.")
    tournament = _lock_tournament(tournament_id)
    stage = Stage.objects.select_for_update().get(pk=stage_id)
    stage.tournament = tournament
    return tournament, stage


def stage_create_check(
    *,
    tournament: Tournament,
    actor: Actor,
    kind: str,
    pool_count: int,
    legs: int,
    swiss_rounds: int | None,
    third_place: bool,
    grand_final: str,
    qualifiers_per_pool: int | None,
    tiebreakers: Sequence[str],
    match_format: str,
    match_games: int | None,
    swiss_pairing: str = Stage.SwissPairing.DUTCH,
) -> int:
    """The checks of :func:`stage_create` (also run by the admin's add form before it calls
    the service). Returns the order of the tournament's last stage (0 for none)."""
    require_director(tournament, actor)
    require_not_finished(tournament)
    if kind not in Kind.values:
        raise invalid("kind", f"must be one of {', '.join(Kind.values)}.")
    if pool_count < 1:
        raise invalid("pool_count", "must be at least 1.")
    if kind != Kind.ROUND_ROBIN and pool_count != 1:
        raise invalid("pool_count", "only round-robin stages are played in pools.")
    if pool_count > POOLS_MAX:
        raise invalid("pool_count", f"at most {POOLS_MAX} pools (Pool A to Pool Z).")
    if legs not in (1, 2) or (legs == 2 and kind != Kind.ROUND_ROBIN):
        raise invalid("legs", "1, or 2 for a double round robin.")
    if swiss_rounds is not None and (kind != Kind.SWISS or swiss_rounds < 1):
        raise invalid("swiss_rounds", "only a Swiss stage has a number of rounds (at least 1).")
    if swiss_rounds is not None and swiss_rounds > SWISS_ROUNDS_MAX:
        raise invalid("swiss_rounds", f"at most {SWISS_ROUNDS_MAX} rounds.")
    if swiss_pairing not in Stage.SwissPairing.values:
        raise invalid("swiss_pairing", f"must be one of {', '.join(Stage.SwissPairing.values)}.")
    if third_place and kind != Kind.SINGLE_ELIM:
        raise invalid("third_place", "only single elimination has a third-place match.")
    if grand_final not in Stage.GrandFinal.values:
        raise invalid("grand_final", f"must be one of {', '.join(Stage.GrandFinal.values)}.")
    unknown = [t for t in tiebreakers if t not in TIEBREAKERS]
    if unknown or len(set(tiebreakers)) != len(tiebreakers):
        reason = (
            f"unknown tie-breaker {unknown[0]!r}; choose from {', '.join(TIEBREAKERS)}."
            if unknown
            else "lists a tie-breaker twice."
        )
        raise invalid("tiebreakers", reason)
    if match_format or match_games is not None:
        check_match_format(
            match_format or tournament.match_format, match_games or tournament.match_games
        )
    last = tournament.stages.aggregate(last=Max("order"))["last"] or 0
    if qualifiers_per_pool is not None and (last == 0 or qualifiers_per_pool < 1):
        raise invalid(
            "qualifiers_per_pool", "only a stage after another takes qualifiers (at least 1)."
        )
    if qualifiers_per_pool is not None and qualifiers_per_pool > QUALIFIERS_PER_POOL_MAX:
        raise invalid(
            "qualifiers_per_pool", f"at most {QUALIFIERS_PER_POOL_MAX} entries of each pool."
        )
    return int(last)


def _default_name(order: int, kind: str) -> str:
    """A stage's name when the director gives none, in the language of the request making it
    (the director's): "Stage 2: Single elimination"."""
    return gettext("Stage %(number)d: %(kind)s") % {"number": order, "kind": Kind(kind).label}


@transaction.atomic
def stage_create(
    *,
    tournament_id: int,
    actor: Actor,
    kind: str,
    name: str = "",
    pool_count: int = 1,
    legs: int = 1,
    swiss_rounds: int | None = None,
    third_place: bool = False,
    grand_final: str = Stage.GrandFinal.RESET,
    qualifiers_per_pool: int | None = None,
    tiebreakers: Sequence[str] = (),
    match_format: str = "",
    match_games: int | None = None,
    swiss_pairing: str = Stage.SwissPairing.DUTCH,
) -> Stage:
    """Add a stage after the tournament's last one.

    ``match_format`` and ``match_games`` override the tournament's match format for this
    stage's matches (e.g. single games in the pools, best of three in the knockout).
    """
    tournament = _lock_tournament(tournament_id)
    last = stage_create_check(
        tournament=tournament,
        actor=actor,
        kind=kind,
        pool_count=pool_count,
        legs=legs,
        swiss_rounds=swiss_rounds,
        third_place=third_place,
        grand_final=grand_final,
        qualifiers_per_pool=qualifiers_per_pool,
        tiebreakers=tiebreakers,
        match_format=match_format,
        match_games=match_games,
        swiss_pairing=swiss_pairing,
    )
    return Stage.objects.create(
        tournament=tournament,
        order=last + 1,
        name=name or _default_name(last + 1, kind),
        kind=kind,
        pool_count=pool_count,
        legs=legs,
        swiss_rounds=swiss_rounds,
        third_place=third_place,
        grand_final=grand_final if kind == Kind.DOUBLE_ELIM else Stage.GrandFinal.RESET,
        qualifiers_per_pool=qualifiers_per_pool,
        tiebreakers=list(tiebreakers),
        match_format=match_format,
        match_games=match_games,
        swiss_pairing=swiss_pairing,
    )


def _rank_key(table_place: int, row: Any) -> tuple[int, int, int, int, int]:
    """Order across pools: place in pool, then match points, difference, points, seed."""
    return (table_place, -row.match_points, -row.points_difference, -row.points_for, row.seed)


def _qualifiers(previous: Stage, per_pool: int | None) -> list[int]:
    """Entries of ``previous`` that go on, in seed order for the next stage.

    With ``per_pool`` the first of each pool go through, seeded place by place so that pool
    mates do not meet at once; without it every entry goes on, ranked across the pools.
    """
    tables: list[PoolTable] = stage_tables_load(previous)
    withdrawn = set(
        Entry.objects.filter(
            stage_entries__stage=previous, status=Entry.Status.WITHDRAWN
        ).values_list("pk", flat=True)
    )
    rows = [[row for row in table.rows if row.entry not in withdrawn] for table in tables]
    if per_pool is not None:
        with algorithm_errors("qualifiers_"):
            chosen = pool_qualifiers([[row.entry for row in table] for table in rows], per_pool)
        return [int(entry) for entry in chosen]
    ranked = sorted(
        (_rank_key(index, row), int(row.entry)) for table in rows for index, row in enumerate(table)
    )
    return [entry for _, entry in ranked]


def _entrants(stage: Stage) -> list[int]:
    previous = (
        Stage.objects.filter(tournament=stage.tournament, order__lt=stage.order)
        .order_by("-order")
        .first()
    )
    if previous is None and not stage.tournament.check_in_required:
        # No check-in: every team registered plays, its seed closed up.
        entries_close_up(tournament=stage.tournament)
    if previous is None:
        # Check-in processed: every active entry is checked in and seeded. Before, a stage
        # would start with the entries that happened to be seeded at registration only.
        waiting = stage.tournament.entries.filter(status=Entry.Status.ACTIVE).filter(
            Q(seed__isnull=True) | Q(checked_in=False)
        )
        count = waiting.count()
        if count:
            raise Conflict(
                f"{count} active entries are not checked in and seeded yet: process "
                "check-in first (teams that did not check in are then left out).",
                code="check_in_not_processed",
            )
        seeded = list(
            stage.tournament.entries.filter(status=Entry.Status.ACTIVE, seed__isnull=False)
            .order_by("seed")
            .values_list("pk", flat=True)
        )
        if len(seeded) < 2:
            raise Conflict(
                "Fewer than two seeded, active entries: process check-in first.",
                code="too_few_entries",
            )
        return seeded
    if previous.status != Stage.Status.FINISHED:
        raise Conflict(
            f"{previous.name} is not finished: every match must be decided first.",
            code="previous_stage_running",
        )
    entrants = _qualifiers(previous, stage.qualifiers_per_pool)
    if len(entrants) < 2:
        raise Conflict(f"{previous.name} leaves fewer than two entries.", code="too_few_entries")
    return entrants


def _match(stage: Stage, rnd: Round, number: int, **values: Any) -> Match:
    tournament = stage.tournament
    return Match(
        stage=stage,
        round=rnd,
        number=number,
        format=stage.match_format or tournament.match_format,
        games_planned=stage.match_games or tournament.match_games,
        **values,
    )


def _start_round_robin(stage: Stage, entrants: list[int]) -> None:
    with algorithm_errors():
        pools = round_robin_pools(entrants, pool_count=stage.pool_count, legs=stage.legs)
    letters = string.ascii_uppercase
    pool_rows = Pool.objects.bulk_create(
        [
            Pool(stage=stage, number=p.number, name=f"Pool {letters[(p.number - 1) % 26]}")
            for p in pools
        ]
    )
    pool_by_number = {p.number: p for p in pool_rows}
    seed_of = {entry: seed for seed, entry in enumerate(entrants, start=1)}
    StageEntry.objects.bulk_create(
        [
            StageEntry(stage=stage, entry_id=e, pool=pool_by_number[p.number], seed=seed_of[int(e)])
            for p in pools
            for e in p.entries
        ]
    )
    round_count = max(len(p.rounds) for p in pools)
    rounds = Round.objects.bulk_create(
        [Round(stage=stage, number=n, name=f"Round {n}") for n in range(1, round_count + 1)]
    )
    matches: list[Match] = []
    for index, rnd in enumerate(rounds):
        board = 0
        for pool in pools:
            if index >= len(pool.rounds):
                continue
            for pairing in pool.rounds[index].pairings:
                board += 1
                matches.append(
                    _match(
                        stage,
                        rnd,
                        board,
                        pool=pool_by_number[pool.number],
                        home_id=pairing.home,
                        away_id=pairing.away,
                        table=board,
                        state=Match.State.READY,
                    )
                )
    Match.objects.bulk_create(matches)


def _pair_swiss_round(stage: Stage, number: int) -> Round:
    stage_entries = list(StageEntry.objects.filter(stage=stage).select_related("entry"))
    active = {se.entry_id for se in stage_entries if se.entry.status != Entry.Status.WITHDRAWN}
    tables = stage_tables_load(stage)
    rows = [row for table in tables for row in table.rows if row.entry in active]
    if len(rows) < 2:
        raise Conflict("Fewer than two entries are left to pair.", code="too_few_entries")
    pair = dutch_pair if stage.swiss_pairing == Stage.SwissPairing.DUTCH else swiss_pair
    with algorithm_errors():
        paired = pair(swiss_teams(rows))
    rnd = Round.objects.create(stage=stage, number=number, name=f"Round {number}")
    matches = [
        _match(
            stage,
            rnd,
            board,
            home_id=p.home,
            away_id=p.away,
            table=board,
            state=Match.State.READY,
        )
        for board, p in enumerate(paired.pairings, start=1)
    ]
    if paired.bye is not None:
        matches.append(
            _match(
                stage,
                rnd,
                len(matches) + 1,
                home_id=paired.bye,
                bye=True,
                state=Match.State.COMPLETE,
                winner_id=paired.bye,
                finished_at=timezone.now(),
            )
        )
    Match.objects.bulk_create(matches)
    return rnd


def _start_swiss(stage: Stage, entrants: list[int]) -> None:
    StageEntry.objects.bulk_create(
        [StageEntry(stage=stage, entry_id=e, seed=seed) for seed, e in enumerate(entrants, 1)]
    )
    if stage.swiss_rounds is None:
        with algorithm_errors():
            stage.swiss_rounds = swiss_round_count(len(entrants))
    _pair_swiss_round(stage, 1)


SIDE_OF = {"winners": Round.Side.WINNERS, "losers": Round.Side.LOSERS, "final": Round.Side.FINAL}


def _start_bracket(stage: Stage, entrants: list[int]) -> None:
    rows_insert(
        StageEntry,
        [StageEntry(stage=stage, entry_id=e, seed=seed) for seed, e in enumerate(entrants, 1)],
    )
    bracket = bracket_build(stage, entrants)
    names = round_names(bracket)
    rounds = Round.objects.bulk_create(
        [
            Round(stage=stage, side=SIDE_OF[side], number=number, name=name)
            for (side, number), name in names.items()
        ]
    )
    round_of = {(r.side, r.number): r for r in rounds}
    feeds = feed_lists(bracket)
    matches = {
        m.key: _match(
            stage,
            round_of[(SIDE_OF[m.side], m.round)],
            m.number,
            key=m.key,
            home_source={**m.slots[0].as_json(), "label": m.slots[0].label()},
            away_source={**m.slots[1].as_json(), "label": m.slots[1].label()},
            feeds=feeds[m.key],
        )
        for m in bracket.matches
    }
    # Placed before they are written (byes through, first matches ready at their tables):
    # one INSERT, where writing them first and placing them after rewrote every row.
    bracket_place(bracket, matches, withdrawn=set())
    rows_insert(Match, list(matches.values()))


@transaction.atomic
def stage_start(*, stage_id: int, actor: Actor) -> Stage:
    """Start a stage: its entrants (checked-in entries, or the qualifiers of the stage before),
    their pools, rounds and matches."""
    tournament, stage = _lock_stage(stage_id)
    require_director(tournament, actor)
    allowed = [TStatus.CHECK_IN, TStatus.RUNNING]
    if not tournament.check_in_required:
        allowed += [TStatus.DRAFT, TStatus.REGISTRATION]
    require_status(tournament, *allowed, doing="start a stage")
    if stage.status != Stage.Status.PENDING:
        raise Conflict(f"{stage.name} has already started.", code="already_started")
    entrants = _entrants(stage)
    if stage.kind == Kind.ROUND_ROBIN:
        _start_round_robin(stage, entrants)
    elif stage.kind == Kind.SWISS:
        _start_swiss(stage, entrants)
    else:
        _start_bracket(stage, entrants)
    stage.status = Stage.Status.RUNNING
    stage.started_at = timezone.now()
    stage.version += 1
    stage.save()
    if tournament.status != TStatus.RUNNING:
        tournament.status = TStatus.RUNNING
        tournament.version += 1
        tournament.save(update_fields=["status", "version", "updated_at"])
    standings_touch(stage_id=stage.pk)
    stage_refresh_status(stage)
    return stage


@transaction.atomic
def swiss_round_pair(*, stage_id: int, actor: Actor) -> Round:
    """Pair the next round of a Swiss stage once every match of the current one is decided."""
    tournament, stage = _lock_stage(stage_id)
    require_director(tournament, actor)
    if stage.kind != Kind.SWISS:
        raise Conflict(f"{stage.name} is not a Swiss stage.", code="not_swiss")
    played = stage.rounds.count()
    if stage.status != Stage.Status.PENDING and played >= (stage.swiss_rounds or 0):
        raise Conflict(
            f"All {stage.swiss_rounds} rounds of {stage.name} are paired.", code="rounds_done"
        )
    if stage.status != Stage.Status.RUNNING:
        raise Conflict(f"{stage.name} is not running.", code="stage_not_running")
    if stage.matches.exclude(state__in=[Match.State.COMPLETE, Match.State.VOID]).exists():
        raise Conflict(f"Round {played} still has matches to play.", code="round_unfinished")
    rnd = _pair_swiss_round(stage, played + 1)
    standings_touch(stage_id=stage.pk)
    stage_refresh_status(stage)
    return rnd


@transaction.atomic
def stage_advance(*, tournament_id: int, actor: Actor) -> Stage:
    """Start the next stage with the qualifiers of the one just finished (pools -> knockout)."""
    tournament = _lock_tournament(tournament_id)
    require_director(tournament, actor)
    upcoming = tournament.stages.filter(status=Stage.Status.PENDING).order_by("order").first()
    if upcoming is None:
        raise Conflict(f"{tournament.name} has no stage left to start.", code="no_next_stage")
    previous = tournament.stages.filter(order__lt=upcoming.order).order_by("-order").first()
    if previous is not None:
        standings_recompute(stage_id=previous.pk, force=True)
    return stage_start(stage_id=upcoming.pk, actor=actor)


def _placements(tournament: Tournament) -> dict[int, int]:
    stages = list(tournament.stages.order_by("-order"))
    places: dict[int, int] = {}
    for stage in stages:
        if stage.status != Stage.Status.FINISHED:
            continue
        if stage.is_bracket and not places:
            entries = list(
                StageEntry.objects.filter(stage=stage)
                .order_by("seed")
                .values_list("entry_id", flat=True)
            )
            bracket = bracket_build(stage, entries)
            with algorithm_errors():
                state = resolve(bracket, bracket_results(stage.matches.all()))
                for placement in final_placements(bracket, state):
                    places[int(placement.entry)] = placement.place
            continue
        ranked = sorted(
            (
                (_rank_key(index, row), int(row.entry))
                for table in stage_tables_load(stage)
                for index, row in enumerate(table.rows)
            ),
        )
        start = len(places)
        for offset, (_, entry) in enumerate(e for e in ranked if e[1] not in places):
            places[entry] = start + offset + 1
    return places


@transaction.atomic
def tournament_finish(*, tournament_id: int, actor: Actor) -> Tournament:
    """Finish the tournament once every stage is played, and store final placements."""
    tournament = _lock_tournament(tournament_id)
    require_director(tournament, actor)
    require_status(tournament, TStatus.RUNNING, doing="finish the tournament")
    held = list(
        Match.objects.filter(stage__tournament=tournament, state__in=FINISHED)
        .exclude(held_reason="")
        .select_related("stage")
        .order_by("stage__order", "round_id", "number")
    )
    if held:
        names = ", ".join(f"{m.stage.name} {m.key or m.number}" for m in held)
        raise Conflict(
            f"Cannot finish: a changed result waits for a director ({names}). Confirm the "
            "reset or keep the result first.",
            code="results_held",
            fields={"matches": [f"match {m.pk}: {m.held_reason}" for m in held]},
        )
    unfinished = list(tournament.stages.exclude(status=Stage.Status.FINISHED))
    if unfinished:
        names = ", ".join(s.name for s in unfinished)
        raise Conflict(
            f"Cannot finish: {names} not finished.",
            code="stages_unfinished",
            fields={
                "stages": [f"{s.name} is {s.get_status_display().lower()}" for s in unfinished]
            },
        )
    places = _placements(tournament)
    entries = list(tournament.entries.all())
    for entry in entries:
        entry.final_place = places.get(entry.pk)
    Entry.objects.bulk_update(entries, ["final_place"])
    for stage in tournament.stages.all():
        standings_recompute(stage_id=stage.pk, force=True)
    tournament.status = TStatus.FINISHED
    tournament.finished_at = timezone.now()
    tournament.version += 1
    tournament.save(update_fields=["status", "finished_at", "version", "updated_at"])
    user = actor if actor is not None and actor.is_authenticated else None
    TournamentEvent.objects.create(
        tournament=tournament, kind=TournamentEvent.Kind.FINISHED, by=user
    )
    events.record(
        events.TOURNAMENT_FINISHED,
        tournament_id=tournament.pk,
        name=tournament.name,
        finished_at=tournament.finished_at,
        places=[
            {"entry": entry.pk, "team": entry.team_id, "place": entry.final_place}
            for entry in sorted(entries, key=lambda e: (e.final_place is None, e.final_place, e.pk))
        ],
    )
    if tournament.events.filter(kind=TournamentEvent.Kind.REOPENED).exists():
        # Finished again after a reopening: results changed since may have been rated in
        # another order, so the whole tournament is brought in line (only what changed moves).
        from tournaments.tasks import ratings_update_tournament

        ratings_update_tournament.delay_on_commit(tournament.pk)
    return tournament


@transaction.atomic
def tournament_reopen(*, tournament_id: int, actor: Actor, reason: str) -> Tournament:
    """Reopen a finished tournament, saying why (kept in its history).

    Its results may be corrected again: a changed result is held, and re-opens later
    matches once confirmed, as during play. Its final places are cleared until it is
    finished again, which places the teams anew and re-rates what changed.
    """
    tournament = _lock_tournament(tournament_id)
    require_director(tournament, actor)
    require_status(tournament, TStatus.FINISHED, doing="reopen the tournament")
    reason = reason.strip()
    if not reason:
        raise invalid("reason", "say why the tournament is reopened (kept in its history).")
    if len(reason) > 500:
        raise invalid("reason", "at most 500 characters.")
    tournament.entries.update(final_place=None)
    tournament.status = TStatus.RUNNING
    tournament.finished_at = None
    tournament.version += 1
    tournament.save(update_fields=["status", "finished_at", "version", "updated_at"])
    user = actor if actor is not None and actor.is_authenticated else None
    TournamentEvent.objects.create(
        tournament=tournament, kind=TournamentEvent.Kind.REOPENED, reason=reason, by=user
    )
    return tournament
