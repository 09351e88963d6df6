"""Who may do what in the scoring API.

Anyone may read public games, their hands and disputes; a private game is seen only by its
scorekeepers and directors (the views answer 404 to anyone else, see
:func:`scoring.services.user_can_see`). Writing needs an account: anyone signed in may add
players and teams and start a game (they become its scorekeeper); only a game's scorekeepers
and directors may write to that game; only its directors reopen it and rule on its disputes
(a tournament's directors direct the games of its matches, staff and holders of the
``scoring.direct_games`` permission every game). The
decisions themselves are the services' (who counts as a scorekeeper or a director is
:func:`scoring.services.user_can_keep_score` and :func:`~scoring.services.user_can_direct`).
"""

from typing import TYPE_CHECKING

from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAuthenticatedOrReadOnly

from scoring.models import Game, MisplayDispute
from scoring.services import user_can_direct, user_can_keep_score

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView


class ReadAnyoneWriteSignedIn(IsAuthenticatedOrReadOnly):
    """Reads for anyone; writes for signed-in accounts (the schema says reads need no token)."""


class GameScorekeeper(ReadAnyoneWriteSignedIn):
    """Writes to a game (its hands, its actions, its disputes) need its scorekeeper or a
    director. Views check it against the game with ``check_object_permissions``."""

    message = "Only the scorekeepers of this game or a director may change it."

    def has_object_permission(self, request: "Request", view: "APIView", obj: object) -> bool:
        if request.method in SAFE_METHODS:
            return True
        game = obj if isinstance(obj, Game) else getattr(obj, "game", None)
        return isinstance(game, Game) and user_can_keep_score(request.user, game)


class Director(BasePermission):
    """Directors of the game acted on only: reopening a game, ruling on a dispute. Views check
    it against the game (or the dispute) with ``check_object_permissions``."""

    message = "Only a director may do this."

    def has_permission(self, request: "Request", view: "APIView") -> bool:
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: "Request", view: "APIView", obj: object) -> bool:
        if isinstance(obj, MisplayDispute):
            obj = obj.hand.game
        return isinstance(obj, Game) and user_can_direct(request.user, obj)
