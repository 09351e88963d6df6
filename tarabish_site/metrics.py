"""Prometheus metrics: request latency by route, hands entered, task runs and failures, and
the depth of the task queue, served at ``/metrics`` to staff or to a scraper holding
``METRICS_TOKEN``.

gunicorn runs several worker processes and Celery several children, each with its own
counters. With ``METRICS_DIR`` set (the deploy/ start scripts then give each kind of process a
directory of its own under it, in ``PROMETHEUS_MULTIPROC_DIR``), every process writes its
counts to files there and ``/metrics`` adds up the files of all of them: web workers, task
workers on the same host, and those that have exited since the service started (so counters
never go back). Without it (development) the one process's own counts are served.
"""

from __future__ import annotations

import glob
import hmac
import logging
import os
from collections.abc import Iterable, Iterator
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

logger = logging.getLogger(__name__)

REQUEST_SECONDS = Histogram(
    "tarabish_http_request_duration_seconds",
    "Time to answer a request, by route (the URL pattern), method and status",
    ["route", "method", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
HANDS_ENTERED = Counter(
    "tarabish_hands_entered", "Hands entered and committed (a replayed retry is not counted)"
)
TASK_RUNS = Counter(
    "tarabish_task_runs",
    "Celery task runs, by task and how they ended (succeeded, failed, retried)",
    ["task", "outcome"],
)
TASK_SECONDS = Histogram(
    "tarabish_task_duration_seconds",
    "Time a task ran, by task",
    ["task"],
    buckets=(0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 30.0, 120.0, 300.0),
)
CACHE_UNREACHABLE = Counter(
    "tarabish_cache_unreachable",
    "Times the cache could not be reached and the request went on without it, by what asked "
    "(throttle: a rate limit let the request through)",
    ["where"],
)


def hand_entered() -> None:
    HANDS_ENTERED.inc()


class _AllProcesses(Collector):
    """The counts of every process under ``METRICS_DIR`` (one directory per kind of process)."""

    def __init__(self, root: str) -> None:
        self.root = root

    def collect(self) -> Iterable[Metric]:
        files = glob.glob(os.path.join(self.root, "*", "*.db"))
        merged: Iterable[Metric] = MultiProcessCollector.merge(  # type: ignore[no-untyped-call]
            files, accumulate=True
        )
        return merged


class _QueueDepth(Collector):
    """Tasks waiting in the broker's queue, asked of the broker when scraped."""

    def collect(self) -> Iterator[Metric]:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            return
        from tarabish_site.celery import app

        queue = settings.CELERY_TASK_DEFAULT_QUEUE
        up = GaugeMetricFamily("tarabish_broker_up", "Whether the broker answered this scrape")
        depth = GaugeMetricFamily(
            "tarabish_queue_depth", "Tasks waiting in the broker's queue", labels=["queue"]
        )
        try:
            with app.connection_for_read(connect_timeout=1) as conn:
                conn.ensure_connection(max_retries=1, interval_start=0, timeout=1)
                channel: Any = conn.default_channel
                declared = channel.queue_declare(queue=queue, passive=True)
        except Exception as exc:  # noqa: BLE001 - any failure: the broker is not there
            logger.warning("metrics: the broker did not answer: %s", type(exc).__name__)
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        depth.add_metric([queue], declared.message_count)
        yield up
        yield depth


def registry() -> CollectorRegistry:
    """What ``/metrics`` serves: every process's counts, and the queue's depth."""
    if settings.METRICS_DIR:
        collected = CollectorRegistry()
        collected.register(_AllProcesses(settings.METRICS_DIR))
    else:
        collected = CollectorRegistry()
        collected.register(_OneProcess())
    collected.register(_QueueDepth())
    return collected


class _OneProcess(Collector):
    """This process's own metrics (no ``METRICS_DIR``: development, one process)."""

    def collect(self) -> Iterable[Metric]:
        return REGISTRY.collect()


def _allowed(request: HttpRequest) -> bool:
    user = request.user
    if user.is_authenticated and user.is_staff:
        return True
    token = settings.METRICS_TOKEN
    offered = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(offered.encode(), f"Bearer {token}".encode())


@never_cache
@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    """``GET /metrics``: the Prometheus text format, for staff or ``Bearer METRICS_TOKEN``."""
    if not _allowed(request):
        response = HttpResponse(
            "metrics need a staff account or the bearer token METRICS_TOKEN\n",
            status=401,
            content_type="text/plain; charset=utf-8",
        )
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)
