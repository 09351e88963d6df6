"""Matches: games played in them, results derived from those games, brackets that advance.

Every write here locks the stage row first (``select_for_update``): a stage's matches depend
on one another (a bracket), so changes to them are serialized per stage. The match result is
derived from the scoring games linked to it. When it is decided, its winner and loser move to
the slots it feeds (written on each match when the stage started), byes pass their entry on
and withdrawn entries forfeit as they come up: only the matches on that path are read and
written (:func:`bracket_advance`), so a result costs the same in a bracket of 8 or of 2,048.
A result changed after later matches drew on it (a correction, a reset a director confirmed)
replays the whole bracket with :func:`tournaments.algorithms.bracket.resolve` instead.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q
from django.utils import timezone

from play import services as play_services
from play.models import Table as PlayTable
from scoring import services as scoring_services
from scoring.engine import EngineError, Outcome
from scoring.models import Game, Player, Side, Team
from tarabish_site import events, live
from tarabish_site.api.errors import Conflict, NotAllowed, NotFound, ValidationFailed
from tarabish_site.api.versioning import ensure_version
from tarabish_site.celery import send_on_commit
from tournaments.algorithms.bracket import Bracket, dependents, resolve
from tournaments.algorithms.elimination import double_elimination, single_elimination
from tournaments.algorithms.standings import MatchResult
from tournaments.models import (
    Entry,
    Match,
    MatchGame,
    ResultReport,
    Stage,
    StageEntry,
    Tournament,
)
from tournaments.services._common import (
    Actor,
    algorithm_errors,
    invalid,
    is_director,
    keeps_score_at,
    require_director,
    require_not_finished,
    require_results_open,
)
from tournaments.services.standings import standings_touch
from tournaments.services.tournaments import waiting_promote

State = Match.State
ReportStatus = ResultReport.Status
FINISHED = (State.COMPLETE, State.VOID)
RESULT_FIELDS = [
    "home_id",
    "away_id",
    "state",
    "bye",
    "forfeit",
    "winner_id",
    "home_games",
    "away_games",
    "home_points",
    "away_points",
    "home_baits",
    "away_baits",
    "held_reason",
    "table",
    "version",
    "finished_at",
]


# ------------------------------------------------------------------------------ brackets
def bracket_build(stage: Stage, entry_ids: Sequence[int]) -> Bracket:
    """The bracket of an elimination stage from its entries in seed order (pure, no query)."""
    with algorithm_errors():
        if stage.kind == Stage.Kind.SINGLE_ELIM:
            return single_elimination(list(entry_ids), third_place=stage.third_place)
        return double_elimination(list(entry_ids), grand_final=stage.grand_final)  # type: ignore[arg-type]


def bracket_of(stage: Stage) -> Bracket:
    seeds = (
        StageEntry.objects.filter(stage=stage).order_by("seed").values_list("entry_id", flat=True)
    )
    return bracket_build(stage, list(seeds))


def bracket_results(matches: Iterable[Match]) -> dict[str, int]:
    """``{key: winning slot}`` of the decided matches of a bracket (byes decide themselves)."""
    return {
        m.key: 0 if m.winner_id == m.home_id else 1
        for m in matches
        if m.state == State.COMPLETE and not m.bye and m.winner_id is not None and m.key
    }


def _set_forfeit(match: Match, *, winner_id: int) -> None:
    match.state = State.COMPLETE
    match.forfeit = True
    match.winner_id = winner_id
    match.home_games = match.away_games = 0
    match.home_points = match.away_points = 0
    match.home_baits = match.away_baits = 0
    match.finished_at = timezone.now()
    match.version += 1


def _assign_tables(matches: Iterable[Match], dirty: set[str]) -> None:
    """Give each match that became ready the lowest table number not in use."""
    matches = list(matches)
    in_use = {m.table for m in matches if m.state in (State.READY, State.IN_PROGRESS) and m.table}
    waiting = sorted(
        (m for m in matches if m.state == State.READY and m.table is None),
        key=lambda m: (m.round_id, m.number),
    )
    table = 1
    for match in waiting:
        while table in in_use:
            table += 1
        match.table = table
        in_use.add(table)
        dirty.add(match.key)
    for match in matches:
        if match.state in (State.PENDING, State.VOID) and match.table is not None:
            match.table = None
            dirty.add(match.key)


def bracket_place(bracket: Bracket, matches: dict[str, Match], withdrawn: set[int]) -> set[str]:
    """Put every entry of a bracket where the results of ``matches`` (by key) say, on the
    match objects themselves (no query); withdrawn entries forfeit as they come up. Returns
    the keys of the matches changed."""
    dirty: set[str] = set()
    for _ in range(len(matches) + 1):
        with algorithm_errors():
            state = resolve(bracket, bracket_results(matches.values()))
        forfeited = False
        for key, ms in state.matches.items():
            match = matches[key]
            before = (match.home_id, match.away_id, match.state, match.winner_id, match.bye)
            match.home_id, match.away_id = ms.entries
            if ms.status == "void":
                match.state, match.winner_id = State.VOID, ms.winner
                match.bye = key != bracket.reset_key
            elif ms.status == "pending":
                match.state, match.winner_id, match.bye = State.PENDING, None, False
            elif ms.status == "ready":
                match.bye = False
                if match.state != State.IN_PROGRESS:
                    match.state, match.winner_id = State.READY, None
                quitter = next((e for e in ms.entries if e in withdrawn), None)
                if quitter is not None and match.state == State.READY:
                    other = ms.entries[1] if quitter == ms.entries[0] else ms.entries[0]
                    _set_forfeit(match, winner_id=int(other))  # type: ignore[arg-type]
                    forfeited = True
            if (match.home_id, match.away_id, match.state, match.winner_id, match.bye) != before:
                dirty.add(key)
        if not forfeited:
            break
    _assign_tables(matches.values(), dirty)
    return dirty


def bracket_sync(stage: Stage) -> list[Match]:
    """Put every entry of an elimination stage where the results say (the stage is locked).

    Returns the matches that changed.
    """
    stage_entries = list(
        StageEntry.objects.filter(stage=stage).select_related("entry").order_by("seed")
    )
    bracket = bracket_build(stage, [se.entry_id for se in stage_entries])
    withdrawn = {se.entry_id for se in stage_entries if se.entry.status == Entry.Status.WITHDRAWN}
    matches = {m.key: m for m in Match.objects.filter(stage=stage)}
    dirty = bracket_place(bracket, matches, withdrawn)
    changed = [m for key, m in matches.items() if key in dirty]
    _save_results(changed)
    return changed


def bracket_advance(stage: Stage, match: Match) -> list[Match]:
    """Move the entries of ``match``, just decided, on to the matches it feeds (the stage is
    locked), and on through what follows by itself: a bye passes its entry on, a reset is
    played or not, a withdrawn entry forfeits as it comes up. Only those matches are read
    and written (one query for each step of that chain, none for the rest of the bracket),
    so a result costs the same in any size of bracket. A stage started without the feeds
    written (before they were) is placed whole by :func:`bracket_sync`.

    What it writes is what :func:`bracket_sync` would: the same entries, states and tables.
    Returns the matches changed.
    """
    if match.feeds is None:
        return bracket_sync(stage)
    loaded: dict[str, Match] = {}
    changed: dict[str, Match] = {}
    decided = [match]
    while decided:
        wanted = {f["match"] for d in decided for f in d.feeds or ()} - loaded.keys()
        if wanted:
            loaded.update((m.key, m) for m in Match.objects.filter(stage=stage, key__in=wanted))
        ready: dict[str, Match] = {}
        passing: list[Match] = []
        for source in decided:
            for feed in source.feeds or ():
                target = loaded[feed["match"]]
                passed_before = _passes_on(target)
                if not _advance_into(source, feed, target):
                    continue
                changed[target.key] = target
                if target.state == State.READY:
                    ready[target.key] = target
                if _passes_on(target) and not passed_before:
                    passing.append(target)
        still_ready = [m for m in ready.values() if m.state == State.READY]
        decided = passing + _forfeit_withdrawn(still_ready)
    _tables_for(stage, [m for m in changed.values() if m.state == State.READY and not m.table])
    result = sorted(changed.values(), key=lambda m: (m.round_id, m.number))
    _save_results(result)
    return result


def _advance_into(source: Match, feed: dict[str, Any], target: Match) -> bool:
    """Put what ``feed`` of ``source`` (decided, or a bye that passed its entry on) sends
    into ``target``; whether ``target`` changed."""
    before = (target.home_id, target.away_id, target.state, target.winner_id, target.bye)
    if feed["outcome"] == "decides":  # a grand-final reset: played if the first was lost
        target.home_id, target.away_id = source.home_id, source.away_id
        if source.winner_id == source.home_id:
            target.state, target.winner_id, target.bye = State.VOID, None, False
        else:
            target.state, target.winner_id, target.bye = State.READY, None, False
    else:
        if feed["outcome"] == "winner":
            entry = source.winner_id
        elif source.state == State.VOID:
            entry = None
        else:
            entry = source.away_id if source.winner_id == source.home_id else source.home_id
        if feed["slot"] == 0:
            target.home_id = entry
        else:
            target.away_id = entry
        if target.state == State.VOID:  # a bye: its one entry goes through
            target.winner_id = target.home_id or target.away_id
        elif not feed.get("reset"):
            if target.home_id is None or target.away_id is None:
                target.state, target.winner_id, target.bye = State.PENDING, None, False
            elif target.state != State.IN_PROGRESS:
                target.state, target.winner_id, target.bye = State.READY, None, False
    return (target.home_id, target.away_id, target.state, target.winner_id, target.bye) != before


def _passes_on(match: Match) -> bool:
    """Whether ``match``, just changed, sends an entry on by itself: a bye with its entry."""
    return match.state == State.VOID and match.bye and match.winner_id is not None


def _forfeit_withdrawn(ready: Sequence[Match]) -> list[Match]:
    """Forfeit the matches just ready that a withdrawn entry would play; returns them."""
    if not ready:
        return []
    playing = {e for m in ready for e in (m.home_id, m.away_id)}
    withdrawn = set(
        Entry.objects.filter(pk__in=playing, status=Entry.Status.WITHDRAWN).values_list(
            "pk", flat=True
        )
    )
    forfeited = []
    for match in ready:
        quitter = next((e for e in (match.home_id, match.away_id) if e in withdrawn), None)
        if quitter is not None:
            other = match.away_id if quitter == match.home_id else match.home_id
            _set_forfeit(match, winner_id=int(other))  # type: ignore[arg-type]
            forfeited.append(match)
    return forfeited


def _tables_for(stage: Stage, waiting: Sequence[Match]) -> None:
    """Give the matches just ready the lowest table numbers not in use, in playing order,
    as :func:`bracket_place` does, reading only the tables next to those in use."""
    if not waiting:
        return
    count = len(waiting)
    in_use = Match.objects.filter(
        stage=stage, state__in=[State.READY, State.IN_PROGRESS], table__isnull=False
    )
    # The lowest free numbers lie within ``count`` of 1 or of the first free number after
    # a table in use.
    starts = list(
        in_use.annotate(free=F("table") + 1)
        .exclude(Exists(in_use.filter(table=OuterRef("table") + 1)))
        .order_by("free")
        .values_list("free", flat=True)[:count]
    )
    candidates = {start + step for start in [1, *starts] for step in range(count)}
    taken = set(in_use.filter(table__in=candidates).values_list("table", flat=True))
    free = sorted(candidates - taken)[:count]
    in_order = sorted(waiting, key=lambda m: (m.round_id, m.number))
    for match, table in zip(in_order, free, strict=True):
        match.table = table


def _save_results(matches: Sequence[Match]) -> None:
    """Store the result columns of a few matches (one UPDATE each: cheaper than a CASE)."""
    if len(matches) > 20:
        Match.objects.bulk_update(matches, RESULT_FIELDS, batch_size=200)
        return
    for match in matches:
        Match.objects.filter(pk=match.pk).update(
            **{name: getattr(match, name) for name in RESULT_FIELDS}
        )


# ------------------------------------------------------------------------------ results
#: What a match's result holds besides its entries and winner, as :class:`MatchResult` names it.
RESULT_SUMS = ("home_games", "away_games", "home_points", "away_points", "home_baits", "away_baits")


@dataclass(frozen=True)
class MatchOutcome:
    """Where a match stands as derived from its games (or set by a director): its state, and
    its result in the one shape the standings read (:class:`MatchResult`: entries, winner,
    games, points and baits of each side)."""

    state: str
    result: MatchResult
    forfeit: bool = False
    held_reason: str = ""

    @property
    def winner_id(self) -> int | None:
        return None if self.result.winner is None else int(self.result.winner)


def _result(match: Match, winner: int | None = None, **sums: int) -> MatchResult:
    # 0 stands for a side not known yet (a match waiting for its entries counts nothing).
    return MatchResult(match.home_id or 0, match.away_id, winner, **sums)


def _bait_count(caller_seats: tuple[int, int]) -> Count:
    return Count(
        "game__hands",
        filter=Q(
            game__hands__undone=False,
            game__hands__outcome=Outcome.BAIT.value,
            game__hands__caller__in=caller_seats,
        ),
    )


def match_outcome(match: Match) -> MatchOutcome:
    """What the counted games of ``match`` say: its state, winner and totals (one query)."""
    home_team = match.home.team_id if match.home else None
    games = (
        MatchGame.objects.filter(match=match, discarded=False)
        .values(
            "game_id",
            "game__status",
            "game__winner",
            "game__team_a_id",
            "game__score_a",
            "game__score_b",
        )
        .annotate(baits_a=_bait_count((0, 2)), baits_b=_bait_count((1, 3)))
        .order_by("game_id")
    )
    totals = {"games": [0, 0], "points": [0, 0], "baits": [0, 0]}
    played = finished = 0
    for game in games:
        played += 1
        if game["game__status"] != Game.Status.FINISHED:
            continue
        finished += 1
        home_is_a = game["game__team_a_id"] == home_team
        order = (0, 1) if home_is_a else (1, 0)
        won = 0 if game["game__winner"] == Side.TEAM_A else 1
        totals["games"][order[won]] += 1
        for index, (points, baits) in enumerate(
            ((game["game__score_a"], game["baits_a"]), (game["game__score_b"], game["baits_b"]))
        ):
            totals["points"][order[index]] += max(points, 0)
            totals["baits"][order[index]] += baits
    home_games, away_games = totals["games"]
    home_points, away_points = totals["points"]
    values: dict[str, Any] = {
        "home_games": home_games,
        "away_games": away_games,
        "home_points": home_points,
        "away_points": away_points,
        "home_baits": totals["baits"][0],
        "away_baits": totals["baits"][1],
    }
    winner: int | None = None
    decided = False
    held = ""
    if match.format == Tournament.MatchFormat.BEST_OF:
        need = match.games_planned // 2 + 1
        if home_games >= need or away_games >= need:
            decided = True
            winner = match.home_id if home_games >= need else match.away_id
    elif finished >= match.games_planned:
        key = (home_points - away_points, home_games - away_games)
        if key > (0, 0):
            decided, winner = True, match.home_id
        elif key < (0, 0):
            decided, winner = True, match.away_id
        elif match.stage.is_bracket:
            held = (
                f"Level on points and games after {finished} games: "
                "play one more game to decide the match."
            )
        else:
            decided = True
    if decided:
        return MatchOutcome(State.COMPLETE, _result(match, winner, **values))
    state = State.IN_PROGRESS if played else State.READY
    return MatchOutcome(state, _result(match, None, **values), held_reason=held)


def _reopen_dependents(stage: Stage, match: Match, *, confirm_reset: bool) -> None:
    """Clear what depended on the old result of ``match``; refuse if any was played.

    Every later match with a result or a game (played, being played or awarded by forfeit)
    is re-opened: the hold names them all. A confirmed reset is refused while a game of one
    of them is still being played (that game would go on in a match set back to pending).
    """
    bracket = bracket_of(stage)
    keys = dependents(bracket, match.key)
    later = list(Match.objects.filter(stage=stage, key__in=keys).order_by("round_id", "number"))
    reopened = [m for m in later if m.state in (State.IN_PROGRESS, State.COMPLETE)]
    played = [m for m in reopened if not m.forfeit]
    if played and not confirm_reset:
        message = (
            f"Changing the result of {match.key} would re-open {_reopened_names(reopened)}. "
            "A director must confirm the reset: those results are then set aside."
        )
        raise Conflict(message, code="dependents_played", fields={"confirm_reset": [message]})
    _refuse_reset_while_game_in_progress(match, later)
    reason = f"Result of {match.key} changed; reset confirmed by a director."
    MatchGame.objects.filter(match__in=later, discarded=False).update(
        discarded=True, discarded_reason=reason
    )
    from tournaments.tasks import ratings_update

    for other in later:
        if other.state == State.COMPLETE:
            send_on_commit(ratings_update, other.pk)  # else ratings_repair
        if other.state in (State.IN_PROGRESS, State.COMPLETE):
            other.state = State.PENDING
            other.winner_id = None
            other.forfeit = False
            other.home_games = other.away_games = other.home_points = other.away_points = 0
            other.home_baits = other.away_baits = 0
            other.finished_at = None
            other.held_reason = ""
            other.version += 1
    _save_results(later)


def _reopened_names(reopened: Sequence[Match]) -> str:
    """``"W2-1, L2-2, already played, and L1-3, awarded by forfeit"``."""
    played = ", ".join(m.key for m in reopened if not m.forfeit)
    forfeited = ", ".join(m.key for m in reopened if m.forfeit)
    parts = [f"{played}, already played" if played else ""]
    parts.append(f"{forfeited}, awarded by forfeit" if forfeited else "")
    return ", and ".join(part for part in parts if part)


def _game_being_played(matches: Sequence[Match]) -> MatchGame | None:
    """The first counted game of ``matches`` still being played, with its match, or None."""
    return (
        MatchGame.objects.filter(
            match__in=matches, discarded=False, game__status=Game.Status.IN_PROGRESS
        )
        .select_related("match")
        .order_by("match__round_id", "match__number", "game_id")
        .first()
    )


def _refuse_reset_while_game_in_progress(match: Match, later: Sequence[Match]) -> None:
    """Refuse (409 ``game_in_progress``) to re-open later matches while one of their counted
    games is being played, naming the match and the game."""
    link = _game_being_played(later)
    if link is None:
        return
    message = (
        f"Changing the result of {match.key} would re-open {link.match.key}, whose game "
        f"{link.game_id} is still being played; finish or end that game first."
    )
    raise Conflict(message, code="game_in_progress")


def _apply(stage: Stage, match: Match, outcome: MatchOutcome, *, confirm_reset: bool) -> Match:
    was_complete = match.state == State.COMPLETE
    old_winner = match.winner_id
    reopened = (
        stage.is_bracket
        and was_complete
        and (outcome.state != State.COMPLETE or outcome.winner_id != old_winner)
    )
    if reopened:
        _reopen_dependents(stage, match, confirm_reset=confirm_reset)
    match.state = outcome.state
    match.winner_id = outcome.winner_id
    match.forfeit = outcome.forfeit
    match.held_reason = outcome.held_reason
    for name in RESULT_SUMS:
        setattr(match, name, getattr(outcome.result, name))
    match.finished_at = timezone.now() if outcome.state == State.COMPLETE else None
    match.version += 1
    match.save(update_fields=[f.removesuffix("_id") for f in RESULT_FIELDS if f != "table"])
    if stage.is_bracket and reopened:
        bracket_sync(stage)
    elif stage.is_bracket and outcome.state == State.COMPLETE and not was_complete:
        bracket_advance(stage, match)
    # else nothing moves: a match started, or the same winner with other totals
    if outcome.state == State.COMPLETE and not was_complete:
        _overrule_reports(match, None)
    events.record(
        events.MATCH_RESULT,
        tournament_id=stage.tournament_id,
        **_match_event(stage, match),
        winner=match.winner_id,
        forfeit=match.forfeit,
        **{name: getattr(match, name) for name in RESULT_SUMS},
    )
    standings_touch(stage_id=stage.pk)
    if (outcome.state == State.COMPLETE and not outcome.forfeit) or was_complete:
        # Rates a new result; a changed one is re-rated (the task compares with history).
        from tournaments.tasks import ratings_update

        send_on_commit(ratings_update, match.pk)  # else ratings_repair
    stage_refresh_status(stage)
    return match


def _match_event(stage: Stage, match: Match) -> dict[str, Any]:
    """What every event of a match says of it (see ``tarabish_site.events``)."""
    return {
        "match": match.pk,
        "stage": stage.pk,
        "round": match.round_id,
        "state": match.state,
        "home": match.home_id,
        "away": match.away_id,
        "home_name": match.home_name,
        "away_name": match.away_name,
        "table": match.table,
    }


def stage_holds_results(stage: Stage) -> bool:
    """Whether a match of ``stage`` holds a changed result for a director to confirm or
    dismiss: until then the stage is not over (its results are not the ones it will keep)."""
    return stage.matches.exclude(held_reason="").filter(state__in=FINISHED).exists()


def stage_refresh_status(stage: Stage) -> None:
    """A stage is finished when every match is decided (and every Swiss round paired), and
    none holds a changed result waiting for a director."""
    unfinished = stage.matches.exclude(state__in=FINISHED).exists() or stage_holds_results(stage)
    rounds_left = stage.kind == Stage.Kind.SWISS and (
        stage.rounds.count() < (stage.swiss_rounds or 0)
    )
    if stage.status == Stage.Status.RUNNING and not unfinished and not rounds_left:
        stage.status, stage.finished_at = Stage.Status.FINISHED, timezone.now()
    elif stage.status == Stage.Status.FINISHED and unfinished:
        stage.status, stage.finished_at = Stage.Status.RUNNING, None
    else:
        return
    stage.version += 1
    stage.save(update_fields=["status", "finished_at", "version"])


def _lock(match_id: int) -> tuple[Stage, Match]:
    """Lock the match's stage, then load the match (the stage serializes its matches)."""
    stage_id = Match.objects.filter(pk=match_id).values_list("stage_id", flat=True).first()
    if stage_id is None:
        raise NotFound(f"There is no match {match_id}.")
    stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage_id)
    match = Match.objects.select_related("home__team", "away__team").get(pk=match_id)
    match.stage = stage
    # the match's and the tournament's pages look again once the change commits
    live.publish(live.MATCH, match.pk)
    live.publish(live.TOURNAMENT, stage.tournament.slug)
    return stage, match


