"""Helpers shared by the scoring services: the game row locked for a write, the
refusals every act on a game makes, and the games this process last entered a hand to."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models

from scoring.models import Game, Side
from scoring.services import results
from scoring.services.permissions import refuse_if_result_final, user_can_direct
from tarabish_site import live
from tarabish_site.api.errors import NotAllowed, NotFound, PreconditionFailed, ValidationFailed
from tarabish_site.api.versioning import IF_MATCH

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User

    AnyUser = AbstractBaseUser | AnonymousUser


SIDES = (Side.TEAM_A, Side.TEAM_B)


def _required_text(value: str, field: str, what: str, max_length: int | None = None) -> str:
    text = (value or "").strip()
    if not text:
        raise ValidationFailed(f"{what} is required", fields={field: [f"{what} is required"]})
    if max_length is not None and len(text) > max_length:
        message = f"{what} is at most {max_length} characters"
        raise ValidationFailed(message, fields={field: [message]})
    return text


def _game_for_update(game: Game | int) -> Game:
    """The game row, locked until the end of the transaction; the pages watching the game are
    told to look again once the change commits (nothing is sent if it rolls back)."""
    pk = game.pk if isinstance(game, Game) else game
    found = Game.objects.select_for_update().filter(pk=pk).first()
    if found is None:
        raise NotFound(f"game {pk} does not exist")
    refuse_if_result_final(found)
    live.publish(live.GAME, pk)
    return found


def _copy_model(source: models.Model, target: object) -> None:
    """Let the caller's object see what the service wrote (no query)."""
    if target is source or not isinstance(target, type(source)):
        return
    for field in source._meta.concrete_fields:
        setattr(target, field.attname, getattr(source, field.attname))


_copy_state = _copy_model


def _on_commit_result_changed(game_id: int) -> None:
    """The result of ``game_id`` changed in this transaction: recorded with it, and
    announced once it commits (see :mod:`scoring.services.results`)."""
    results.result_changed(game_id)


def _refuse_unless_director(by: User | None, game: Game, doing: str) -> None:
    """Acts of ``game``'s directors: ``by`` None is the service itself (tasks, demo, tournament
    manager)."""
    if by is not None and not user_can_direct(by, game):
        message = f"only a director may {doing}"
        raise NotAllowed(message, code="director_only", fields={"by": [message]})


def _refuse_if_changed(game: Game, expected_version: int | None) -> None:
    """Refuse an act on a game that changed since the actor read it (a hand another score-pad
    entered, say): 412 with the version each side has. ``None`` is a caller that read nothing
    and acts on the game as it is (a task, the demo, a director's bulk action)."""
    _refuse_stale(f"game {game.pk}", game.version, expected_version, "do this")


def _refuse_stale(what: str, version: int, expected_version: int | None, doing: str) -> None:
    """412 (named at ``If-Match``) when ``what`` is at ``version`` but was read at another."""
    if expected_version is not None and version != expected_version:
        message = (
            f"{what} changed since you read it: it is at version {version}, you acted on "
            f"version {expected_version}. Look at it again before you {doing}."
        )
        raise PreconditionFailed(message, fields={IF_MATCH: [message]})


def _refuse_unless_running(game: Game, doing: str) -> None:
    if game.status != Game.Status.IN_PROGRESS:
        state = "finished" if game.status == Game.Status.FINISHED else "ended early"
        message = f"game {game.pk} is {state}: {doing} is not possible"
        if game.status == Game.Status.FINISHED:
            message += " unless a director reopens it"
        raise ValidationFailed(message, code="game_over", fields={"game": [message]})
