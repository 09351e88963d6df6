"""OpenAPI pieces every app's views share: the one error shape and its documented responses.

@extend_schema(
    request=HandCreateSerializer,
    responses={201: HandSerializer, **error_responses(400, 403, 404, 409, 422)},
)
"""

import copy
from typing import Any

from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import build_bearer_security_scheme_object, force_instance
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
)
from rest_framework import serializers
from rest_framework.permissions import SAFE_METHODS, IsAuthenticatedOrReadOnly

from tarabish_site.api.versioning import IF_NONE_MATCH_PARAMETER

#: The tag of a read with no version of its own (tarabish_site.api.conditional).
BODY_ETAG_HEADER = OpenApiParameter(
    name="ETag",
    type=str,
    location=OpenApiParameter.HEADER,
    response=[200],
    description="A tag of this answer: send it in `If-None-Match` to get 304 and no body "
    "while the answer is unchanged.",
)


#: Where what a POST made can be read (an answer of 201 for one resource with an address).
LOCATION_HEADER = OpenApiParameter(
    name="Location",
    type=str,
    location=OpenApiParameter.HEADER,
    response=[201],
    description="The address of what was made (its `GET`), for example `/api/v1/games/41/`.",
)


class ErrorSerializer(serializers.Serializer[object]):
    """The one error shape: ``{"message": str, "code": str, "fields": {field: [reason]}}``."""

    message = serializers.CharField(
        help_text="What went wrong, in words for the person at the table."
    )
    code = serializers.CharField(
        help_text="A stable slug a program can test, e.g. `stale_version`."
    )


# "fields" is the name of the body's key, and also of a Serializer property, so it cannot be
# declared in the class body; added here, it is an ordinary declared field.
ErrorSerializer._declared_fields["fields"] = serializers.DictField(
    child=serializers.ListField(child=serializers.CharField()),
    help_text="Each field in error (dotted path into the body, or a header name) and its reasons.",
)

_ERRORS: dict[int, tuple[str, str, str, dict[str, list[str]]]] = {
    400: (
        "The request is not valid: each field in error is named with the reason.",
        "card_points_impossible",
        "card points 161 are impossible: no card is worth 1",
        {"card_points": ["card points 161 are impossible: no card is worth 1"]},
    ),
    401: (
        "No valid credentials: send `Authorization: Token <token>` (a device token).",
        "not_authenticated",
        "Authentication credentials were not provided.",
        {},
    ),
    403: (
        "You may not do this (only the game's scorekeepers and directors may write).",
        "permission_denied",
        "Only the scorekeepers of this game or a director may change it.",
        {},
    ),
    404: ("There is no such resource.", "not_found", "No game 41 was found.", {}),
    409: (
        (
            "A conflicting change exists (for example the hand number is already entered, or a "
            "request with the same Idempotency-Key is still running)."
        ),
        "hand_exists",
        "Hand 7 of this game is already entered (by another score-pad): read the game again.",
        {"number": ["Hand 7 of this game is already entered."]},
    ),
    412: (
        "The resource has changed since you read it (If-Match is stale).",
        "stale_version",
        (
            "The hand has changed since you read it: you sent version 2, it is now at version 3. "
            "Read it again and re-apply your change."
        ),
        {"If-Match": ["The hand has changed since you read it."]},
    ),
    422: (
        "The Idempotency-Key was already used for a different request.",
        "idempotency_key_reused",
        (
            "This Idempotency-Key was already used for a different request "
            "(POST /api/v1/games/41/hands/ with another body). Use a new key for a new request."
        ),
        {"Idempotency-Key": ["This Idempotency-Key was already used for a different request."]},
    ),
    428: (
        "If-Match is required for this change.",
        "version_required",
        (
            'Send the ETag you read in the If-Match header (for example If-Match: "7"), so that a '
            "change made by someone else in the meantime is not overwritten."
        ),
        {"If-Match": ["Send the ETag you read in the If-Match header."]},
    ),
    429: (
        "Too many requests: wait the number of seconds in `Retry-After`.",
        "throttled",
        "Request was throttled. Expected available in 12 seconds.",
        {},
    ),
}


