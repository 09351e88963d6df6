"""The OpenAPI schema is valid and every view documents itself without warnings."""

from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client


@pytest.mark.django_db
def test_the_schema_validates_without_warnings(tmp_path: Path) -> None:
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))


@pytest.mark.django_db
def test_the_token_endpoint_and_the_error_shape_are_documented(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    token = schema["paths"]["/api/v1/auth/token/"]["post"]
    assert set(token["responses"]) == {"200", "400", "429"}
    error = schema["components"]["schemas"]["Error"]
    assert sorted(error["required"]) == ["code", "fields", "message"]


@pytest.mark.django_db
def test_what_the_api_sends_as_null_or_as_a_list_the_schema_says_so(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]
    assert components["Dispute"]["properties"]["ruled_by"]["nullable"] is True
    assert components["HandRevision"]["properties"]["changed_by"]["nullable"] is True
    assert components["Match"]["properties"]["pool"]["nullable"] is True
    formats = components["Stage"]["properties"]["match_format"]["oneOf"]
    assert {"$ref": "#/components/schemas/BlankEnum"} in formats  # "": the tournament's
    schedule = schema["paths"]["/api/v1/tournaments/{slug}/schedule/"]["get"]["responses"]["200"]
    assert schedule["content"]["application/json"]["schema"]["type"] == "array"


@pytest.mark.django_db
def test_every_list_documents_the_errors_it_answers(client: Client) -> None:
    """Each list in the schema is asked for a page past the last, with each filter it
    documents given a value it cannot read (a word for a number, a date or a choice), and
    (when it lives under another resource) for a game or tournament that does not exist:
    each answer is in the one error shape, with a status the schema documents for it."""
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    asked = 0
    for path, operations in schema["paths"].items():
        get = operations.get("get")
        if get is None or not get["operationId"].endswith("_list"):
            continue
        if {} not in get.get("security", [{}]):  # asked without a token: 401, as documented
            assert "401" in get["responses"], path
            continue
        filters = [  # those a word like "??" is not a value of (a slug or a name is)
            p["name"]
            for p in get.get("parameters", [])
            if p["in"] == "query"
            and p["name"] not in ("ordering", "page", "page_size", "search")
            and p["schema"] != {"type": "string"}
        ]
        url = path.replace("{id}", "999").replace("{slug}", "none")
        tries = [f"{url}?{name}=%3F%3F" for name in filters]
        if any(p["name"] == "page" for p in get.get("parameters", [])):
            tries.append(f"{url}?page=99")
        if "{" in path:
            tries.append(url)
        for attempt in tries:
            response = client.get(attempt)
            asked += 1
            assert response.status_code in (400, 404), attempt
            assert str(response.status_code) in get["responses"], attempt
            assert set(response.json()) == {"message", "code", "fields"}, attempt
    assert asked > 20


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr-CA"])
def test_no_property_is_titled_with_its_model_field_s_label(client: Client, language: str) -> None:
    """The models' field labels are written (and translated) for the admin: the schema names a
    property by its key and describes it, in whatever language it is read."""
    schema = client.get(
        "/api/schema/",
        HTTP_ACCEPT="application/vnd.oai.openapi+json",
        HTTP_ACCEPT_LANGUAGE=language,
    ).json()
    titled = [
        f"{name}.{key}"
        for name, component in schema["components"]["schemas"].items()
        for key, prop in component.get("properties", {}).items()
        if "title" in prop
    ]
    assert titled == []
