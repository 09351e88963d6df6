"""The schema says what the server does: the types of filters, the statuses it answers, the
headers it reads and the body a correction takes."""

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(client: Client) -> dict[str, Any]:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    return dict(response.json())


def parameter(operation: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in operation["parameters"] if p["name"] == name)


def test_a_player_or_team_filter_is_an_id(schema: dict[str, Any]) -> None:
    paths = schema["paths"]
    assert parameter(paths["/api/v1/games/"]["get"], "player")["schema"]["type"] == "integer"
    assert parameter(paths["/api/v1/games/"]["get"], "team")["schema"]["type"] == "integer"
    assert parameter(paths["/api/v1/teams/"]["get"], "player")["schema"]["type"] == "integer"
    assert parameter(paths["/api/v1/games/"]["get"], "player")["schema"]["minimum"] == 1
    size = parameter(paths["/api/v1/games/"]["get"], "page_size")
    assert size["schema"] == {"type": "integer", "minimum": 1}  # larger is cut to the largest
    assert "more than 200 is answered with 200" in size["description"]


@pytest.mark.parametrize(
    ("path", "method", "status"),
    [
        ("/api/v1/matches/{id}/confirm-reset/", "post", "400"),  # a malformed If-Match
        ("/api/v1/matches/{id}/forfeit/", "post", "400"),
        ("/api/v1/tournaments/{slug}/entries/", "post", "429"),
        ("/api/v1/tournaments/{slug}/", "patch", "429"),
        ("/api/v1/disputes/{id}/ruling/", "post", "428"),  # If-Match: *
        ("/api/v1/players/", "post", "422"),  # an Idempotency-Key used for another body
        ("/api/v1/games/{id}/hands/{number}/", "put", "429"),
    ],
)
def test_every_status_a_write_answers_is_documented(
    schema: dict[str, Any], path: str, method: str, status: str
) -> None:
    responses = schema["paths"][path][method]["responses"]
    assert status in responses
    error = responses[status]["content"]["application/json"]["schema"]
    assert error == {"$ref": "#/components/schemas/Error"}


def test_the_idempotency_key_says_what_the_server_takes(schema: dict[str, Any]) -> None:
    key = parameter(schema["paths"]["/api/v1/players/"]["post"], "Idempotency-Key")["schema"]
    assert key["maxLength"] == 255
    assert key["pattern"] == "^[\\x21-\\x7e]{1,255}$"


def test_a_correction_documents_its_own_body(schema: dict[str, Any]) -> None:
    put = schema["paths"]["/api/v1/games/{id}/hands/{number}/"]["put"]
    content = put["requestBody"]["content"]["application/json"]
    assert content["schema"] == {"$ref": "#/components/schemas/HandCorrectionRequest"}
    components = schema["components"]["schemas"]
    refs = [one["$ref"] for one in components["HandCorrectionRequest"]["oneOf"]]
    bodies = [components[ref.rsplit("/", 1)[-1]] for ref in refs]
    assert len(bodies) == 2  # a summary's, a tricks record's
    for body in bodies:
        assert "number" not in body["properties"]
        assert "reason" in body["required"]
        assert "entry_kind" not in body["required"]
    assert "run_counts" in bodies[0]["properties"]
    assert "tricks" in bodies[1]["required"]
    for example in content["examples"].values():
        assert any(set(body["required"]) <= set(example["value"]) for body in bodies)
        assert example["value"]["entry_kind"] in ("summary", "tricks")
