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