def match_sync(*, match_id: int, actor: Actor = None, confirm_reset: bool = False) -> Match:
    """Derive the match result from its games, and advance the bracket if it changed.

    A changed result that would re-open later matches already played raises
    :class:`Conflict` unless ``confirm_reset`` (a director's confirmation).
    """
    if actor is None and not confirm_reset:
        # Most calls change nothing (a hand of a game still being played, a repeated
        # signal): find that out without taking the stage lock.
        current = Match.objects.select_related("stage", "home", "away").filter(pk=match_id).first()
        if current is not None and _unchanged(current):
            return current
    with transaction.atomic():
        stage, match = _lock(match_id)
        if actor is not None:
            require_director(stage.tournament, actor)
        if match.forfeit or match.bye or match.state == State.VOID:
            return match
        outcome = match_outcome(match)
        if _same(match, outcome):
            if match.held_reason != outcome.held_reason:
                match.held_reason = outcome.held_reason
                match.save(update_fields=["held_reason"])
                stage_refresh_status(stage)
            return match
        return _apply(stage, match, outcome, confirm_reset=confirm_reset)


def _unchanged(match: Match) -> bool:
    if match.forfeit or match.bye or match.state == State.VOID:
        return True
    outcome = match_outcome(match)
    return _same(match, outcome) and match.held_reason == outcome.held_reason


