"""Players and teams through the API."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Player, Team
from tests.scoring.factories import PlayerFactory, TeamFactory

pytestmark = pytest.mark.django_db


def test_anyone_lists_players_a_page_at_a_time(anon: APIClient) -> None:
    PlayerFactory.create_batch(3, community="Glace Bay")
    PlayerFactory.create(display_name="Angus Gillis", community="Cheticamp")
    body = anon.get("/api/v1/players/", {"page_size": 2}).json()
    assert body["count"] == 4
    assert len(body["results"]) == 2
    assert body["next"]
    found = anon.get("/api/v1/players/", {"search": "chetic"}).json()["results"]
    assert [p["display_name"] for p in found] == ["Angus Gillis"]


def test_a_signed_in_account_adds_a_player(api: APIClient) -> None:
    response = api.post(
        "/api/v1/players/", {"display_name": " Marie MacNeil ", "community": "Sydney"}
    )
    assert response.status_code == 201
    body = response.json()
    assert body["display_name"] == "Marie MacNeil"
    assert response.headers["Location"] == f"/api/v1/players/{body['id']}/"
    assert api.get(response.headers["Location"]).json() == body


def test_adding_a_player_needs_an_account(anon: APIClient) -> None:
    response = anon.post("/api/v1/players/", {"display_name": "Marie"})
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert not Player.objects.exists()


def test_a_player_needs_a_name(api: APIClient) -> None:
    response = api.post("/api/v1/players/", {"community": "Sydney"})
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["display_name"]


def test_the_same_name_in_the_same_community_is_a_409(api: APIClient) -> None:
    existing = PlayerFactory.create(display_name="Marie MacNeil", community="Sydney")
    response = api.post(
        "/api/v1/players/", {"display_name": "Marie MacNeil", "community": "Sydney"}
    )
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "player_exists"
    assert f"player {existing.pk}" in body["fields"]["display_name"][0]


def test_an_unknown_player_is_a_404_in_the_error_shape(anon: APIClient) -> None:
    response = anon.get("/api/v1/players/999/")
    assert response.status_code == 404
    assert set(response.json()) == {"message", "code", "fields"}


def test_adding_a_player_twice_with_one_key_adds_one(api: APIClient) -> None:
    headers = {"Idempotency-Key": "player-1"}
    first = api.post("/api/v1/players/", {"display_name": "Rita"}, headers=headers)
    second = api.post("/api/v1/players/", {"display_name": "Rita"}, headers=headers)
    assert (first.status_code, second.status_code) == (201, 201)
    assert second.json() == first.json()
    assert second.headers["Idempotent-Replayed"] == "true"
    assert Player.objects.count() == 1


def test_a_team_is_named_after_its_players_by_default(api: APIClient) -> None:
    one, two = PlayerFactory.create(display_name="Marie"), PlayerFactory.create(display_name="Rita")
    response = api.post("/api/v1/teams/", {"player_one": one.pk, "player_two": two.pk})
    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "Marie & Rita"
    assert (body["player_one_name"], body["player_two_name"]) == ("Marie", "Rita")
    assert response.headers["Location"] == f"/api/v1/teams/{body['id']}/"


def test_the_same_pair_is_one_team(api: APIClient) -> None:
    team = TeamFactory.create()
    response = api.post(
        "/api/v1/teams/", {"player_one": team.player_two_id, "player_two": team.player_one_id}
    )
    assert response.status_code == 409
    assert response.json()["code"] == "team_exists"
    assert Team.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "field", "reason"),
    [
        ({"player_one": 999, "player_two": "same"}, "player_one", "there is no player 999"),
        ({"player_one": "same", "player_two": "same"}, "player_two", "two different players"),
        ({"player_one": "same"}, "player_two", "required"),
    ],
)
def test_a_team_needs_two_real_different_players(
    api: APIClient, body: dict[str, Any], field: str, reason: str
) -> None:
    player = PlayerFactory.create()
    body = {key: player.pk if value == "same" else value for key, value in body.items()}
    response = api.post("/api/v1/teams/", body)
    assert response.status_code == 400
    fields = response.json()["fields"]
    assert list(fields) == [field]
    assert reason in fields[field][0]


def test_teams_are_found_by_player_or_name(anon: APIClient) -> None:
    team = TeamFactory.create(name="The Dealers")
    TeamFactory.create(name="Others")
    by_player = anon.get("/api/v1/teams/", {"player": team.player_one_id}).json()["results"]
    assert [t["id"] for t in by_player] == [team.pk]
    by_name = anon.get("/api/v1/teams/", {"search": "deal"}).json()["results"]
    assert [t["id"] for t in by_name] == [team.pk]
    assert anon.get(f"/api/v1/teams/{team.pk}/").json()["name"] == "The Dealers"
