"""Rate limits (rates in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, set from the environment).

* ``writes``: every unsafe request (POST, PUT, PATCH, DELETE) per user, or per address when
  anonymous. Reads are never limited by it. It is DRF's default throttle
  (``DEFAULT_THROTTLE_CLASSES``), so no API view that writes can leave it out. It counts in
  fixed windows (a counter per user and window, one round trip to the cache), so checking
  it costs the same however high the rate: a score-pad pays for it on every hand. At a
  window's edge a client can get up to twice the rate in a short burst, which is enough to stop
  a runaway client or a password-less flood.
* ``login``: attempts to obtain a token, per client address, so passwords cannot be guessed fast.

A refused request gets 429 in the one error shape, with ``Retry-After``.
"""

from typing import TYPE_CHECKING

from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import SimpleRateThrottle, UserRateThrottle

from tarabish_site.cache import count_in_window

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView


class WritesThrottle(UserRateThrottle):
    """Limits writes per user (per address for anonymous requests); reads pass."""

    scope = "writes"
    window_end = 0.0
    num_requests: int
    duration: int

    def allow_request(self, request: "Request", view: "APIView") -> bool:
        if request.method in SAFE_METHODS or self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        self.now = self.timer()
        window = int(self.now // self.duration)
        self.window_end = (window + 1) * self.duration
        count = count_in_window(self.cache, f"{key}:{window}", self.duration)
        return count <= self.num_requests

    def wait(self) -> float:
        """Seconds until the window ends and the counter starts again."""
        return max(self.window_end - self.now, 1.0)


class LoginThrottle(SimpleRateThrottle):
    """Limits token requests per client address, whoever they claim to be."""

    scope = "login"

    def get_cache_key(self, request: "Request", view: "APIView") -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