#: A list's own errors: a filter's value it cannot read, a page past the last.
_LIST_ERRORS: dict[int, tuple[str, str, str, dict[str, list[str]]]] = {
    400: (
        (
            "A filter's value or a page size is not valid, or a query parameter is one the "
            "list does not take, is given twice or is empty: each is named with the reason."
        ),
        "invalid",
        "status: Select a valid choice. over is not one of the available choices.",
        {"status": ["Select a valid choice. over is not one of the available choices."]},
    ),
    404: (
        "No such page (past the last, or not a number).",
        "not_found",
        "There is no page 99.",
        {},
    ),
}


def error_response(
    status: int,
    description: str | None = None,
    *,
    errors: dict[int, tuple[str, str, str, dict[str, list[str]]]] = _ERRORS,
) -> OpenApiResponse:
    """A documented error response of ``status`` in the one shape, with an example."""
    default_description, code, message, fields = errors[status]
    example = OpenApiExample(
        f"{status} {code}",
        value={"message": message, "code": code, "fields": fields},
        response_only=True,
        status_codes=[status],
    )
    return OpenApiResponse(
        response=ErrorSerializer,
        description=description or default_description,
        examples=[example],
    )


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """``{status: error_response(status)}`` for each status, to spread into ``responses``."""
    return {status: error_response(status) for status in statuses}


#: The errors a write answers for the headers it takes, whatever its own: a malformed header
#: (400); for ``If-Match`` a weak or stale tag (412) or none, or ``*`` (428); for
#: ``Idempotency-Key`` the key used for another request (422) or still running (409).
_HEADER_ERRORS: dict[str, dict[int, str]] = {
    "If-Match": {
        400: "The request is not valid: a field, or a malformed `If-Match` or "
        "`Idempotency-Key` header, is named with the reason.",
        412: _ERRORS[412][0],
        428: "If-Match is required for this change, and must name a version (not `*`).",
    },
    "Idempotency-Key": {
        400: "The request is not valid: a field, or a malformed `Idempotency-Key` header, is "
        "named with the reason.",
        409: "A conflicting change exists, or a request with the same Idempotency-Key is "
        "still running.",
        422: _ERRORS[422][0],
    },
}
_WRITES = ("POST", "PUT", "PATCH", "DELETE")
_REFUSED_CREDENTIALS = (
    "The token sent is not valid (wrong, expired or revoked): send a valid one, or none "
    "(this read needs none)."
)


