"""Where a game stands after its hands: the engine's ``game_progress`` stored on the game
row (totals, dealer, forced call, end and winner)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import timezone

from scoring.engine import GameProgress as EngineGameProgress
from scoring.engine import (
    HandResult,
    InvalidEntry,
    Ruleset,
    dealer_of_hand,
    forced_call,
    game_progress,
)
from scoring.models import Game, Hand
from scoring.services._common import SIDES
from tarabish_site.api.errors import ValidationFailed


def _apply_progress(game: Game, progress: EngineGameProgress, *, bump: bool = True) -> None:
    """Store the engine's view of the game on the row (status follows unless ended early)."""
    game.score_a, game.score_b = progress.totals
    game.hands_played = progress.hands_played
    game.next_dealer = None if game.first_dealer is None else progress.next_dealer
    game.forced_seat = progress.forced_seat
    if game.status != Game.Status.ABANDONED:
        if progress.over and progress.winner is not None:
            winner = SIDES[progress.winner]
            if game.status != Game.Status.FINISHED or game.winner != winner:
                game.finished_at = timezone.now()
            game.status = Game.Status.FINISHED
            game.winner = winner
        else:
            game.status = Game.Status.IN_PROGRESS
            game.winner = ""
            game.finished_at = None
    if bump:
        game.version += 1


def _progress(game: Game, rules: Ruleset, hands: Sequence[Hand]) -> EngineGameProgress:
    """``game_progress`` over these hands (in order), refusing hands after the game's end."""
    assert game.first_dealer is not None  # noqa: S101 - hands exist only after a first dealer
    results = [HandResult.from_json(h.result) for h in hands]
    try:
        return game_progress(rules, game.first_dealer, results)
    except InvalidEntry as exc:
        if exc.code != "game_over":
            raise
        over_after = next(
            i
            for i in range(1, len(results) + 1)
            if game_progress(rules, game.first_dealer, results[:i]).over
        )
        message = (
            f"with this change the game is over after hand {hands[over_after - 1].number}, "
            f"but hand {hands[over_after].number} follows: undo the later hands first"
        )
        raise ValidationFailed(
            message, code="game_over_before_last_hand", fields={"entry": [message]}
        ) from None


def _rerun(game: Game, rules: Ruleset, hands: list[Hand]) -> list[Hand]:
    """Recompute the running totals of ``hands`` and the game's state; return changed hands."""
    progress = _progress(game, rules, hands)
    changed = []
    for hand, (running_a, running_b) in zip(hands, progress.running, strict=True):
        if (hand.running_a, hand.running_b) != (running_a, running_b):
            hand.running_a, hand.running_b = running_a, running_b
            changed.append(hand)
    _apply_progress(game, progress)
    return changed


def _stored_progress(game: Game, rules: Ruleset) -> EngineGameProgress:
    """Where the game stands, read from its row: every write stores the engine's reading of
    the hands that count there (totals, hands played), so the hands themselves need not be read
    again. Once a total has reached the target only the hands tell whether they end the game
    (a reopened game; both teams over and level), so they are read and replayed then.
    ``running`` is left empty: only the totals after the next hand are needed."""
    assert game.first_dealer is not None  # noqa: S101 - checked by the callers
    totals = (game.score_a, game.score_b)
    if max(totals) >= rules.target:
        return _progress(game, rules, list(game.hands.active().order_by("number")))
    next_dealer = dealer_of_hand(game.first_dealer, game.hands_played + 1)
    seat, team = forced_call(rules, next_dealer, totals)
    return EngineGameProgress(
        totals=totals,
        running=(),
        hands_played=game.hands_played,
        next_dealer=next_dealer,
        forced_seat=seat,
        forced_team=team,
        over=False,
        winner=None,
    )