def _same(match: Match, outcome: MatchOutcome) -> bool:
    return (
        match.state == outcome.state
        and match.winner_id == outcome.winner_id
        and all(getattr(match, name) == getattr(outcome.result, name) for name in RESULT_SUMS)
    )


def match_sync_for_game(*, game_id: int) -> Match | None:
    """After a game's result changed: update its match, if it belongs to one.

    When the change would re-open later matches already played, the match keeps its result
    and says why in ``held_reason`` until a director confirms the reset.

    Scoring says so only when a game's result may have changed (a game that ended, was
    corrected, reopened, undone or ruled on), never for a hand that leaves a game running, so
    a game in progress here may be one that no longer counts as won: the match is recounted.

    The game's recorded result changes (:class:`scoring.models.ResultChange`) are deleted in
    the same transaction as the match's update, so they go only once it is done: a call lost
    on its way is made again by scoring's periodic delivery. Running it twice changes nothing.
    """
    with scoring_services.result_changes_taken_in(game_id):
        link = MatchGame.objects.filter(game_id=game_id, discarded=False).values("match_id").first()
        if link is None:
            return None
        return _match_sync_or_hold(link["match_id"])


def _match_sync_or_hold(match_id: int) -> Match | None:
    try:
        return match_sync(match_id=match_id)
    except Conflict as exc:
        with transaction.atomic():
            stage, match = _lock(match_id)
            match.held_reason = exc.message[:400]
            match.save(update_fields=["held_reason"])
            # A held result keeps the stage running: nothing may finish on the old result.
            stage_refresh_status(stage)
        return None