class ApiAutoSchema(AutoSchema):
    """drf-spectacular's schema, with the errors every list and every write answers
    documented once here rather than on each: for a list, 400 (a filter's value it cannot
    read, a query parameter it does not take, given twice or empty), 404 when it is paginated
    (a page past the last) or lives under another resource (a game or a tournament that does
    not exist); for a write, 429 (the write rate limit) and the errors of the headers it takes
    (``If-Match``, ``Idempotency-Key``). An operation that documents its own keeps them."""

    def get_auth(self) -> list[dict[str, Any]]:
        """Reads that need no token say so (``{}`` among the security requirements) for any
        view whose permission reads for anyone: drf-spectacular knows only DRF's own class."""
        auths: list[dict[str, Any]] = super().get_auth()
        anonymous_reads = self.method in SAFE_METHODS and any(
            isinstance(permission, IsAuthenticatedOrReadOnly)
            for permission in self.view.get_permissions()
        )
        if anonymous_reads and {} not in auths:
            auths.append({})
        return auths

    def get_override_parameters(self) -> list[Any]:
        """Every read takes ``If-None-Match`` and answers ``ETag`` (a versioned resource's own,
        or a tag of the body: :mod:`tarabish_site.api.conditional`)."""
        parameters: list[Any] = list(super().get_override_parameters())
        if self.method == "GET":
            names = {p.name for p in parameters if isinstance(p, OpenApiParameter)}
            if IF_NONE_MATCH_PARAMETER.name not in names:
                parameters.append(IF_NONE_MATCH_PARAMETER)
            if "ETag" not in names:
                parameters.append(BODY_ETAG_HEADER)
        return parameters

    def _get_request_for_media_type(
        self, serializer: Any, direction: Any = "request"
    ) -> tuple[Any, bool]:
        """A body is required wherever the view refuses a request without one, which
        drf-spectacular knows only for a plain serializer: a body of several shapes (a hand's
        summary or tricks) each with keys it needs, a JSON document (an export to import),
        and a PATCH whose serializer is validated whole (``whole_on_patch``)."""
        schema, required = super()._get_request_for_media_type(  # type: ignore[no-untyped-call]
            serializer, direction
        )
        if isinstance(serializer, PolymorphicProxySerializer):
            shapes = serializer.serializers
            alternatives = shapes.values() if isinstance(shapes, dict) else shapes
            required = all(_needs_keys(shape) for shape in alternatives)
        elif serializer is OpenApiTypes.OBJECT and self.method in ("POST", "PUT"):
            required = True
        elif self.method == "PATCH" and getattr(serializer, "whole_on_patch", False):
            # drf-spectacular documents a PATCH body as partial; this one is validated whole.
            patched = copy.copy(force_instance(serializer))  # type: ignore[no-untyped-call]
            patched.partial = True
            component = self.resolve_serializer(patched, direction)
            component.schema["required"] = _needed_keys(serializer)
            required = True
        return schema, required

    def _header_names(self) -> set[str]:
        return {
            parameter.name
            for parameter in self.get_override_parameters()
            if isinstance(parameter, OpenApiParameter)
            and parameter.location == OpenApiParameter.HEADER
            and not parameter.response
        }

    def _add(
        self, responses: dict[str, Any], added: dict[int, OpenApiResponse], direction: Any
    ) -> dict[str, Any]:
        for status, response in added.items():
            if str(status) not in responses:
                responses[str(status)] = self._get_response_for_code(  # type: ignore[no-untyped-call]
                    response, str(status), direction=direction
                )
        return responses

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        if any(requirement for requirement in self.get_auth()):
            # A token that is wrong, expired or revoked is refused before anything else, even
            # where no token is needed.
            responses = self._add(
                responses,
                {401: error_response(401, _REFUSED_CREDENTIALS if {} in self.get_auth() else None)},
                direction,
            )
        if self.method in _WRITES:
            for_writes = {429: error_response(429)}
            headers = self._header_names()
            for header, errors in _HEADER_ERRORS.items():
                if header in headers:
                    for status, description in errors.items():
                        for_writes.setdefault(status, error_response(status, description))
            return self._add(responses, for_writes, direction)
        if self.method == "GET" and "304" not in responses:
            responses["304"] = {"description": "Not modified: the `ETag` sent is current."}
        if self.method != "GET" or not self._is_list_view():
            return responses
        view: Any = self.view  # a GenericAPIView, for a list
        added: dict[int, OpenApiResponse] = {}
        paginated = self._get_paginator() is not None  # type: ignore[no-untyped-call]
        filtered = any(issubclass(backend, DjangoFilterBackend) for backend in view.filter_backends)
        if filtered or paginated:  # a filter's value, or a page size, it cannot read
            added[400] = error_response(400, errors=_LIST_ERRORS)
        nested = "{" in self.path
        if paginated or nested:
            description = _LIST_ERRORS[404][0]
            if nested:
                description = "No such page, or the resource the list belongs to does not exist."
            added[404] = error_response(404, description, errors=_LIST_ERRORS)
        return self._add(responses, added, direction)


