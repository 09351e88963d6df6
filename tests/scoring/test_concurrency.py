"""Two score-pads entering the same hand at once, on PostgreSQL (make test-services)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from scoring import services
from scoring.models import Game, Hand
from tarabish_site.api.errors import Conflict
from tests.scoring.factories import GameFactory, summary

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _race(game_id: int, entries: list[dict[str, object]]) -> list[object]:
    barrier = threading.Barrier(len(entries))
    outcomes: list[object] = [None] * len(entries)

    def enter(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[i] = services.hand_record(
                game=Game(pk=game_id), entry_kind="summary", entry=entries[i], number=1
            )
        except Exception as exc:  # noqa: BLE001 - the outcome is what the test checks
            outcomes[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=enter, args=(i,)) for i in range(len(entries))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return outcomes


def test_two_writers_one_hand_number(only_this_receiver: list[int]) -> None:
    game = GameFactory.create()
    outcomes = _race(
        game.pk,
        [summary(caller=0, card_points=(92, 70)), summary(caller=1, card_points=(70, 92))],
    )
    hands = [o for o in outcomes if isinstance(o, Hand)]
    conflicts = [o for o in outcomes if isinstance(o, Conflict)]
    assert (len(hands), len(conflicts)) == (1, 1), outcomes
    assert conflicts[0].code == "hand_exists"
    assert "hand 1 of game" in conflicts[0].message
    assert Hand.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert (game.hands_played, game.version) == (1, 2)


def test_eight_writers_one_hand_number(only_this_receiver: list[int]) -> None:
    game = GameFactory.create()
    outcomes = _race(game.pk, [summary(caller=0, card_points=(92, 70))] * 8)
    assert sum(isinstance(o, Hand) for o in outcomes) == 1
    assert sum(isinstance(o, Conflict) for o in outcomes) == 7
    assert Hand.objects.filter(game=game).count() == 1
