"""Play matches in tests with chosen winners, through the real services."""

from __future__ import annotations

from scoring import services as scoring_services
from scoring.models import Game
from tests.scoring.factories import summary
from tournaments.models import Match
from tournaments.services import match_game_start, match_sync


def win_game(match: Match, winner: str = "home", seats: list[int] | None = None) -> Game:
    """Start the match's next game (with ``seats``, the four players clockwise, when given) and
    enter hands that the ``winner`` side calls and makes."""
    link = match_game_start(match_id=match.pk, actor=None, first_dealer=0, seats=seats)
    game = link.game
    caller, points = (0, [140, 22]) if winner == "home" else (1, [22, 140])
    while game.status == Game.Status.IN_PROGRESS:
        scoring_services.hand_record(
            game=game, entry_kind="summary", entry=summary(caller=caller, card_points=points)
        )
        game.refresh_from_db()
    return game


def win_match(match: Match, winner: str = "home") -> Match:
    """Win games for ``winner`` until the match is decided; return the refreshed match."""
    for _ in range(9):
        match.refresh_from_db()
        if match.state == Match.State.COMPLETE or match.held_reason:
            break
        win_game(match, winner)
        match_sync(match_id=match.pk)
    match.refresh_from_db()
    return match


def ready_matches(stage_id: int) -> list[Match]:
    return list(
        Match.objects.filter(stage_id=stage_id, state=Match.State.READY).order_by(
            "round_id", "number"
        )
    )