def _needed_keys(serializer: Any) -> list[str]:
    fields = force_instance(serializer).fields  # type: ignore[no-untyped-call]
    return [name for name, field in fields.items() if field.required and not field.read_only]


def _needs_keys(serializer: Any) -> bool:
    return bool(_needed_keys(serializer))


def lib_doc_excludes() -> list[type]:
    """Classes whose docstring is no component's description (``GET_LIB_DOC_EXCLUDES``):
    drf-spectacular's own list and the body mixins, so that a serializer without a docstring
    of its own gets no description rather than a mixin's."""
    from drf_spectacular.plumbing import get_lib_doc_excludes

    from tarabish_site.api.serializers import DocumentedKeys, OnlyItsChanges, OnlyItsFields

    return [*get_lib_doc_excludes(), OnlyItsFields, OnlyItsChanges, DocumentedKeys]  # type: ignore[no-untyped-call]


def _subclasses(cls: type) -> set[type]:
    found: set[type] = set()
    pending = [cls]
    while pending:
        for sub in pending.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                pending.append(sub)
    return found


def refuse_unknown_keys_hook(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """``additionalProperties: false`` on each request body that refuses keys it does not know
    (:class:`~tarabish_site.api.serializers.OnlyItsFields`, and the bodies and parts of bodies
    whose views check their keys, :class:`~tarabish_site.api.serializers.DocumentedKeys`), so
    that clients and tests built from the schema know an extra key is an error (a
    postprocessing hook)."""
    from tarabish_site.api.serializers import DocumentedKeys, OnlyItsFields

    components = result.get("components", {}).get("schemas", {})
    for cls in _subclasses(OnlyItsFields) | _subclasses(DocumentedKeys):
        base = cls.__name__.removesuffix("Serializer")
        for name in (f"{base}Request", f"Patched{base}Request"):
            component = components.get(name)
            if component is not None and component.get("type") == "object":
                component["additionalProperties"] = False
    return result


class DeviceTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """``Authorization: Token <token>``: a device token (``tarabish_site.api.authentication``)."""

    target_class = "tarabish_site.api.authentication.DeviceTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        definition: dict[str, Any] = build_bearer_security_scheme_object(
            header_name="Authorization",
            token_prefix="Token",  # noqa: S106 (the scheme's word, not a secret)
        )
        definition["description"] = (
            "A device token from `POST /api/v1/auth/token/`, sent as `Token <token>`; it "
            "expires when unused for the days the sign-in answer's `expiry` counts."
        )
        return definition


