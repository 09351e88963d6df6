"""Optimistic concurrency for versioned resources: ``ETag`` out, ``If-Match`` back in.

A versioned resource (a game, a hand...) has an integer ``version`` that its service raises on
every change. Every response that shows it carries the **strong** entity tag ``ETag: "<version>"``
(for example ``ETag: "7"``): the version names one exact state of the resource, and ``If-Match``
needs a strong tag (RFC 9110 compares strongly; a weak ``W/"7"`` never matches).

A change sends the tag back: ``If-Match: "7"``. Without it the API answers 428
``version_required``; with an old one, 412 ``stale_version``. The view only reads the header
(:func:`expected_version`) and hands the number to the service, which compares it with the row it
has locked (:func:`ensure_version`), so two score-pads cannot both pass the check::

    def partial_update(self, request, *args, **kwargs):
        hand = hand_correct(..., expected_version=expected_version(request), ...)
        return with_etag(Response(HandSerializer(hand).data), hand.version)

Reads may send ``If-None-Match: "7"`` and get 304 Not Modified while nothing changed
(:func:`not_modified`), which spares a polling score-pad the body.
"""

import re

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response

from tarabish_site.api.errors import PreconditionFailed, PreconditionRequired, ValidationFailed

IF_MATCH = "If-Match"
_STRONG_TAG = re.compile(r'"(\d{1,18})"')
_ANY_TAG = re.compile(r'\s*(?:W/)?"([^"]*)"\s*')

#: A strong tag, as the ETag it answers: ``"7"``.
IF_MATCH_SCHEMA = {"type": "string", "pattern": '^"[0-9]{1,18}"$'}

IF_MATCH_PARAMETER = OpenApiParameter(
    name=IF_MATCH,
    type=IF_MATCH_SCHEMA,
    location=OpenApiParameter.HEADER,
    required=True,
    description=(
        'The `ETag` of the version you read, for example `"7"`. Missing: 428; the resource has '
        "changed since: 412 (read it again and re-apply your change)."
    ),
)
OPTIONAL_IF_MATCH_PARAMETER = OpenApiParameter(
    name=IF_MATCH,
    type=IF_MATCH_SCHEMA,
    location=OpenApiParameter.HEADER,
    required=False,
    description=(
        'The `ETag` of the version you read, for example `"7"`: the change is refused with 412 '
        "when someone else changed it since. Without it, the change is made on it as it is."
    ),
)
IF_NONE_MATCH_PARAMETER = OpenApiParameter(
    name="If-None-Match",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=False,
    description="The `ETag` you already hold: answered with 304 and no body while it is current.",
)
ETAG_RESPONSE_HEADER = OpenApiParameter(
    name="ETag",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    response=[200, 201],
    description='Strong entity tag of the version shown, for example `"7"`. Send it back in '
    "`If-Match` to change the resource.",
)


def etag_for(version: int) -> str:
    """The strong entity tag of ``version``: ``"7"``."""
    return f'"{version}"'


def with_etag(response: Response, version: int) -> Response:
    """Put the ``ETag`` of ``version`` on ``response`` and return it."""
    response["ETag"] = etag_for(version)
    return response


def expected_version(request: Request) -> int:
    """The version the client read, from ``If-Match``; 428 when absent, 400 when unreadable."""
    raw = (request.headers.get(IF_MATCH) or "").strip()
    if not raw:
        reason = (
            'Send the ETag you read in the If-Match header (for example If-Match: "7"), '
            "so that a change made by someone else in the meantime is not overwritten."
        )
        raise PreconditionRequired(reason, fields={IF_MATCH: [reason]})
    if raw == "*":
        reason = 'If-Match must name the version you read, for example "7", not *.'
        raise PreconditionRequired(reason, fields={IF_MATCH: [reason]})
    if raw.startswith("W/"):
        reason = (
            f"If-Match {raw} is a weak tag and never matches; send the ETag exactly as it was "
            'returned, for example "7".'
        )
        raise PreconditionFailed(reason, fields={IF_MATCH: [reason]})
    match = _STRONG_TAG.fullmatch(raw)
    if match is None:
        reason = f'If-Match {raw} is not an ETag of this API: send one tag such as "7".'
        raise ValidationFailed(reason, code="invalid_if_match", fields={IF_MATCH: [reason]})
    return int(match.group(1))


def ensure_version(*, current: int, expected: int, thing: str = "record") -> None:
    """Refuse a change made against an old version (412). Call it under the row lock."""
    if current != expected:
        reason = (
            f"The {thing} has changed since you read it: you sent version {expected}, "
            f"it is now at version {current}. Read it again and re-apply your change."
        )
        raise PreconditionFailed(reason, fields={IF_MATCH: [reason]})


def not_modified(request: Request, version: int) -> bool:
    """Whether ``If-None-Match`` names ``version`` (weak comparison, as RFC 9110 asks)."""
    raw = request.headers.get("If-None-Match")
    if not raw:
        return False
    if raw.strip() == "*":
        return True
    wanted = str(version)
    return any(
        (match := _ANY_TAG.fullmatch(part)) is not None and match.group(1) == wanted
        for part in raw.split(",")
    )


def not_modified_response(version: int) -> Response:
    """304 with the current ``ETag`` and no body."""
    return with_etag(Response(status=304), version)