def matches_repair() -> list[int]:
    """The periodic safety net: every match of a running tournament whose counted games say
    something else than it shows (its update was lost: the broker was down, a worker died) is
    updated as :func:`match_sync_for_game` would have. Returns the ids of the matches set
    right. One query per match with games; a match that agrees is only read."""
    match_ids = list(
        Match.objects.filter(
            stage__tournament__status=Tournament.Status.RUNNING,
            state__in=[State.READY, State.IN_PROGRESS, State.COMPLETE],
            forfeit=False,
            bye=False,
            match_games__discarded=False,
        )
        .order_by("stage_id", "round_id", "number")
        .values_list("pk", flat=True)
        .distinct()
    )
    repaired = []
    for match_id in match_ids:
        current = Match.objects.select_related("stage", "home", "away").get(pk=match_id)
        if _unchanged(current):
            continue
        _match_sync_or_hold(match_id)
        repaired.append(match_id)
    return repaired


def match_reset_confirm(
    *,
    match_id: int,
    actor: Actor,
    expected_version: int,
    end_game_id: int | None = None,
) -> Match:
    """A director confirms a held result change: later matches re-open, results set aside.

    A match that holds no change (no note, or its games say what it already shows) has
    nothing to confirm: :class:`Conflict`, and the match is left as it is.

    ``end_game_id``: the game of a later match still being played that the confirmation page
    named (:func:`match_reset_blocked_by`); it is ended early and the change confirmed in one
    transaction. If another game blocks the reset by then, or none does, :class:`Conflict`
    (``game_changed``) and nothing changes.
    """
    with transaction.atomic():
        stage, match = _lock(match_id)
        require_director(stage.tournament, actor)
        require_results_open(stage)
        ensure_version(current=match.version, expected=expected_version, thing="match")
        if not _holds_a_change(match):
            raise Conflict(f"Match {match} holds no result change to confirm.", code="nothing_held")
        if end_game_id is not None:
            blocking = match_reset_blocked_by(match)
            if blocking is None or blocking.game_id != end_game_id:
                message = (
                    f"Game {end_game_id} is no longer the game that must end before this "
                    "change: look at the match again."
                )
                raise Conflict(message, code="game_changed", fields={"end_game": [message]})
            scoring_services.game_end_early(
                game=blocking.game,
                by=actor if actor is not None and actor.is_authenticated else None,
                reason=f"Ended to confirm the changed result of {match.key}.",
            )
        return match_sync(match_id=match_id, actor=actor, confirm_reset=True)


