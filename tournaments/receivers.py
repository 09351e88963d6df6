"""Signal receivers: they only enqueue tasks."""

from typing import Any

from tournaments.selectors import game_is_in_a_match
from tournaments.tasks import match_sync_for_game


def on_game_result_changed(sender: object, *, game_id: int, **kwargs: Any) -> None:
    """``scoring.signals.game_result_changed`` (sent after commit): update the game's match.

    Casual games belong to no match, so no task is sent for them: one indexed look-up costs far
    less than a message to the broker."""
    if game_is_in_a_match(game_id):
        match_sync_for_game.delay(game_id)
