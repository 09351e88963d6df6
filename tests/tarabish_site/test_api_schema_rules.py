"""Rules the generated schema keeps, read from the schema itself so that a new endpoint or
field that breaks one fails here: one shape for a seat in every answer; operation ids that say
what an operation does; Location, Retry-After and If-Match declared where they belong; bodies
required where an empty one is refused; a hand's bodies closed to unknown keys at every
depth; every answer a component; one name for a thing in every path; the standings row from
the model. (Types, anonymous reads, unknown keys and
query parameters, page sizes and descriptions: test_api_contract.py.)"""

import json
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_setup: Any, django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    return dict(response.json())


def _answers(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The components that describe answers (not request bodies)."""
    return {
        name: component
        for name, component in schema["components"]["schemas"].items()
        if not name.endswith("Request")
    }


@pytest.mark.parametrize(
    "field", ["first_dealer", "next_dealer", "forced_seat", "dealer", "caller"]
)
def test_a_seat_has_one_shape_in_every_answer(schema: dict[str, Any], field: str) -> None:
    shapes = {}
    for name, component in _answers(schema).items():
        prop = component.get("properties", {}).get(field)
        if prop is not None:
            bare = {k: v for k, v in prop.items() if k not in ("description", "readOnly")}
            shapes[name] = json.dumps(bare, sort_keys=True)
    assert shapes, field
    assert all("SeatEnum" in shape for shape in shapes.values()), shapes
    nullable = {shape for shape in shapes.values() if "NullEnum" in shape}
    assert len(nullable) <= 1, shapes


def _operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
    ]


def test_an_operation_id_says_create_only_where_something_is_created(
    schema: dict[str, Any],
) -> None:
    """``..._create`` is a POST answering 201; a step on something that exists (undo, end,
    reopen, a ruling, a check-in) is named by what it does."""
    for path, method, operation in _operations(schema):
        created = "201" in operation["responses"]
        named_create = operation["operationId"].endswith("_create")
        assert named_create == (method == "post" and created), (path, method, operation)
        if method == "delete":
            assert not operation["operationId"].endswith("_destroy"), path


def test_every_429_says_when_to_try_again(schema: dict[str, Any]) -> None:
    refusals = [
        operation["responses"]["429"]
        for _, _, operation in _operations(schema)
        if "429" in operation["responses"]
    ]
    assert len(refusals) > 30
    for refused in refusals:
        assert refused["headers"]["Retry-After"]["schema"]["type"] == "integer"


def test_what_a_post_makes_is_named_by_its_location(schema: dict[str, Any]) -> None:
    """Every 201 of one thing says where to read it; a report of rows added (a CSV import, a
    bulk add) has no one address. No other answer claims a ``Location``."""
    for path, method, operation in _operations(schema):
        for status, response in operation["responses"].items():
            headers = response.get("headers", {})
            if status != "201":
                assert "Location" not in headers, (path, method, status)
                continue
            body = response["content"]["application/json"]["schema"]["$ref"]
            one_thing = not body.endswith("/ImportReport")
            assert ("Location" in headers) == one_thing, (path, method)


def _needs_keys(schema: dict[str, Any], body: dict[str, Any]) -> bool:
    """Whether a body of this schema cannot be empty: an object with keys it requires (each
    alternative's, for one of several shapes), or a JSON document of its own."""
    components = schema["components"]["schemas"]
    if "$ref" in body:
        body = components[body["$ref"].rsplit("/", 1)[-1]]
    if "oneOf" in body:
        return all(_needs_keys(schema, shape) for shape in body["oneOf"])
    return bool(body.get("required")) or "properties" not in body


def test_a_body_is_required_wherever_an_empty_one_is_refused(schema: dict[str, Any]) -> None:
    required = 0
    for path, method, operation in _operations(schema):
        body = operation.get("requestBody")
        if body is None:
            continue
        (content,) = body["content"].values()
        needed = _needs_keys(schema, content["schema"])
        assert body.get("required", False) == needed, (path, method)
        required += needed
    assert required > 20
    hands = schema["paths"]["/api/v1/games/{id}/hands/"]["post"]["requestBody"]
    assert hands["required"] is True


def _objects(schema: dict[str, Any], body: dict[str, Any], seen: set[str]) -> list[str]:
    """The components of every object a body holds, at any depth (its alternatives, its
    properties, their items)."""
    found: list[str] = []
    for key in ("allOf", "oneOf", "anyOf"):
        for part in body.get(key, []):
            found += _objects(schema, part, seen)
    if "items" in body:
        found += _objects(schema, body["items"], seen)
    ref = body.get("$ref")
    if ref is not None and ref not in seen:
        seen.add(ref)
        name = ref.rsplit("/", 1)[-1]
        component = schema["components"]["schemas"][name]
        if component.get("type") == "object":
            found.append(name)
        found += _objects(schema, component, seen)
    for prop in body.get("properties", {}).values():
        found += _objects(schema, prop, seen)
    return found


@pytest.mark.parametrize(
    ("path", "method"),
    [
        ("/api/v1/games/{id}/hands/", "post"),
        ("/api/v1/games/{id}/hands/preview/", "post"),
        ("/api/v1/games/{id}/hands/{number}/", "put"),
    ],
)
def test_a_hand_body_refuses_unknown_keys_at_every_depth(
    schema: dict[str, Any], path: str, method: str
) -> None:
    """A hand's entry, its correction and its preview, and every object inside them (a run, a
    misplay call, a seat's run counts), say ``additionalProperties: false``, as the API
    refuses an unknown key in any of them (400 ``unknown_field``)."""
    body = schema["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    objects = _objects(schema, body, set())
    assert {"RunShownRequest", "MisplayCallRequest"} <= set(objects), objects
    components = schema["components"]["schemas"]
    assert [
        name for name in objects if components[name].get("additionalProperties") is not False
    ] == []


def test_a_standings_row_shows_every_figure_the_model_keeps(schema: dict[str, Any]) -> None:
    from tournaments.models import STANDING_FIELDS

    row = schema["components"]["schemas"]["Standing"]["properties"]
    assert set(STANDING_FIELDS) - {"pool"} <= set(row)
    assert all(row[name]["type"] == "integer" for name in STANDING_FIELDS if name != "pool")


#: The one answer that is a document of its own format (``tarabish-tournament``, described in
#: tournaments/exports.py, read back by ``POST tournaments/import/``), not an API shape.
_DOCUMENTS = {"/api/v1/tournaments/{slug}/export/"}


def test_every_answer_is_described_by_a_component(schema: dict[str, Any]) -> None:
    """No answer is a free-form object a generated client cannot type: each is a component,
    or a list of one."""
    for path, method, operation in _operations(schema):
        for status, response in operation["responses"].items():
            content = response.get("content", {}).get("application/json")
            if content is None or path in _DOCUMENTS:
                continue
            body = content["schema"]
            body = body.get("items", body) if body.get("type") == "array" else body
            assert "$ref" in body, (path, method, status, body)


def test_a_thing_in_a_path_has_one_name_everywhere(schema: dict[str, Any]) -> None:
    """A game is ``{id}`` under ``games/`` whether the path reads it or a hand of it, and a
    tournament ``{slug}`` under ``tournaments/``: a generated client's argument for one thing
    has one name."""
    names = set()
    for path, _, operation in _operations(schema):
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "path":
                names.add(parameter["name"])
                assert f"{{{parameter['name']}}}" in path, (path, parameter["name"])
    assert names == {"id", "slug", "number", "user_id", "delivery_id"}
    hands = schema["paths"]["/api/v1/games/{id}/hands/"]["post"]["parameters"]
    assert [p["name"] for p in hands if p["in"] == "path"] == ["id"]


def test_if_match_is_required_wherever_going_without_it_is_428(schema: dict[str, Any]) -> None:
    """Where a missing ``If-Match`` is refused with 428 the header is required; a ruling takes
    it optionally (without it, the ruling is made on the dispute as it is) and answers 428 only
    for ``*``, as its description says."""
    for path, method, operation in _operations(schema):
        headers = {p["name"]: p for p in operation.get("parameters", []) if p["in"] == "header"}
        if_match = headers.get("If-Match")
        if "428" not in operation["responses"]:
            assert if_match is None or not if_match.get("required"), (path, method)
            continue
        assert if_match is not None, (path, method)
        if not if_match.get("required"):
            assert "`*`" in operation["responses"]["428"]["description"], (path, method)


#: The only writes that read their query: an import names the tournament it makes.
WRITES_WITH_A_QUERY = {("/api/v1/tournaments/import/", "post")}


def test_a_write_declares_no_list_filters_it_would_ignore(schema: dict[str, Any]) -> None:
    """A POST answering a list (the seeds) is not a list view: filters declared there would be
    accepted and ignored."""
    found = {
        (path, method)
        for path, method, operation in _operations(schema)
        if method in ("post", "put", "patch", "delete")
        and any(p.get("in") == "query" for p in operation.get("parameters", []))
    }
    assert found == WRITES_WITH_A_QUERY
