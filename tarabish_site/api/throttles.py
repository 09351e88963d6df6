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

Both fail open: when the cache cannot be reached the request is let through, logged (at most
once a minute per process) and counted in ``tarabish_cache_unreachable{where="throttle"}``.
A limit exists to stop a runaway client; refusing every table's hands because the cache is
down would stop the hall instead.
"""

import logging
import time
from typing import TYPE_CHECKING

from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import SimpleRateThrottle, UserRateThrottle

from tarabish_site import metrics
from tarabish_site.cache import UNREACHABLE, count_in_window

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView

log = logging.getLogger(__name__)

#: When this process last logged that the cache was unreachable (monotonic seconds).
_last_logged = [-3600.0]
_LOG_EVERY = 60.0


def _let_through(scope: str, exc: BaseException) -> bool:
    metrics.CACHE_UNREACHABLE.labels("throttle").inc()
    now = time.monotonic()
    if now - _last_logged[0] >= _LOG_EVERY:
        _last_logged[0] = now
        log.warning(
            "rate limit %s not checked: the cache is unreachable (%s); requests pass",
            scope,
            type(exc).__name__,
        )
    return True


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
        try:
            count = count_in_window(f"{key}:{window}", self.duration)
        except UNREACHABLE as exc:
            return _let_through(self.scope, exc)
        return count <= self.num_requests

    def wait(self) -> float:
        """Seconds until the window ends and the counter starts again."""
        return max(self.window_end - self.now, 1.0)


class LoginThrottle(SimpleRateThrottle):
    """Limits token requests per client address, whoever they claim to be."""

    scope = "login"

    def get_cache_key(self, request: "Request", view: "APIView") -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def allow_request(self, request: "Request", view: "APIView") -> bool:
        try:
            return super().allow_request(request, view)
        except UNREACHABLE as exc:
            return _let_through(self.scope, exc)
