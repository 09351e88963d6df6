"""gunicorn settings for the web process (deploy/start-web.sh). Each value can be overridden
from the environment, so the same file serves a small hall laptop and a larger server.

Workers are synchronous by default: a worker takes a connection off the listening socket only
when it is free, so requests wait in one queue, in the order they came, for the first worker
to finish. Requests here are short and spend their time in Python (the engine, the
serializers), where threads of one process take turns anyway. The threaded worker (gthread)
keeps each kept-alive connection it accepted, and accepts while its threads are busy: one
worker can end up holding most of the connections while the others wait for work (seen with
32 score-pads: 25 connections on one of five workers, whose p99 was six to eight times the others').

A synchronous worker is held by a slow client for as long as the request takes to arrive, so
it belongs behind a proxy that reads the whole request first (deploy/nginx does). Where
gunicorn faces the clients itself, set ``GUNICORN_WORKER_CLASS=gthread`` and
``GUNICORN_THREADS`` (more than one thread makes gunicorn use gthread whatever the class).
"""

import multiprocessing
import os
from typing import Any

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "sync")
# One worker per core and one more, to use the core a worker leaves while it waits on
# PostgreSQL or Redis; more only take turns on the same cores (on 2 cores, 3 workers entered
# 2 to 19% more hands a second than 5 in four runs side by side).
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30
keepalive = 5  # gthread only: a synchronous worker closes the connection after each answer
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "2000"))
max_requests_jitter = 200
# Django logs one line per request itself (tarabish_site.middleware: with its request id, the
# ids it names and its time, as JSON in production), so gunicorn's own access log is off
# unless a file (or - for standard output) is named here.
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"
if (
    os.environ.get(
        "LOG_FORMAT", "json" if os.environ.get("TARABISH_ENV") == "production" else "text"
    )
    == "json"
):
    # gunicorn's own lines (workers started, timed out) as JSON lines too, like Django's.
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "json": {
                "()": "pythonjsonlogger.json.JsonFormatter",
                "fmt": "%(levelname)s %(name)s %(message)s",
                "rename_fields": {"levelname": "level", "name": "logger"},
                "timestamp": "time",
            }
        },
        "handlers": {
            "console": {"class": "logging.StreamHandler", "formatter": "json"},
        },
        "loggers": {
            "gunicorn.error": {"handlers": ["console"], "level": "INFO", "propagate": False},
            "gunicorn.access": {"handlers": ["console"], "level": "INFO", "propagate": False},
        },
    }
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")
# No control socket: nothing here uses gunicornc, and its default place (~/.gunicorn) is not
# writable for the image's user.
control_socket_disable = True


def child_exit(server: object, worker: Any) -> None:
    """A worker that exits leaves its counters to be added up (they never go back), but its
    live gauges go with it (prometheus_client's multiprocess mode, see tarabish_site.metrics)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]


def post_worker_init(worker: object) -> None:
    """Load every view, then freeze what is loaded (``tarabish_site.process.freeze_loaded``):
    a score-pad whose request lands during a full collection no longer waits for it."""
    from tarabish_site.process import freeze_loaded

    freeze_loaded()
