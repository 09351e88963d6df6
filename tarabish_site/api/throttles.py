"""Rate limits (rates in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, set from the environment).

* ``writes``: every unsafe request (POST, PUT, PATCH, DELETE) per user, or per address when
  anonymous. Reads are never limited by it. Put it on every view that writes.
* ``login``: attempts to obtain a token, per client address, so passwords cannot be guessed fast.

A refused request gets 429 in the one error shape, with ``Retry-After``.
"""

from typing import TYPE_CHECKING

from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import SimpleRateThrottle, UserRateThrottle

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView


class WritesThrottle(UserRateThrottle):
    """Limits writes per user (per address for anonymous requests); reads pass."""

    scope = "writes"

    def allow_request(self, request: "Request", view: "APIView") -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)


class LoginThrottle(SimpleRateThrottle):
    """Limits token requests per client address, whoever they claim to be."""

    scope = "login"

    def get_cache_key(self, request: "Request", view: "APIView") -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
