"""``GET /healthz``: is this process able to serve? Checks the database, and the broker and cache
when they are configured. 200 when all answer, 503 when any does not.

A probe never holds a web worker for long, whatever is down: the checks run side by side,
each with short connect timeouts, and one that has not answered within
:data:`DEADLINE_SECONDS` counts as down. The answer is kept for :data:`FRESH_SECONDS`, so
probes that come close together (a load balancer's, an orchestrator's, a person's) run the
checks once. Anonymous callers learn which check failed; what the error was (its type and
message, which may name hosts) is shown to staff only, and logged.
"""

import logging
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tarabish_site.celery import app as celery_app

log = logging.getLogger(__name__)

#: How long the checks together may take before the ones still running count as down.
DEADLINE_SECONDS = 0.8
#: How long an answer is given again without checking again.
FRESH_SECONDS = 2.0
#: The connect timeout of the broker check.
CONNECT_TIMEOUT = 0.5

# A check that times out keeps its thread until its own timeouts end it; a few threads are
# enough, and a probe that finds them all busy counts the checks it cannot start as down.
_pool = ThreadPoolExecutor(max_workers=6, thread_name_prefix="healthz")
_lock = threading.Lock()
_last: dict[str, Any] = {}


def _database() -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        if connection.vendor != "sqlite":  # this thread's own connection, not kept
            connection.close()


def _broker() -> None:
    with celery_app.connection_for_write(connect_timeout=CONNECT_TIMEOUT) as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, timeout=1)


def _cache() -> None:
    cache.set("healthz", "ok", timeout=5)
    if cache.get("healthz") != "ok":
        raise RuntimeError("the cache did not return what was stored")


def _run_checks() -> dict[str, dict[str, Any]]:
    checks = {"database": _database}
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        checks["broker"] = _broker
    if settings.REDIS_URL:
        checks["cache"] = _cache
    started = time.perf_counter()
    deadline = started + DEADLINE_SECONDS
    futures: dict[str, Future[None]] = {name: _pool.submit(check) for name, check in checks.items()}
    results: dict[str, dict[str, Any]] = {}
    for name, future in futures.items():
        try:
            future.result(timeout=max(deadline - time.perf_counter(), 0))
        except FutureTimeout:
            future.cancel()
            results[name] = {"ok": False, "error": f"no answer within {DEADLINE_SECONDS} s"}
        except Exception as exc:  # noqa: BLE001 - any failure means "not reachable"
            results[name] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        else:
            results[name] = {"ok": True, "ms": round((time.perf_counter() - started) * 1000, 1)}
    for name, result in results.items():
        if not result["ok"]:
            log.warning("healthz: %s is down: %s", name, result["error"])
    return results


def checks_now() -> dict[str, dict[str, Any]]:
    """The checks' results, run again unless an answer fresher than ``FRESH_SECONDS`` is kept."""
    now = time.monotonic()
    with _lock:
        if _last and now - _last["at"] < FRESH_SECONDS:
            return dict(_last["checks"])
    checks = _run_checks()
    with _lock:
        _last.update(at=time.monotonic(), checks=checks)
    return checks


def forget() -> None:
    """Drop the answer kept, so the next probe checks again."""
    with _lock:
        _last.clear()


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = checks_now()
    healthy = all(check["ok"] for check in checks.values())
    if not (request.user.is_authenticated and request.user.is_staff):
        checks = {
            name: {key: value for key, value in check.items() if key != "error"}
            for name, check in checks.items()
        }
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", "checks": checks},
        status=200 if healthy else 503,
    )
