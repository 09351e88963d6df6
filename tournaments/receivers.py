"""Signal receivers: they only enqueue tasks."""

from typing import Any

from tournaments.tasks import match_sync_for_game


def on_game_result_changed(sender: object, *, game_id: int, **kwargs: Any) -> None:
    """``scoring.signals.game_result_changed`` (sent after commit): update the game's match."""
    match_sync_for_game.delay(game_id)
