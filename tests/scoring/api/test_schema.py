"""Every scoring endpoint is documented: examples, error responses, and the headers it reads."""

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

SCORING_PREFIXES = ("/api/v1/players", "/api/v1/teams", "/api/v1/games", "/api/v1/disputes")


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema: dict[str, Any] = response.json()
    return schema


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, item in schema["paths"].items()
        if path.startswith(SCORING_PREFIXES)
        for method, operation in item.items()
    ]


def test_every_scoring_endpoint_is_in_the_schema(schema: dict[str, Any]) -> None:
    found = {(path, method) for path, method, _ in operations(schema)}
    assert found == {
        ("/api/v1/players/", "get"),
        ("/api/v1/players/", "post"),
        ("/api/v1/players/{id}/", "get"),
        ("/api/v1/teams/", "get"),
        ("/api/v1/teams/", "post"),
        ("/api/v1/teams/{id}/", "get"),
        ("/api/v1/games/", "get"),
        ("/api/v1/games/", "post"),
        ("/api/v1/games/{id}/", "get"),
        ("/api/v1/games/{id}/", "patch"),
        ("/api/v1/games/{id}/flip-first-dealer/", "post"),
        ("/api/v1/games/{id}/first-dealer/", "post"),
        ("/api/v1/games/{id}/end-early/", "post"),
        ("/api/v1/games/{id}/reopen/", "post"),
        ("/api/v1/games/{id}/hands/", "get"),
        ("/api/v1/games/{id}/hands/", "post"),
        ("/api/v1/games/{id}/hands/{number}/", "get"),
        ("/api/v1/games/{id}/hands/{number}/", "put"),
        ("/api/v1/games/{id}/hands/undo-last/", "post"),
        ("/api/v1/games/{id}/hands/preview/", "post"),
        ("/api/v1/games/{id}/hands/{number}/disputes/", "post"),
        ("/api/v1/disputes/", "get"),
        ("/api/v1/disputes/{id}/", "get"),
        ("/api/v1/disputes/{id}/ruling/", "post"),
    }


GAME_ACTS = ("first-dealer/", "end-early/", "reopen/", "undo-last/")
#: Posted, but store nothing: no Idempotency-Key to take.
STORE_NOTHING = ("/hands/preview/",)


def test_writes_document_their_headers_examples_and_errors(schema: dict[str, Any]) -> None:
    for path, method, operation in operations(schema):
        if method == "get":
            continue
        headers = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}
        wanted = {"If-Match"} if method in ("put", "patch") else {"Idempotency-Key"}
        if path.endswith(STORE_NOTHING):
            wanted = set()
        if path.endswith(GAME_ACTS):
            wanted.add("If-Match")
        assert wanted <= headers, (path, method)
        assert operation["summary"], (path, method)
        codes = set(operation["responses"])
        assert {"400", "401", "429"} <= codes, (path, method, codes)
        if "requestBody" in operation:
            assert operation["requestBody"]["content"]["application/json"].get("examples"), path
        success = next(code for code in codes if code.startswith("2"))
        assert operation["responses"][success]["content"]["application/json"].get("examples"), path
        for code in codes - {success}:
            error = operation["responses"][code]["content"]["application/json"]
            assert error["schema"] == {"$ref": "#/components/schemas/Error"}
            assert error["examples"], (path, method, code)


def test_reads_document_their_not_found_answers(schema: dict[str, Any]) -> None:
    for path, method, operation in operations(schema):
        if method == "get" and path.endswith("}/"):
            assert "404" in operation["responses"], path
            assert "ETag" in str(operation["responses"]["200"].get("headers", {})) or (
                "players" in path or "teams" in path
            ), path


def test_hand_bodies_are_documented_both_ways(schema: dict[str, Any]) -> None:
    body = schema["paths"]["/api/v1/games/{id}/hands/"]["post"]["requestBody"]
    entry = body["content"]["application/json"]["schema"]
    assert entry == {"$ref": "#/components/schemas/HandEntryRequest"}
    kinds = schema["components"]["schemas"]["HandEntryRequest"]["discriminator"]["mapping"]
    assert set(kinds) == {"summary", "tricks"}
    summary = schema["components"]["schemas"]["SummaryEntryRequest"]["properties"]
    assert {"caller", "trump", "card_points", "runs", "bella_seat", "misplay"} <= set(summary)