def match_reset_blocked_by(match: Match) -> MatchGame | None:
    """The game of a later match, still being played, that must end before the change
    ``match`` holds can be confirmed (confirming re-opens that match), with its match and
    game; None when nothing blocks it."""
    stage = match.stage
    if not stage.is_bracket or not match.key:
        return None
    keys = dependents(bracket_of(stage), match.key)
    link = _game_being_played(list(Match.objects.filter(stage=stage, key__in=keys)))
    if link is not None:
        link.game = Game.objects.get(pk=link.game_id)
    return link


def _holds_a_change(match: Match) -> bool:
    """Whether ``match`` keeps a result its games no longer give, waiting for a director."""
    if not match.held_reason or match.forfeit or match.bye or match.state == State.VOID:
        return False
    return not _same(match, match_outcome(match))


def match_forfeit(
    *,
    match_id: int,
    actor: Actor,
    loser_id: int,
    expected_version: int,
    confirm_reset: bool = False,
    overturn_result: bool = False,
) -> Match:
    """A director awards the match to the other entry (a no-show, a team that left).

    A match already decided by play keeps its result: a forfeit over it is refused
    (:class:`Conflict`, ``decided_by_play``) unless ``overturn_result`` says the director
    overturns the played result, whose games are then set aside (kept, not counted). A match
    being played, or awarded by forfeit already, is forfeited as asked. ``confirm_reset``
    confirms that later matches the result decided, already played, are re-opened.
    """
    with transaction.atomic():
        stage, match = _lock(match_id)
        require_director(stage.tournament, actor)
        require_results_open(stage)
        ensure_version(current=match.version, expected=expected_version, thing="match")
        if match.home_id is None or match.away_id is None or match.bye:
            raise Conflict(
                "Only a match with both entries known can be forfeited.", code="not_ready"
            )
        if loser_id not in (match.home_id, match.away_id):
            raise invalid("loser", f"entry {loser_id} does not play this match.")
        _refuse_if_game_in_progress(match)
        decided = match.state == State.COMPLETE and not match.forfeit
        if decided and not overturn_result:
            raise _decided_by_play(match)
        winner = match.away_id if loser_id == match.home_id else match.home_id
        outcome = MatchOutcome(State.COMPLETE, _result(match, winner), forfeit=True)
        forfeited = _apply(stage, match, outcome, confirm_reset=confirm_reset)
        if decided:
            MatchGame.objects.filter(match=match, discarded=False).update(
                discarded=True, discarded_reason="Result overturned: match awarded by forfeit."
            )
        return forfeited