#: A row id or a hand number in a path, as the URL patterns take it (tarabish_site.api.routes).
_DIGITS = {"type": "string", "pattern": "^[0-9]{1,18}$"}
_PATH_INTEGER = {"type": "integer", "minimum": 1, "maximum": 10**18 - 1}
_SLUG = {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"}
#: What the id in a path names, by the collection before it (``ratings/{id}`` is a player's).
_ID_OF = {
    "disputes": "The dispute's id.",
    "games": "The game's id.",
    "matches": "The match's id.",
    "players": "The player's id.",
    "teams": "The team's id.",
    "ratings": "The player's id (a rating is a player's).",
    "entries": "The entry's id.",
    "stages": "The stage's id.",
    "registrations": "The team registration's id.",
    "reports": "The result report's id.",
    "webhooks": "The webhook's id.",
}


#: A path parameter a nested route names after its parent (``games/{game_pk}/hands/``), named
#: as the parent's own routes name it (``games/{id}/``): one name for one thing in every path.
_PARENT_NAMES = {"game_pk": "id", "tournament_slug": "slug"}


def _same_names(result: dict[str, Any]) -> None:
    paths = result.get("paths", {})
    for path in list(paths):
        renamed = path
        for nested, own in _PARENT_NAMES.items():
            renamed = renamed.replace(f"{{{nested}}}", f"{{{own}}}")
        if renamed == path:
            continue
        if renamed in paths:
            raise ValueError(f"two routes would document {renamed}")
        operations = paths.pop(path)
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "path" and parameter["name"] in _PARENT_NAMES:
                    parameter["name"] = _PARENT_NAMES[parameter["name"]]
        paths[renamed] = operations


def path_parameters_hook(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """One name and one shape per path parameter (a postprocessing hook): a game is ``{id}``
    and a tournament ``{slug}`` in every path, under them as on their own; a row id or a hand
    number is an integer wherever it appears (the URL takes digits only, so DRF's router
    documents it as a string with a pattern where a view names its own type as an integer), a
    tournament's slug is the same string everywhere, and an id says whose it is."""
    _same_names(result)
    for path, operations in result.get("paths", {}).items():
        segments = path.strip("/").split("/")
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter.get("in") != "path":
                    continue
                name, schema = parameter["name"], parameter.get("schema", {})
                if schema == _DIGITS or schema.get("type") == "integer":
                    parameter["schema"] = dict(_PATH_INTEGER)
                if name == "slug":
                    parameter["schema"] = dict(_SLUG)
                    parameter.setdefault("description", "The tournament's slug.")
                if name == "number":
                    parameter.setdefault("description", "The hand's number in its game.")
                if name == "id" and not parameter.get("description"):
                    before = segments[segments.index("{id}") - 1]
                    if before in _ID_OF:
                        parameter["description"] = _ID_OF[before]
    return result


#: The JSON a column or a body key holds whose keys the engine (or a stage's drawing) defines:
#: documented by its type, and its keys in its description.
_JSON_OBJECT = {"type": "object", "additionalProperties": True}
_JSON_SHAPES: dict[str, dict[str, Any]] = {
    "entry": _JSON_OBJECT,
    "result": _JSON_OBJECT,
    "evidence": _JSON_OBJECT,
    "verdict": _JSON_OBJECT,
    "ruleset": _JSON_OBJECT,
    "home_source": _JSON_OBJECT,
    "away_source": _JSON_OBJECT,
    "tiebreakers": {"type": "array", "items": {"$ref": "#/components/schemas/TiebreakersEnum"}},
    "card_points": {
        "oneOf": [
            {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
            {
                "type": "object",
                "properties": {
                    "team": {"type": "string", "enum": ["team_a", "team_b"]},
                    "points": {"type": "integer"},
                },
                "required": ["team", "points"],
                "additionalProperties": False,
            },
        ]
    },
}


#: Sent with every 429 (the write limit, the sign-in limit): whole seconds to wait.
_RETRY_AFTER = {
    "schema": {"type": "integer", "minimum": 0},
    "description": "Whole seconds to wait before trying again.",
}


def response_headers_hook(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """``Retry-After`` on every 429 (a postprocessing hook): the throttles send it with each,
    whatever the operation, so it is declared once here rather than on each."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            refused = operation.get("responses", {}).get("429")
            if refused is not None:
                refused.setdefault("headers", {})["Retry-After"] = dict(_RETRY_AFTER)
    return result


def json_shapes_hook(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """A type for each property held as free JSON (a postprocessing hook): drf-spectacular
    documents a JSON column as ``{}``, any value, which a generated client cannot type. Only a
    property left untyped is given one; its description and nullability stay."""
    components = result.get("components", {}).get("schemas", {})
    for component in components.values():
        for name, prop in component.get("properties", {}).items():
            shape = _JSON_SHAPES.get(name)
            untyped = not {"type", "$ref", "oneOf", "allOf", "anyOf"} & set(prop)
            if shape is None or not untyped:
                continue
            prop.update(shape)
    return result


def property_titles_hook(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """No title on a component's properties (a postprocessing hook): drf-spectacular titles a
    property with its model field's label, which is written for the admin (and translated
    with the request's language). The API's keys are its names; a property's description
    says what it holds."""
    for component in result.get("components", {}).get("schemas", {}).values():
        for prop in component.get("properties", {}).values():
            prop.pop("title", None)
    return result
