"""OpenAPI pieces every app's views share: the one error shape and its documented responses.

@extend_schema(
    request=HandCreateSerializer,
    responses={201: HandSerializer, **error_responses(400, 403, 404, 409, 422)},
)
"""

from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import serializers


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
        "No valid credentials: send `Authorization: Token <key>`.",
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


def error_response(status: int, description: str | None = None) -> OpenApiResponse:
    """A documented error response of ``status`` in the one shape, with an example."""
    default_description, code, message, fields = _ERRORS[status]
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
