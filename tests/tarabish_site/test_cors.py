"""Web clients on other origins call the API when their origin is configured, and read the
headers the API's concurrency and retries rely on."""

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

PAD = "https://pad.example.org"


@pytest.fixture(autouse=True)
def _allowed_origin(settings: Any) -> None:
    settings.CORS_ALLOWED_ORIGINS = [PAD]


def test_an_allowed_origin_reads_the_api_and_its_headers(client: Client) -> None:
    response = client.get("/api/v1/games/", HTTP_ORIGIN=PAD)
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == PAD
    exposed = {
        name.strip().lower() for name in response["Access-Control-Expose-Headers"].split(",")
    }
    assert {"etag", "location", "idempotent-replayed"} <= exposed
    assert "Access-Control-Allow-Credentials" not in response


def test_a_preflight_allows_the_headers_of_a_write(client: Client) -> None:
    response = client.options(
        "/api/v1/games/1/hands/",
        HTTP_ORIGIN=PAD,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, idempotency-key, if-match",
    )
    assert response.status_code == 200
    allowed = {name.strip() for name in response["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "idempotency-key", "if-match"} <= allowed


def test_another_origin_gets_no_cors_headers(client: Client) -> None:
    response = client.get("/api/v1/games/", HTTP_ORIGIN="https://elsewhere.example")
    assert response.status_code == 200
    assert "Access-Control-Allow-Origin" not in response


def test_pages_are_not_shared_with_other_origins(client: Client) -> None:
    response = client.get("/", HTTP_ORIGIN=PAD)
    assert "Access-Control-Allow-Origin" not in response
