"""Results the players report themselves, confirmed by the other team (two-party confirmation).

Where a tournament asks for it (``results_confirmed_by_both``), a signed-in player of either
team of a match reports its result: each game by its final totals, as a director records a
quick result. The report counts for nothing (bracket, standings, ratings) while it waits. A
player of the other team confirms it, or disputes it with a reason; a director confirms a
waiting or disputed report, or records the right result instead (overruling it). A confirmed
report's games are recorded exactly as a director's quick results are
(:func:`~tournaments.services.matches.match_game_record_totals_locked`), so the match, the
bracket, standings and ratings follow it as they follow any game. The reporting team may
withdraw its report while it waits.

A report is checked when it is made by recording its games and rolling them back: totals the
rules refuse, or games that do not decide the match, are refused then, not at confirmation.
Every write locks the match's stage; one open report per match is a unique constraint, and a
race it catches is a 409.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from scoring.models import Player
from tarabish_site.api.errors import Conflict, NotAllowed, NotFound
from tournaments.models import Match, ResultReport, Stage
from tournaments.services._common import (
    Actor,
    integrity_as_conflict,
    invalid,
    is_director,
    require_not_finished,
    require_results_open,
)
from tournaments.services.matches import _lock, match_game_record_totals_locked

if TYPE_CHECKING:
    from django.contrib.auth.models import User

Status = ResultReport.Status
Side = ResultReport.Side
OPEN = (Status.PENDING, Status.DISPUTED)
#: The most games a report holds: a best of nine.
GAMES_MAX = 9


@dataclass(frozen=True)
class ReportedGame:
    """One game of a report, by its final totals (``winner``: an entry of the match, needed
    only when the totals cannot say who won)."""

    home_points: int
    away_points: int
    winner: int | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "home_points": self.home_points,
            "away_points": self.away_points,
            "winner": self.winner,
        }


def match_side_of(match: Match, actor: Actor) -> str | None:
    """The side (home or away) whose team ``actor``'s player plays on in ``match``; None for
    anyone else (no account, no player, or a player of neither team)."""
    if actor is None or not actor.is_authenticated or match.home is None or match.away is None:
        return None
    player_id = Player.objects.filter(user_id=actor.pk).values_list("pk", flat=True).first()
    if player_id is None:
        return None
    if player_id in match.home.team.player_ids:
        return Side.HOME
    if player_id in match.away.team.player_ids:
        return Side.AWAY
    return None


def _signed_in(actor: Actor) -> User:
    if actor is None or not actor.is_authenticated:
        raise NotAllowed("Sign in to report a result.", code="sign_in_to_report")
    return actor


def _require_setting(match: Match) -> None:
    tournament = match.stage.tournament
    if not tournament.results_confirmed_by_both:
        raise Conflict(
            f"In {tournament.name} the players do not report results: a director or the "
            "table's scorekeeper records them.",
            code="reports_off",
        )


def _require_player(match: Match, actor: Actor) -> str:
    side = match_side_of(match, actor)
    if side is None:
        raise NotAllowed(
            f"Only a player of {match.home_name} or {match.away_name} may do this.",
            code="not_player_of_match",
        )
    return side


def _record(match_id: int, games: Sequence[ReportedGame], actor: Actor) -> Match:
    """Record ``games`` as the match's next games (the stage is locked); the match after."""
    for game in games:
        _stage, match = _lock(match_id)
        match_game_record_totals_locked(
            match=match,
            actor=actor,
            home_points=game.home_points,
            away_points=game.away_points,
            winner_id=game.winner,
        )
    _stage, match = _lock(match_id)
    return match


class _DryRun(Exception):
    """Not an error: raised to roll a check's writes back."""


def _check_games(match: Match, games: Sequence[ReportedGame], actor: Actor) -> None:
    """Refuse ``games`` unless recording them would be accepted and decide the match: they
    are recorded, looked at, and rolled back."""
    if not games:
        raise invalid("games", "report at least one game.")
    if len(games) > GAMES_MAX:
        raise invalid("games", f"a match is at most {GAMES_MAX} games.")
    for number, game in enumerate(games, start=1):
        if game.winner is not None and game.winner not in (match.home_id, match.away_id):
            raise invalid("games", f"game {number}: entry {game.winner} does not play this match.")
    try:
        with transaction.atomic():
            after = _record(match.pk, games[:-1], actor)
            if after.state != Match.State.IN_PROGRESS and len(games) > 1:
                raise invalid(
                    "games", f"the match is decided after game {len(games) - 1}: report fewer."
                )
            after = _record(match.pk, games[-1:], actor)
            if after.state != Match.State.COMPLETE:
                raise invalid(
                    "games", "these games do not decide the match: report every game played."
                )
            raise _DryRun
    except _DryRun:
        return