def _decided_by_play(match: Match) -> Conflict:
    """The refusal of a forfeit over a result decided by play, saying what was played and
    how to overturn it anyway."""
    home, away = match.home_name, match.away_name
    if match.winner_id is None:
        result = f"{home} and {away} drew it"
    else:
        won, lost = (home, away) if match.winner_id == match.home_id else (away, home)
        games = sorted((match.home_games, match.away_games), reverse=True)
        result = f"{won} beat {lost} {games[0]}-{games[1]} on games"
    reason = (
        f"the match was decided by play ({result}): a forfeit would overturn that result. "
        "To award it by forfeit all the same, use the forfeit that overturns the played "
        "result (its games are then set aside); to change the result of play, correct the "
        "hands of its games instead."
    )
    return Conflict(
        reason[0].upper() + reason[1:], code="decided_by_play", fields={"overturn_result": [reason]}
    )


# ------------------------------------------------------------------------------ games
def _refuse_if_game_in_progress(match: Match) -> None:
    """Refuse (409 ``game_in_progress``) to start another game of ``match`` or decide it by
    forfeit while one of its counted games is still being played: that game would go on
    after the match, and could finish with the other side winning."""
    if _game_being_played([match]) is not None:
        message = "A game of this match is still being played; finish or end it first."
        raise Conflict(message, code="game_in_progress")


def match_game_start(
    *,
    match_id: int,
    actor: Actor,
    seats: Sequence[int] | None = None,
    first_dealer: int | None = None,
) -> MatchGame:
    """Start the next game of a match: a scoring game with the tournament's ruleset.

    The home entry's team sits as team A (seats 0 and 2). ``seats`` optionally gives the
    four player ids clockwise.
    """
    with transaction.atomic():
        stage, match = _lock(match_id)
        tournament = stage.tournament
        if not is_director(tournament, actor) and not keeps_score_at(match, actor):
            raise NotAllowed(
                f"Only a director of {tournament.name} or the scorekeeper of the match's "
                "table may start its game."
            )
        home, away, seat_players, substitutes = _next_game_seats(match, seats)
        user = actor if actor is not None and actor.is_authenticated else None
        game = scoring_services.game_create(
            team_a=home.team,
            team_b=away.team,
            seats=seat_players,
            ruleset=tournament.ruleset,
            ruleset_preset=tournament.ruleset_preset or None,
            first_dealer=first_dealer,
            table=f"Table {match.table}" if match.table else "",
            created_by=user,
            scorekeepers=_directors_of(tournament),
            substitutes=substitutes,
            public=tournament.public,
        )
        return _link_game(match, game)


def _next_game_seats(
    match: Match, seats: Sequence[int] | None
) -> tuple[Entry, Entry, list[Player] | None, dict[int, Team]]:
    """Refuse a next game the match cannot have now (its tournament over, the match not
    ready or a game of it still being played); its two entries, the players of ``seats``
    (ids clockwise, or None for the teams' own order) and the substitutes among them."""
    tournament = match.stage.tournament
    require_not_finished(tournament)
    if match.state not in (State.READY, State.IN_PROGRESS) or match.home is None:
        raise Conflict(
            f"Match {match} is {match.get_state_display().lower()}: no game can start.",
            code="match_not_ready",
        )
    assert match.away is not None  # noqa: S101 - a ready match has both entries
    _refuse_if_game_in_progress(match)
    if seats is None:
        return match.home, match.away, None, {}
    found = Player.objects.in_bulk(list(seats))
    missing = [pid for pid in seats if pid not in found]
    if missing:
        raise invalid("seats", f"there is no player {missing[0]}.")
    substitutes = _substitutes_seated(match, seats) if tournament.substitutes_allowed else {}
    return match.home, match.away, [found[pid] for pid in seats], substitutes


