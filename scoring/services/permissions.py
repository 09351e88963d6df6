"""Who may do what to a game: follow it, keep its score, direct it, change its hands;
and what another app (a tournament) says about a game it runs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.dispatch import Signal

from scoring import signals
from scoring.models import Game, Player
from tarabish_site.api.errors import Conflict

if TYPE_CHECKING:
    from scoring.services._common import AnyUser


DIRECT_PERMISSION = "scoring.direct_games"


def user_can_direct(user: AnyUser | None, game: Game | None = None) -> bool:
    """Whether ``user`` is a director (reopens games, rules on disputes, corrects the hands of
    finished games): of every game, or with ``game``, of that one.

    Directors of every game are staff accounts and accounts given the ``scoring.direct_games``
    permission. Another app may make someone the director of some games only (a tournament's
    directors direct its match games): it is asked through ``signals.game_directed_by``, only
    when a game is given and the user directs no game otherwise.
    """
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if getattr(user, "is_staff", False):
        return True
    has_perm = getattr(user, "has_perm", None)
    if has_perm is not None and has_perm(DIRECT_PERMISSION):
        return True
    if game is None or game.pk is None:
        return False
    answers = signals.game_directed_by.send(sender=Game, game=game, user=user)
    return any(bool(answer) for _receiver, answer in answers)


def user_can_keep_score(user: AnyUser | None, game: Game) -> bool:
    """Whether ``user`` may write to ``game``: one of its scorekeepers, or its director.

    The cheapest answers come first (the game's creator and staff need no query; a
    scorekeeper one; the director permission two, and a director of the game's tournament one
    more), since every hand entered asks this. Last, another app is asked through
    ``signals.game_kept_by`` (a tournament's scorekeepers, a table sheet's account).
    """
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if game.created_by_id == user.pk or getattr(user, "is_staff", False):
        return True
    if game.scorekeepers.filter(pk=user.pk).exists() or user_can_direct(user, game):
        return True
    if game.pk is None:
        return False
    answers = signals.game_kept_by.send(sender=Game, game=game, user=user)
    return any(bool(answer) for _receiver, answer in answers)


def game_owner_page(game: Game) -> str:
    """The page of the app that runs ``game`` (a tournament match), or "" for a game of its own:
    the first answer to :data:`scoring.signals.game_owner_page`."""
    return _first_answer(signals.game_owner_page, game)


def _first_answer(signal: Signal, game: Game) -> str:
    """The first answer a receiver of ``signal`` gives about ``game``, as text, or ""."""
    for _receiver, answer in signal.send(sender=Game, game=game):
        if answer:
            return str(answer)
    return ""


def game_owner_next(game: Game) -> str:
    """What follows ``game``, over, in the app that runs it (its match's next game, or the
    match or its stage over), in words for the way back there; "" for a game of its own: the
    first answer to :data:`scoring.signals.game_owner_next`."""
    return _first_answer(signals.game_owner_next, game)


def game_owner_warning(game: Game) -> str:
    """What the app that runs ``game`` warns its score-pad of, in words, or "": the first
    answer to :data:`scoring.signals.game_owner_warning`."""
    return _first_answer(signals.game_owner_warning, game)


def hand_change_refused_why(user: AnyUser | None, game: Game) -> str:
    """Why ``user`` may not correct or dispute the hands of ``game``, in words for them, or ""
    when they may: a running game's scorekeepers and directors, a finished game's directors
    (a change can undo or change its result), while no other app holds its result as final."""
    if game.status == Game.Status.ABANDONED:
        return f"game {game.pk} was ended early: a director reopens it before its hands change"
    if game.status == Game.Status.IN_PROGRESS:
        if user_can_keep_score(user, game):
            return ""
        return "only this game's scorekeepers and directors change its hands"
    if not user_can_direct(user, game):
        return (
            f"game {game.pk} is finished: only a director corrects or disputes its hands, "
            "since that can change its result"
        )
    return result_final_why(game)


def user_can_see(user: AnyUser | None, game: Game) -> bool:
    """Whether ``user`` may follow ``game``: anyone a public game, and a private one only its
    scorekeepers and directors (who may write to it) and the people who play in it (the
    accounts of its four seated players)."""
    return game.public or user_can_keep_score(user, game) or plays_in(user, game)


def plays_in(user: AnyUser | None, game: Game) -> bool:
    """Whether ``user``'s account is linked to one of the players seated in ``game``."""
    if user is None or not user.is_authenticated:
        return False
    return Player.objects.filter(pk__in=game.seat_ids, user_id=user.pk).exists()


def result_final_why(game: Game) -> str:
    """Why another app holds ``game``'s result as final (a finished tournament's match games, or
    a stage's once a later stage started from its results), or "": asked through
    ``signals.game_result_final``."""
    return _first_answer(signals.game_result_final, game)


def refuse_if_result_final(game: Game) -> None:
    """Refuse (409) a change to a game whose result another app holds as final (see
    :func:`result_final_why`)."""
    message = result_final_why(game)
    if message:
        raise Conflict(message, code="result_final", fields={"game": [message]})
