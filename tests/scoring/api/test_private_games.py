"""A private game is seen by its scorekeepers, directors and players only; anyone else is told
it does not exist, in lists and by id, its hands and its disputes alike."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Game, MisplayDispute
from tests.scoring.api.conftest import client_for, current
from tests.scoring.factories import GameFactory, record_hand, summary

pytestmark = pytest.mark.django_db


@pytest.fixture
def private(keeper: Any) -> Game:
    game = GameFactory.create(created_by=keeper, public=False)
    hand = record_hand(game)
    # A dispute waiting for its verdict (how it is judged is not what this is about).
    MisplayDispute.objects.create(hand=hand, called_by=1, accused=0, trick=1, evidence={})
    return game


def _reads(client: APIClient, game: Game) -> list[int]:
    return [
        client.get(f"/api/v1/games/{game.pk}/").status_code,
        client.get(f"/api/v1/games/{game.pk}/hands/").status_code,
        client.get(f"/api/v1/games/{game.pk}/hands/1/").status_code,
    ]


def _listed(client: APIClient) -> set[int]:
    return {g["id"] for g in client.get("/api/v1/games/").json()["results"]}


def _disputes(client: APIClient) -> list[int]:
    listed = client.get("/api/v1/disputes/").json()["results"]
    one = MisplayDispute.objects.get()
    return [len(listed), client.get(f"/api/v1/disputes/{one.pk}/").status_code]


def test_a_private_game_is_hidden_from_everyone_else(
    anon: APIClient, stranger: Any, private: Game
) -> None:
    public = GameFactory.create()
    for outsider in (anon, client_for(stranger)):
        assert _reads(outsider, private) == [404, 404, 404]
        assert _listed(outsider) == {public.pk}
        assert _disputes(outsider) == [0, 404]
    refused = client_for(stranger).post(
        f"/api/v1/games/{private.pk}/hands/", {"entry_kind": "summary", **summary(0)}
    )
    assert refused.status_code == 404
    assert refused.json()["message"] == f"game {private.pk} does not exist"


def test_its_scorekeepers_and_directors_see_it(
    api: APIClient, director: Any, stranger: Any, private: Game
) -> None:
    assert _reads(api, private) == [200, 200, 200]
    assert api.get(f"/api/v1/games/{private.pk}/").json()["public"] is False
    assert _reads(client_for(director), private) == [200, 200, 200]
    assert _disputes(api) == _disputes(client_for(director)) == [1, 200]
    assert private.pk in _listed(client_for(director))
    private.scorekeepers.add(stranger)
    assert _reads(client_for(stranger), private) == [200, 200, 200]
    assert private.pk in _listed(client_for(stranger))


def test_a_game_is_started_private_and_made_public(api: APIClient, anon: APIClient) -> None:
    game = GameFactory.create()
    body = {"team_a": game.team_a_id, "team_b": game.team_b_id, "public": False}
    created = api.post("/api/v1/games/", body)
    assert created.status_code == 201
    new = Game.objects.get(pk=created.json()["id"])
    assert new.public is False
    assert anon.get(f"/api/v1/games/{new.pk}/").status_code == 404

    url = f"/api/v1/games/{new.pk}/"
    assert api.patch(url, {"public": True}).status_code == 428
    opened = api.patch(url, {"public": True}, headers=current(new))
    assert opened.status_code == 200
    assert opened.json()["public"] is True
    assert opened.headers["ETag"] == f'"{new.version + 1}"'
    assert anon.get(url).status_code == 200
    stale = api.patch(url, {"public": False}, headers={"If-Match": f'"{new.version}"'})
    assert stale.status_code == 412
    assert api.patch(url, {"public": "perhaps"}, headers=current(new)).json()["fields"] == {
        "public": ['must be true or false, not "perhaps"']
    }


def test_only_its_scorekeepers_change_who_sees_it(stranger: Any, game: Game) -> None:
    response = client_for(stranger).patch(
        f"/api/v1/games/{game.pk}/", {"public": False}, headers=current(game)
    )
    assert response.status_code == 403
    assert Game.objects.get(pk=game.pk).public is True


def test_the_people_who_play_in_it_see_it_and_do_not_write(stranger: Any, private: Game) -> None:
    seated = private.seat_1
    seated.user = stranger
    seated.save(update_fields=["user"])
    player = client_for(stranger)
    assert _reads(player, private) == [200, 200, 200]
    assert private.pk in _listed(player)
    refused = player.post(
        f"/api/v1/games/{private.pk}/hands/", {"entry_kind": "summary", **summary(0)}
    )
    assert refused.status_code == 403