def _link_game(match: Match, game: Game) -> MatchGame:
    """``game`` counts as the match's next game; a match not yet begun is now under way."""
    number = match.match_games.count() + 1
    link = MatchGame.objects.create(match=match, game=game, number=number)
    if match.state == State.READY:
        match.state = State.IN_PROGRESS
        match.started_at = match.started_at or timezone.now()
        match.version += 1
        match.save(update_fields=["state", "started_at", "version"])
        events.record(
            events.MATCH_STARTED,
            tournament_id=match.stage.tournament_id,
            **_match_event(match.stage, match),
            game=game.pk,
        )
    return link


def match_game_record_totals(
    *,
    match_id: int,
    actor: Actor,
    home_points: int,
    away_points: int,
    winner_id: int | None = None,
    seats: Sequence[int] | None = None,
) -> MatchGame:
    """Record the match's next game, played on paper, by its final totals only (a quick
    result): a finished scoring game without hands, marked totals-only, whose result the
    match takes at once as it takes any finished game's (and standings and ratings after it).

    A director may; the scorekeeper of the match's table only if the tournament allows it
    (``quick_results_by_scorekeepers``). ``winner_id`` (an entry of the match) is needed only
    when the totals cannot say who won (both over the target under the caller's rule).
    """
    with transaction.atomic():
        stage, match = _lock(match_id)
        tournament = stage.tournament
        if not is_director(tournament, actor) and not (
            tournament.quick_results_by_scorekeepers and keeps_score_at(match, actor)
        ):
            allowed = (
                "or the scorekeeper of the match's table "
                if tournament.quick_results_by_scorekeepers
                else ""
            )
            raise NotAllowed(
                f"Only a director of {tournament.name} {allowed}may record a game by its "
                "final totals.",
                code="quick_result_not_allowed",
            )
        # a result recorded by a director settles any the players reported themselves
        _overrule_reports(match, actor)
        return match_game_record_totals_locked(
            match=match,
            actor=actor,
            home_points=home_points,
            away_points=away_points,
            winner_id=winner_id,
            seats=seats,
        )


def _overrule_reports(match: Match, actor: Actor) -> None:
    """The match's reported results still open are overruled: its result came another way
    (a director's quick result or forfeit, games played hand by hand)."""
    ResultReport.objects.filter(
        match=match, status__in=[ReportStatus.PENDING, ReportStatus.DISPUTED]
    ).update(
        status=ReportStatus.OVERRULED,
        decided_by=actor if actor is not None and actor.is_authenticated else None,
        decided_at=timezone.now(),
    )


def match_game_record_totals_locked(
    *,
    match: Match,
    actor: Actor,
    home_points: int,
    away_points: int,
    winner_id: int | None = None,
    seats: Sequence[int] | None = None,
) -> MatchGame:
    """The writing half of :func:`match_game_record_totals`, for a caller that has locked
    ``match`` (:func:`_lock`) and decided that ``actor`` may record it (a confirmed
    :class:`~tournaments.models.ResultReport` is recorded this way)."""
    tournament = match.stage.tournament
    home, away, seat_players, substitutes = _next_game_seats(match, seats)
    if winner_id is not None and winner_id not in (match.home_id, match.away_id):
        raise invalid("winner", f"entry {winner_id} does not play this match.")
    side = None
    if winner_id is not None:
        side = Side.TEAM_A if winner_id == match.home_id else Side.TEAM_B
    user = actor if actor is not None and actor.is_authenticated else None
    try:
        game = scoring_services.game_record_totals(
            team_a=home.team,
            team_b=away.team,
            totals=(home_points, away_points),
            winner=side,
            seats=seat_players,
            ruleset=tournament.ruleset,
            ruleset_preset=tournament.ruleset_preset or None,
            table=f"Table {match.table}" if match.table else "",
            created_by=user,
            scorekeepers=_directors_of(tournament),
            substitutes=substitutes,
            public=tournament.public,
        )
    except EngineError as exc:
        # the engine names the totals by team; the match names them by side
        raise _quick_result_refusal(exc, match, side) from exc
    link = _link_game(match, game)
    match_sync(match_id=match.pk)
    link.match.refresh_from_db()
    return link


def match_game_correct_totals(
    *,
    match_id: int,
    number: int,
    actor: Actor,
    home_points: int,
    away_points: int,
    reason: str,
    winner_id: int | None = None,
    expected_version: int,
) -> Match:
    """A director corrects game ``number`` of the match, recorded by its final totals (a quick
    result): new totals, or a new winner when the totals cannot say. The match follows as it
    follows a corrected hand: a changed winner whose later matches were already played is
    held, naming them, until a director confirms the reset (:func:`match_reset_confirm`).
    ``expected_version`` is the match's version as the director read it (412 if it moved)."""
    with transaction.atomic():
        stage, match = _lock(match_id)
        require_director(stage.tournament, actor)
        require_results_open(stage)
        ensure_version(current=match.version, expected=expected_version, thing="match")
        link = (
            MatchGame.objects.filter(match=match, number=number, discarded=False)
            .select_related("game")
            .first()
        )
        if link is None:
            raise NotFound(f"Match {match} has no game {number}.")
        if winner_id is not None and winner_id not in (match.home_id, match.away_id):
            raise invalid("winner", f"entry {winner_id} does not play this match.")
        side = None
        if winner_id is not None:
            side = Side.TEAM_A if winner_id == match.home_id else Side.TEAM_B
        try:
            scoring_services.game_correct_totals(
                game=link.game,
                totals=(home_points, away_points),
                winner=side,
                reason=reason,
                by=actor if actor is not None and actor.is_authenticated else None,
            )
        except EngineError as exc:
            raise _quick_result_refusal(exc, match, side) from exc
        _match_sync_or_hold(match.pk)
    match.refresh_from_db()
    return match


#: The engine's names for the final totals, as the match names them (home is team A).
_TOTALS_FIELDS = {
    "totals.0": ("home_points",),
    "totals.1": ("away_points",),
    "totals": ("home_points", "away_points"),
}


