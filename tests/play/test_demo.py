"""The demo's online table: two finished online games and one being played."""

from __future__ import annotations

import pytest

from play import demo, services
from play.models import OnlineHand, Table
from scoring.models import Game
from tests.scoring.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_demo_has_finished_online_games_and_one_in_progress_once() -> None:
    director = UserFactory.create(username="director")
    table = demo.demo_load(director=director)
    assert demo.demo_load(director=director).pk == table.pk
    assert demo.demo_summary() == {
        "online tables": 1,
        "online games finished": 2,
        "online games in progress": 1,
    }
    assert table.phase == Table.Phase.PLAYING
    assert table.game is not None
    assert table.game.status == Game.Status.IN_PROGRESS
    assert services.seat_of(table, director) == 0
    assert not table.seats.get(number=0).bot
    hand = OnlineHand.objects.filter(game=table.game).order_by("-number").first()
    assert hand is not None
    assert services.hand_stored_state(hand) == services.hand_replayed(hand)
