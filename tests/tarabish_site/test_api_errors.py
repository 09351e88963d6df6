"""Every answer under /api/ that is not a success is JSON in the one error shape: bodies the
parser cannot read, bodies too large, addresses no view answers, failures of the server."""

import json
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.models import Player
from tarabish_site.api.parsers import MAX_DEPTH
from tests.scoring.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

SHAPE = {"message", "code", "fields"}


def signed_in() -> APIClient:
    client = APIClient()
    client.force_authenticate(UserFactory.create())
    return client


@pytest.mark.parametrize(
    "body",
    [
        "[" * 5000,  # too deep for the JSON decoder itself
        '{"display_name": "x", "deep": ' + "[" * 40 + "]" * 40 + "}",  # read, yet too deep
    ],
)
def test_a_body_nested_too_deep_is_a_parse_error_not_a_crash(body: str) -> None:
    response = signed_in().post("/api/v1/players/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"
    assert set(response.json()) == SHAPE
    assert not Player.objects.exists()


def test_a_body_nested_within_the_limit_is_read() -> None:
    nested = json.loads("[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1))
    body = json.dumps({"display_name": "Deep", "deep": nested})
    response = signed_in().post("/api/v1/players/", body, content_type="application/json")
    assert response.status_code == 400  # read, then refused as a key players do not take
    assert response.json()["code"] == "unknown_field"


def test_a_body_over_the_upload_limit_is_a_413_in_the_error_shape(settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = json.dumps({"display_name": "x" * 2000})
    response = signed_in().post("/api/v1/players/", body, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["code"] == "request_too_large"
    assert set(response.json()) == SHAPE
    assert not Player.objects.exists()


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/games/abc/hands/",
        "/api/v1/games/-1/hands/",
        "/api/v1/games/9999999999999999999/",
        "/api/v1/nothing/here/",
        "/api/nothing",
    ],
)
def test_an_address_no_api_view_answers_is_a_json_404(
    settings: Any, client: Client, debug: bool, path: str
) -> None:
    settings.DEBUG = debug
    response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"
    assert set(response.json()) == SHAPE


def test_an_api_address_missing_its_final_slash_is_still_redirected(client: Client) -> None:
    response = client.get("/api/v1/players")
    assert response.status_code == 301
    assert response["Location"] == "/api/v1/players/"


def test_a_page_that_does_not_exist_is_still_an_html_page(settings: Any, client: Client) -> None:
    settings.DEBUG = False
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_a_server_failure_under_the_api_is_a_json_500(settings: Any, monkeypatch: Any) -> None:
    settings.DEBUG = False

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the database fell over")

    monkeypatch.setattr("scoring.selectors.player_list", broken)
    client = APIClient(raise_request_exception=False)
    response = client.get("/api/v1/players/")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "server_error"
    assert set(response.json()) == SHAPE
    assert "fell over" not in response.json()["message"]


def test_a_game_read_still_answers_after_the_catch_all(client: Client) -> None:
    game = GameFactory.create()
    assert client.get(f"/api/v1/games/{game.pk}/").status_code == 200
    assert client.get("/api/docs/").status_code == 200