def _quick_result_refusal(error: EngineError, match: Match, named: str | None) -> ValidationFailed:
    """The engine's refusal of final totals, named as the match names its sides (``named``:
    the side given as the winner)."""
    message = error.message
    if error.code == "wrong_winner":
        # the winner named is not the one the totals give: the other side is
        won = match.away_name if named == Side.TEAM_A else match.home_name
        message = (
            f"the totals say {won} won: a team under the target, or with the lower total "
            "when both are over, did not win"
        )
    names = _TOTALS_FIELDS.get(error.field or "", (error.field or "totals",))
    return ValidationFailed(message, code=error.code, fields={name: [message] for name in names})


def match_game_start_online(*, match_id: int, actor: Actor) -> MatchGame:
    """Start the next game of a match to be played online: the game as
    :func:`match_game_start` makes it, at a private table for the two entries' players
    (``play``; the table of the match's game before, where its people still sit, or a new
    one), where the first dealer is flipped for. Its hands are stored as
    the score-pad's are, so the match, the bracket and the standings follow it alike."""
    with transaction.atomic():
        link = match_game_start(match_id=match_id, actor=actor)
        match = link.match
        before = PlayTable.objects.filter(game__match_link__match=match).order_by("-pk").first()
        play_services.table_for_game(
            game=link.game,
            by=actor,
            name=f"{match.stage.tournament.name}: match {match.number}, game {link.number}",
            table=before,
        )
        return link


def _substitutes_seated(match: Match, seats: Sequence[int]) -> dict[int, Team]:
    """The registered substitutes among ``seats``, each mapped to the team they sit in for:
    the team of the entry that registered them, by the seats that team holds (home sits at
    0 and 2). Anyone else is left for the game's own seat check to refuse."""
    assert match.home is not None  # noqa: S101 - a ready match has both entries
    assert match.away is not None  # noqa: S101
    subs: dict[int, Team] = {}
    for entry, team_seats in ((match.home, (0, 2)), (match.away, (1, 3))):
        registered = set(entry.substitutes.values_list("pk", flat=True))
        for seat in team_seats:
            if seat < len(seats) and seats[seat] in registered:
                subs[seats[seat]] = entry.team
    return subs


def _directors_of(tournament: Tournament) -> list[Any]:
    """The tournament's organiser and directors: they keep score in every game of its matches."""
    users = list(tournament.directors.all())
    if tournament.organiser is not None and all(u.pk != tournament.organiser_id for u in users):
        users.append(tournament.organiser)
    return users


# ------------------------------------------------------------------------------ withdrawal
def entry_withdraw(
    *, entry_id: int, actor: Actor, forfeit_remaining: bool = True, note: str = ""
) -> Entry:
    """Withdraw an entry mid-event.

    Its unfinished matches are forfeited to the opponents (``forfeit_remaining``) or set
    aside as not played. Bracket matches are always forfeited, now and as the entry comes
    up later, since a bracket needs a winner; Swiss rounds no longer pair it.
    """
    with transaction.atomic():
        entry = (
            Entry.objects.select_related("tournament", "team")
            .select_for_update()
            .filter(pk=entry_id)
            .first()
        )
        if entry is None:
            raise NotFound(f"There is no entry {entry_id}.")
        tournament = entry.tournament
        require_director(tournament, actor)
        require_not_finished(tournament)
        if entry.status == Entry.Status.WITHDRAWN:
            raise Conflict(f"{entry.team} has already withdrawn.", code="already_withdrawn")
        was_playing = entry.status == Entry.Status.ACTIVE
        entry.status = Entry.Status.WITHDRAWN
        entry.withdrawn_at = timezone.now()
        entry.withdrawal_note = note[:300]
        entry.version += 1
        entry.save(update_fields=["status", "withdrawn_at", "withdrawal_note", "version"])
        stages = Stage.objects.select_for_update().filter(
            tournament=tournament, status=Stage.Status.RUNNING, stage_entries__entry=entry
        )
        for stage in stages.order_by("order"):
            open_matches = list(
                Match.objects.filter(stage=stage, state__in=[State.READY, State.IN_PROGRESS])
                .filter(Q(home=entry) | Q(away=entry))
                .exclude(bye=True)
            )
            for match in open_matches:
                if stage.is_bracket or forfeit_remaining:
                    other = match.away_id if match.home_id == entry.pk else match.home_id
                    _set_forfeit(match, winner_id=int(other))  # type: ignore[arg-type]
                else:
                    match.state = State.VOID
                    match.finished_at = timezone.now()
                    match.version += 1
            _save_results(open_matches)
            if stage.is_bracket:
                bracket_sync(stage)
            standings_touch(stage_id=stage.pk)
            stage_refresh_status(stage)
        if was_playing:
            # before play starts, its place goes to the first team waiting for one
            waiting_promote(tournament=tournament)
        return entry


def match_hold_clear(*, match_id: int, actor: Actor) -> Match:
    """Dismiss the note on a held match (the director keeps the result as it stands)."""
    with transaction.atomic():
        stage, match = _lock(match_id)
        require_director(stage.tournament, actor)
        match.held_reason = ""
        match.save(update_fields=["held_reason"])
        stage_refresh_status(stage)
        return match


__all__ = [
    "bracket_advance",
    "bracket_build",
    "bracket_of",
    "bracket_place",
    "bracket_results",
    "bracket_sync",
    "entry_withdraw",
    "match_forfeit",
    "match_game_record_totals",
    "match_game_record_totals_locked",
    "match_game_start",
    "match_hold_clear",
    "match_outcome",
    "match_reset_blocked_by",
    "match_reset_confirm",
    "match_sync",
    "match_sync_for_game",
    "stage_holds_results",
    "stage_refresh_status",
]
