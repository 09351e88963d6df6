"""Play matches in tests with chosen winners, through the real services."""

from __future__ import annotations

from scoring import services as scoring_services
from scoring.models import Game, Hand
from tests.scoring.factories import summary
from tests.tournaments.factories import add_stage, tournament_ready
from tournaments.models import Match, Tournament
from tournaments.services import match_game_start, match_sync, stage_start, standings_recompute


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


def tournament_played(entries: int = 4) -> Tournament:
    """A running tournament with a round robin whose matches are all played and a single
    elimination after it, one of whose hands is corrected and whose last hand of one game was
    undone and entered again: every kind of row an export or a backup must carry."""
    tournament = tournament_ready(entries)
    pools = add_stage(tournament, "round_robin")
    stage_start(stage_id=pools.pk, actor=tournament.organiser)
    for match in Match.objects.filter(stage=pools).order_by("round_id", "number"):
        win_match(match, "home" if match.number % 2 else "away")
    first = Hand.objects.filter(game__match_link__match__stage=pools).order_by("id").first()
    assert first is not None
    scoring_services.hand_correct(
        hand=first,
        entry=summary(caller=first.caller, card_points=[100, 62]),
        reason="points added again at the table",
        by=tournament.organiser,
        expected_version=first.version,
    )
    bracket = add_stage(tournament, "single_elim")
    stage_start(stage_id=bracket.pk, actor=tournament.organiser)
    semi = ready_matches(bracket.pk)[0]
    link = match_game_start(match_id=semi.pk, actor=None, first_dealer=0)
    for _ in range(2):
        scoring_services.hand_record(game=link.game, entry_kind="summary", entry=summary(caller=0))
    scoring_services.hand_undo_last(game=link.game, reason="wrong caller")
    scoring_services.hand_record(game=link.game, entry_kind="summary", entry=summary(caller=1))
    for stage in (pools, bracket):  # as the task that follows each result would
        standings_recompute(stage_id=stage.pk, force=True)
    tournament.refresh_from_db()
    return tournament
