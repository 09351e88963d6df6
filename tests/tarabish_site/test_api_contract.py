"""The schema says what the API does, in terms stock tools (spec validators, client
generators, schema-driven fuzzers) read the same way: one body per operation, every key a
body refuses marked so, reads that need no token marked so, and behaviour to match."""

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from openapi_spec_validator import validate
from rest_framework.test import APIClient

from tests.scoring.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(client: Client) -> dict[str, Any]:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    return dict(response.json())


def test_the_schema_passes_the_openapi_validator(schema: dict[str, Any]) -> None:
    validate(schema)


def test_signing_in_takes_one_body_json(schema: dict[str, Any]) -> None:
    body = schema["paths"]["/api/v1/auth/token/"]["post"]["requestBody"]
    assert list(body["content"]) == ["application/json"]
    assert body["required"] is True


def test_a_form_sign_in_is_refused_as_415(client: Client) -> None:
    cache.clear()  # sign-in attempts of other tests count against the limit
    UserFactory.create(username="keeper")
    response = client.post("/api/v1/auth/token/", {"username": "keeper", "password": "x"})
    assert response.status_code == 415
    assert set(response.json()) == {"message", "code", "fields"}


def test_a_body_that_refuses_unknown_keys_says_so(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    for name in ("PlayerRequest", "TeamRequest", "GameCreateRequest", "StageCreateRequest"):
        assert components[name]["additionalProperties"] is False, name
    assert "additionalProperties" not in components["Player"]  # an answer may grow keys


def test_no_component_borrows_a_mixins_description(schema: dict[str, Any]) -> None:
    for name, component in schema["components"]["schemas"].items():
        assert "names only what it can set" not in component.get("description", ""), name


def test_no_default_contradicts_its_own_constraints(schema: dict[str, Any]) -> None:
    for name, component in schema["components"]["schemas"].items():
        for key, field in component.get("properties", {}).items():
            if field.get("default") == "":
                assert field.get("minLength", 0) == 0, f"{name}.{key}"


def test_reads_for_anyone_need_no_token_in_the_schema(schema: dict[str, Any]) -> None:
    paths = schema["paths"]
    assert {} in paths["/api/v1/games/"]["get"]["security"]
    assert {} in paths["/api/v1/tournaments/{slug}/"]["get"]["security"]
    assert {} not in paths["/api/v1/games/"]["post"]["security"]
    assert {} not in paths["/api/v1/tournaments/{slug}/day/"]["get"]["security"]


def test_if_match_is_documented_as_a_strong_tag(schema: dict[str, Any]) -> None:
    put = schema["paths"]["/api/v1/games/{id}/hands/{number}/"]["put"]
    (if_match,) = [p for p in put["parameters"] if p["name"] == "If-Match"]
    assert if_match["required"] is True
    assert if_match["schema"]["pattern"] == '^"[0-9]{1,18}"$'


@pytest.mark.parametrize(
    ("body", "field", "reason"),
    [
        ({"display_name": "Angus", "community": 0}, "community", "must be a string, not 0"),
        ({"display_name": 7}, "display_name", "must be a string, not 7"),
    ],
)
def test_a_value_of_the_wrong_json_type_is_refused_naming_it(
    body: dict[str, Any], field: str, reason: str
) -> None:
    api = APIClient()
    api.force_authenticate(UserFactory.create())
    response = api.post("/api/v1/players/", body, format="json")
    assert response.status_code == 400
    assert response.json()["fields"] == {field: [reason]}


def test_a_number_sent_as_a_string_is_refused() -> None:
    one, two = PlayerFactory.create_batch(2)
    api = APIClient()
    api.force_authenticate(UserFactory.create())
    body = {"player_one": str(one.pk), "player_two": two.pk}
    response = api.post("/api/v1/teams/", body, format="json")
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["player_one"]


@pytest.mark.parametrize(
    ("query", "field", "code"),
    [
        ("/api/v1/matches/?tournament=cup", "tournament", "unknown_parameter"),
        ("/api/v1/games/?page=1&page=2", "page", "invalid"),
        ("/api/v1/games/?date_to=", "date_to", "invalid"),
        ("/api/v1/matches/?table=0.5", "table", "invalid"),
        ("/api/v1/disputes/?game=0", "game", "invalid"),
    ],
)
def test_a_query_a_list_cannot_take_is_refused_naming_it(
    client: Client, query: str, field: str, code: str
) -> None:
    response = client.get(query)
    assert response.status_code == 400
    assert (list(response.json()["fields"]), response.json()["code"]) == ([field], code)


def test_a_row_id_in_a_path_is_one_integer_shape_everywhere(schema: dict[str, Any]) -> None:
    shapes = set()
    for path, operations in schema["paths"].items():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["in"] != "path" or path.startswith("/api/v1/auth/"):
                    continue
                if parameter["name"] in {"id", "number", "user_id"}:
                    shapes.add(tuple(sorted(parameter["schema"].items())))
                    assert parameter.get("description"), (path, parameter["name"])
    assert shapes == {(("maximum", 10**18 - 1), ("minimum", 1), ("type", "integer"))}
    ratings = schema["paths"]["/api/v1/ratings/{id}/"]["get"]["parameters"]
    assert "player's id" in next(p for p in ratings if p["name"] == "id")["description"]


def test_every_property_has_a_type(schema: dict[str, Any]) -> None:
    kinds = {"type", "$ref", "oneOf", "allOf", "anyOf"}
    untyped = [
        f"{name}.{key}"
        for name, component in schema["components"]["schemas"].items()
        for key, prop in component.get("properties", {}).items()
        if not kinds & set(prop)
    ]
    assert untyped == []
    stage = schema["components"]["schemas"]["Stage"]["properties"]["tiebreakers"]
    assert stage["items"] == {"$ref": "#/components/schemas/TiebreakersEnum"}
