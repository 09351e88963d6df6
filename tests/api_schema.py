"""An answer checked against the component the served schema describes it with."""

import copy
from typing import Any

from django.test import Client
from openapi_schema_validator import OAS30Validator


def served_schema() -> dict[str, Any]:
    response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    return dict(response.json())


def assert_described(schema: dict[str, Any], component: str, body: object) -> None:
    """``body`` is what ``component`` says: its types, enums and nulls, each key it requires,
    and no key it does not name (every object of the answer is held to its properties)."""
    components = copy.deepcopy(schema["components"])
    for shape in components["schemas"].values():
        if "properties" in shape:
            shape.setdefault("additionalProperties", False)
    root = {"$ref": f"#/components/schemas/{component}", "components": components}
    errors = [error.message for error in OAS30Validator(root).iter_errors(body)]
    assert errors == [], errors[:5]
