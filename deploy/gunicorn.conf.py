"""gunicorn settings for the web process (deploy/start-web.sh). Each value can be overridden
from the environment, so the same file serves a small hall laptop and a larger server."""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
worker_class = "gthread"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30
keepalive = 5
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "2000"))
max_requests_jitter = 200
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
errorlog = "-"
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")


def post_worker_init(worker: object) -> None:
    """Load every view now, then take what is loaded out of the garbage collector's sight.

    A worker holds a few hundred thousand objects that live as long as it does (modules,
    classes, the URL tree). Python's full collection walks all of them, for tens of
    milliseconds in which neither of the worker's threads runs: a score-pad whose request
    lands then waits that long. Frozen, they are never walked again; what requests create
    is collected as before.
    """
    import gc

    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports every view, serializer and the engine
    gc.collect()
    gc.freeze()
