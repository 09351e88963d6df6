"""Two score-pads enter the hand that ends the game: the one that lost the race is told its
hand is there (409 ``hand_exists``, naming it), not that the game is over."""

import threading
from typing import Any

import pytest
from django.db import connection

from scoring.models import Game, Hand
from tests.scoring.api.conftest import client_for
from tests.scoring.factories import GameFactory, UserFactory, summary


def _game_one_hand_from_the_end(**kwargs: Any) -> Game:
    """A game to 150 whose next hand (team A makes 92 + 70) ends it."""
    game: Game = GameFactory.create(ruleset={"target": 150}, **kwargs)
    return game


def _last_hand() -> dict[str, Any]:
    return {"entry_kind": "summary", "number": 1, **summary(0, card_points=(162, 0))}


@pytest.mark.django_db
def test_the_pad_that_lost_the_race_to_the_last_hand_hears_of_that_hand() -> None:
    keeper, partner = UserFactory.create(username="pad-one"), UserFactory.create(username="pad-two")
    game = _game_one_hand_from_the_end(created_by=keeper, scorekeepers=[partner])
    first = client_for(keeper).post(f"/api/v1/games/{game.pk}/hands/", _last_hand())
    assert first.status_code == 201, first.json()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    second = client_for(partner).post(f"/api/v1/games/{game.pk}/hands/", _last_hand())
    assert second.status_code == 409
    body = second.json()
    assert body["code"] == "hand_exists"
    assert f"hand 1 of game {game.pk} already exists" in body["message"]
    assert list(body["fields"]) == ["number"]


@pytest.mark.django_db
def test_a_new_hand_for_a_finished_game_is_still_refused_as_game_over() -> None:
    keeper = UserFactory.create(username="pad-one")
    game = _game_one_hand_from_the_end(created_by=keeper)
    api = client_for(keeper)
    assert api.post(f"/api/v1/games/{game.pk}/hands/", _last_hand()).status_code == 201
    after = {**_last_hand(), "number": 2}
    refused = api.post(f"/api/v1/games/{game.pk}/hands/", after)
    assert (refused.status_code, refused.json()["code"]) == (400, "game_over")


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_racing_pads_for_the_last_hand_get_201_and_409() -> None:
    for _ in range(5):  # the loser may read the game before or after the winner's write
        keeper = UserFactory.create()
        partner = UserFactory.create()
        game = _game_one_hand_from_the_end(created_by=keeper, scorekeepers=[partner])
        pads = [client_for(keeper), client_for(partner)]
        start = threading.Barrier(2)
        answers: list[tuple[int, str]] = []

        def send(
            pad: Any,
            game_id: int = game.pk,
            start: threading.Barrier = start,
            answers: Any = answers,
        ) -> None:
            try:
                start.wait(timeout=30)
                response = pad.post(f"/api/v1/games/{game_id}/hands/", _last_hand())
                answers.append((response.status_code, response.json().get("code", "")))
            finally:
                connection.close()

        threads = [threading.Thread(target=send, args=(pad,)) for pad in pads]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert sorted(answers) == [(201, ""), (409, "hand_exists")]
        assert Hand.objects.filter(game=game).count() == 1
