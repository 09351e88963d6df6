"""Conditional reads for every API read that has no version of its own: lists, standings,
brackets, a tournament's schedule and day.

A detail of a versioned resource answers ``ETag: "<version>"`` and 304 itself
(:mod:`tarabish_site.api.versioning`). Every other ``GET`` under ``/api/`` gets Django's
conditional handling: a weak ``ETag`` made from the body, and 304 with no body when
``If-None-Match`` names it, so a pad or a board polling standings downloads them only when they
changed. The server still builds the answer; what is saved is the transfer and the client's
work.
"""

from django.http import HttpRequest, HttpResponseBase
from django.middleware.http import ConditionalGetMiddleware


class ApiConditionalGet(ConditionalGetMiddleware):
    """Django's ``ConditionalGetMiddleware`` for ``/api/`` only (pages carry a CSRF token or
    a nonce that changes on every answer: a tag of their body would never match)."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if not request.path.startswith("/api/v1/"):
            return response
        return super().process_response(request, response)
