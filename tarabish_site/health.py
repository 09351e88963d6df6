"""``GET /healthz``: is this process able to serve? Checks the database, and the broker and cache
when they are configured. 200 when all answer, 503 when any does not."""

import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tarabish_site.celery import app as celery_app


def _timed(check: Any) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        check()
    except Exception as exc:  # noqa: BLE001 - any failure means "not reachable"
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    return {"ok": True, "ms": round((time.perf_counter() - started) * 1000, 1)}


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _broker() -> None:
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)


def _cache() -> None:
    cache.set("healthz", "ok", timeout=5)
    if cache.get("healthz") != "ok":
        raise RuntimeError("the cache did not return what was stored")


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _timed(_database)}
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        checks["broker"] = _timed(_broker)
    if settings.REDIS_URL:
        checks["cache"] = _timed(_cache)
    healthy = all(check["ok"] for check in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", "checks": checks},
        status=200 if healthy else 503,
    )
