"""Helpers shared by the tournament services: permissions, locks, error mapping."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from tarabish_site.api.errors import Conflict, NotAllowed, ValidationFailed
from tournaments.algorithms.common import AlgorithmError
from tournaments.models import Match, Stage, TableKey, Tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    Actor = User | AnonymousUser | None
else:
    Actor = object


def is_director(tournament: Tournament, actor: "Actor") -> bool:
    """Whether ``actor`` may run ``tournament``: its organiser, a director, or a superuser.

    ``None`` stands for the system itself (Celery tasks, management commands).
    """
    if actor is None:
        return True
    if not actor.is_authenticated:
        return False
    if getattr(actor, "is_superuser", False) or tournament.organiser_id == actor.pk:
        return True
    return tournament.directors.filter(pk=actor.pk).exists()


def require_director(tournament: Tournament, actor: "Actor") -> None:
    if not is_director(tournament, actor):
        raise NotAllowed(f"Only a director of {tournament.name} may do this.")


def kept_by(actor: "Actor", prefix: str) -> Q | None:
    """The condition on matches (``prefix`` leads from the filtered model to the match) that
    ``actor`` keeps score at: every table of a running tournament that names them its
    scorekeeper, and the table of a live table key whose account they are, on the
    tournament's days. None for no account."""
    if actor is None or not actor.is_authenticated:
        return None
    tournament = f"{prefix}stage__tournament"
    key = TableKey.objects.filter(
        account_id=actor.pk,
        revoked_at=None,
        tournament_id=OuterRef(f"{tournament}_id"),
        table=OuterRef(f"{prefix}table"),
        tournament__ends_on__gte=timezone.localdate(),
    )
    running = ~Q(**{f"{tournament}__status": Tournament.Status.FINISHED})
    return running & (Q(**{f"{tournament}__scorekeepers": actor.pk}) | Q(Exists(key)))


def keeps_score_at(match: Match, actor: "Actor") -> bool:
    """Whether ``actor`` keeps score at ``match``'s table as its tournament lets them (a named
    scorekeeper, a table sheet's account), and so starts its next game; one query."""
    kept = kept_by(actor, "")
    return kept is not None and Match.objects.filter(kept, pk=match.pk).exists()


def require_status(tournament: Tournament, *allowed: str, doing: str) -> None:
    if tournament.status not in allowed:
        names = ", ".join(Tournament.Status(s).label.lower() for s in allowed)
        raise Conflict(
            f"Cannot {doing}: {tournament.name} is "
            f"{tournament.get_status_display().lower()}, not {names}.",
            code="wrong_status",
            fields={"status": [f"must be {names}"]},
        )


def require_not_finished(tournament: Tournament) -> None:
    """A finished tournament's results are final: its placements were stored from them."""
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(f"{tournament.name} is finished.", code="finished")


def require_results_open(stage: Stage) -> None:
    """A match's result may still change: its tournament is not finished, and no later stage
    has started from its stage's results (their qualifiers and standings would no longer be
    the ones it started with)."""
    require_not_finished(stage.tournament)
    later = stage.later_stage_started()
    if later is not None:
        raise Conflict(
            f"{later.name} has started from the results of {stage.name}: they stand.",
            code="stage_taken_from",
        )


def invalid(field: str, reason: str, *, code: str = "invalid") -> ValidationFailed:
    return ValidationFailed(f"{field}: {reason}", code=code, fields={field: [reason]})


@contextmanager
def algorithm_errors(prefix: str = "") -> Iterator[None]:
    """Turn an :class:`AlgorithmError` from the pure algorithms into a 400 naming the field."""
    try:
        yield
    except AlgorithmError as exc:
        field = f"{prefix}{exc.field}" if prefix else exc.field
        raise ValidationFailed(exc.message, code=exc.code, fields={field: [exc.message]}) from exc


@contextmanager
def integrity_as_conflict(message: str, *, code: str = "conflict") -> Iterator[None]:
    """A unique constraint that fires under concurrency becomes a 409 with ``message``."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError as exc:
        raise Conflict(message, code=code) from exc
