"""Score-pads writing at the same moment, on PostgreSQL with real transactions."""

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from scoring.models import Hand
from tarabish_site.core.models import IdempotencyRecord
from tests.scoring.api.conftest import client_for
from tests.scoring.factories import GameFactory, UserFactory, summary

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def at_once(count: int, send: Callable[[], tuple[int, dict[str, Any]]]) -> list[Any]:
    """Run ``send`` in ``count`` threads released together; their (status, body) answers."""
    start = threading.Barrier(count)
    results: list[Any] = []

    def run() -> None:
        try:
            start.wait(timeout=30)
            results.append(send())
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_two_score_pads_entering_the_same_hand_one_wins_one_is_told() -> None:
    keeper, partner = UserFactory.create(username="pad-one"), UserFactory.create(username="pad-two")
    game = GameFactory.create(created_by=keeper, scorekeepers=[partner])
    pads = iter([client_for(keeper), client_for(partner)])
    lock = threading.Lock()

    def send() -> tuple[int, dict[str, Any]]:
        with lock:
            pad = next(pads)
        body = {"entry_kind": "summary", "number": 1, **summary(0)}
        response = pad.post(f"/api/v1/games/{game.pk}/hands/", body)
        return response.status_code, response.json()

    results = sorted(at_once(2, send), key=lambda result: result[0])
    assert [status for status, _ in results] == [201, 409]
    refused = results[1][1]
    assert refused["code"] == "hand_exists"
    assert f"hand 1 of game {game.pk} already exists" in refused["message"]
    assert Hand.objects.filter(game=game).count() == 1


def test_ten_retries_with_one_idempotency_key_enter_exactly_one_hand() -> None:
    keeper = UserFactory.create(username="retrying-pad")
    game = GameFactory.create(created_by=keeper)

    def send() -> tuple[int, dict[str, Any]]:
        body = {"entry_kind": "summary", "number": 1, **summary(0)}
        response = client_for(keeper).post(
            f"/api/v1/games/{game.pk}/hands/", body, headers={"Idempotency-Key": "bad-signal"}
        )
        return response.status_code, response.json()

    results = at_once(10, send)
    assert len(results) == 10
    assert Hand.objects.filter(game=game).count() == 1
    assert IdempotencyRecord.objects.count() == 1
    # The hand is written in one statement with its idempotency record: a retry that lost the
    # race waits for the winner's write and gets its answer, never "in flight".
    assert [status for status, _ in results] == [201] * 10, results
    created = [body for _, body in results]
    assert all(body == created[0] for body in created)
    replay = client_for(keeper).post(
        f"/api/v1/games/{game.pk}/hands/",
        {"entry_kind": "summary", "number": 1, **summary(0)},
        headers={"Idempotency-Key": "bad-signal"},
    )
    assert replay.status_code == 201
    assert replay.json() == created[0]
