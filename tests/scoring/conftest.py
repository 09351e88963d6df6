"""Fixtures for the scoring app's tests."""

from collections.abc import Iterator
from typing import Any

import pytest

from scoring.models import Game
from scoring.signals import game_result_changed


@pytest.fixture
def only_this_receiver() -> Iterator[list[int]]:
    """Listen to ``game_result_changed`` alone (other apps' receivers are set aside)."""
    seen: list[int] = []

    def receiver(sender: type[Game], game_id: int, **kwargs: Any) -> None:
        seen.append(game_id)

    saved = game_result_changed.receivers
    game_result_changed.receivers = []
    game_result_changed.sender_receivers_cache.clear()
    game_result_changed.connect(receiver, weak=False)
    try:
        yield seen
    finally:
        game_result_changed.receivers = saved
        game_result_changed.sender_receivers_cache.clear()