def result_report_create(
    *, match_id: int, actor: Actor, games: Sequence[ReportedGame]
) -> ResultReport:
    """A player of one of the match's teams reports its result, game by game; it waits for
    the other team (or a director) to confirm it."""
    user = _signed_in(actor)
    with transaction.atomic():
        stage, match = _lock(match_id)
        _require_setting(match)
        side = _require_player(match, actor)
        require_not_finished(stage.tournament)
        if match.state not in (Match.State.READY, Match.State.IN_PROGRESS) or match.home is None:
            raise Conflict(
                f"Match {match} is {match.get_state_display().lower()}: no result can be reported.",
                code="match_not_ready",
            )
        if match.match_games.filter(discarded=False).exists():
            raise Conflict(
                f"Match {match} has games recorded already: a director records the rest.",
                code="match_not_ready",
            )
        open_report = match.result_reports.filter(status__in=OPEN).first()
        if open_report is not None:
            raise Conflict(
                f"Match {match} already has a result waiting: confirm, dispute or withdraw it.",
                code="report_open",
            )
        _check_games(match, games, actor)
        with integrity_as_conflict(
            f"Match {match} already has a result waiting.", code="report_open"
        ):
            return ResultReport.objects.create(
                match=match,
                games=[g.as_json() for g in games],
                side=side,
                reported_by=user,
            )


def _locked_report(report_id: int) -> tuple[Stage, Match, ResultReport]:
    match_id = ResultReport.objects.filter(pk=report_id).values_list("match_id", flat=True).first()
    if match_id is None:
        raise NotFound(f"There is no result report {report_id}.")
    stage, match = _lock(match_id)
    report = ResultReport.objects.select_for_update().get(pk=report_id)
    report.match = match
    return stage, match, report


def _require_status(report: ResultReport, *allowed: str, doing: str) -> None:
    if report.status not in allowed:
        raise Conflict(
            f"This report is {report.get_status_display().lower()}: it cannot be {doing}.",
            code="report_not_pending",
        )


def result_report_confirm(*, report_id: int, actor: Actor) -> ResultReport:
    """A player of the other team confirms a waiting report, or a director a waiting or
    disputed one: its games are recorded as a director's quick results are, and count."""
    user = _signed_in(actor)
    with transaction.atomic():
        stage, match, report = _locked_report(report_id)
        director = is_director(stage.tournament, actor)
        if not director:
            _require_setting(match)
            side = _require_player(match, actor)
            if side == report.side:
                raise NotAllowed(
                    "Your own team reported this result: a player of the other team or a "
                    "director confirms it.",
                    code="own_side_report",
                )
            _require_status(report, Status.PENDING, doing="confirmed")
        else:
            _require_status(report, *OPEN, doing="confirmed")
        require_results_open(stage)
        report.status = Status.CONFIRMED
        report.decided_by = user
        report.decided_at = timezone.now()
        report.save(update_fields=["status", "decided_by", "decided_at"])
        games = [ReportedGame(**game) for game in report.games]
        _record(match.pk, games, actor)
        return report


def result_report_dispute(*, report_id: int, actor: Actor, reason: str) -> ResultReport:
    """A player of the other team disputes a waiting report, saying why: a director decides."""
    user = _signed_in(actor)
    reason = reason.strip()
    with transaction.atomic():
        _stage, match, report = _locked_report(report_id)
        side = _require_player(match, actor)
        if side == report.side:
            raise NotAllowed(
                "Your own team reported this result: withdraw it instead.",
                code="own_side_report",
            )
        _require_status(report, Status.PENDING, doing="disputed")
        if not reason:
            raise invalid("reason", "say what is wrong with this result.")
        report.status = Status.DISPUTED
        report.dispute_reason = reason[:500]
        report.disputed_by = user
        report.disputed_at = timezone.now()
        report.save(update_fields=["status", "dispute_reason", "disputed_by", "disputed_at"])
        return report


def result_report_withdraw(*, report_id: int, actor: Actor) -> ResultReport:
    """A player of the team that reported it withdraws a waiting report."""
    user = _signed_in(actor)
    with transaction.atomic():
        _stage, match, report = _locked_report(report_id)
        side = _require_player(match, actor)
        if side != report.side:
            raise NotAllowed(
                "Only the team that reported this result may withdraw it: dispute it instead.",
                code="not_reporting_side",
            )
        _require_status(report, Status.PENDING, doing="withdrawn")
        report.status = Status.WITHDRAWN
        report.decided_by = user
        report.decided_at = timezone.now()
        report.save(update_fields=["status", "decided_by", "decided_at"])
        return report


__all__ = [
    "ReportedGame",
    "match_side_of",
    "result_report_confirm",
    "result_report_create",
    "result_report_dispute",
    "result_report_withdraw",
]
