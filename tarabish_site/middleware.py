"""The outermost middleware: each request gets an id, one log line and its latency counted."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.core.signals import request_finished
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse

from tarabish_site import logs, metrics

logger = logging.getLogger("tarabish.request")

#: The route label of a request no URL pattern answered (bounded, unlike its path).
UNMATCHED = "<unmatched>"


@receiver(request_finished, dispatch_uid="tarabish-log-context")
def _request_finished(**_: Any) -> None:
    logs.begin()


class ObservedRequests:
    """Gives the request its ``request_id`` (sent back as ``X-Request-ID``), logs one line when
    it is answered (method, path, route, status, milliseconds, the user and the ids its URL
    names) and counts its latency by route. First in ``MIDDLEWARE``, so it times the others."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = logs.new_request_id(request.headers.get("X-Request-ID"))
        started = time.perf_counter()
        # Until the answer is sent (request_finished): Django logs an error answer after the
        # middleware has returned it.
        logs.begin(request_id=request_id)
        response = self.get_response(request)
        seconds = time.perf_counter() - started
        match = request.resolver_match
        route = match.route if match is not None else UNMATCHED
        ids = logs.ids_in_route(route, match.kwargs) if match is not None else {}
        metrics.REQUEST_SECONDS.labels(
            route=route or "/", method=request.method, status=str(response.status_code)
        ).observe(seconds)
        user = getattr(request, "user", None)
        logger.info(
            "%s %s %s",
            request.method,
            request.path,
            response.status_code,
            extra={
                "method": request.method,
                "path": request.path,
                "route": route,
                "status": response.status_code,
                "duration_ms": round(seconds * 1000, 1),
                "user_id": user.pk if user is not None and user.is_authenticated else None,
                **ids,
            },
        )
        response["X-Request-ID"] = request_id
        return response
