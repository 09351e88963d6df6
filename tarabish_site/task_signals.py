"""One log line per task run, with its ids, and its count and time in the metrics.

A task sent while a request is served carries the request's id in its message headers, so the
task's lines can be found from the request that caused it. Connected by
:mod:`tarabish_site.celery`, in web processes (which send tasks, and run them in-process when
there is no broker) and workers alike.
"""

from __future__ import annotations

import inspect
import logging
import time
from contextvars import Token
from typing import Any

from celery import signals
from celery.app.task import Task

from tarabish_site import logs, metrics

logger = logging.getLogger("tarabish.task")

#: task id -> (when it started, the log context token to put back)
_running: dict[str, tuple[float, Token[Any] | None]] = {}


def _ids(task: Task, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:  # type: ignore[type-arg]
    """The task's arguments whose names end in ``_id`` (``match_id=7``), as log fields."""
    try:
        bound = inspect.signature(task.run).bind_partial(*args, **kwargs)
    except TypeError:
        return {}
    return {name: value for name, value in bound.arguments.items() if name.endswith("_id")}


@signals.before_task_publish.connect
def _send_request_id(headers: dict[str, Any] | None = None, **_: Any) -> None:
    request_id = logs.current().get("request_id")
    if headers is not None and request_id and "request_id" not in headers:
        headers["request_id"] = request_id


@signals.task_prerun.connect
def _task_started(task_id: str, task: Task, **_: Any) -> None:  # type: ignore[type-arg]
    request_id = getattr(task.request, "request_id", None) or logs.current().get("request_id")
    token = logs.enter(task_id=task_id, task=task.name, request_id=request_id)
    _running[task_id] = (time.perf_counter(), token)


@signals.task_postrun.connect
def _task_finished(
    task_id: str,
    task: Task,  # type: ignore[type-arg]
    args: tuple[Any, ...] = (),
    kwargs: dict[str, Any] | None = None,
    state: str | None = None,
    **_: Any,
) -> None:
    started, token = _running.pop(task_id, (time.perf_counter(), None))
    seconds = time.perf_counter() - started
    outcome = {"SUCCESS": "succeeded", "RETRY": "retried"}.get(state or "", "failed")
    metrics.TASK_RUNS.labels(task=task.name, outcome=outcome).inc()
    metrics.TASK_SECONDS.labels(task=task.name).observe(seconds)
    ids = _ids(task, args, kwargs or {})
    logger.log(
        logging.INFO if outcome != "failed" else logging.ERROR,
        "task %s %s",
        task.name,
        outcome,
        extra={"outcome": outcome, "duration_ms": round(seconds * 1000, 1), **ids},
    )
    if token is not None:
        logs.leave(token)
