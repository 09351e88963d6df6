"""The Celery application.

Configuration comes from Django settings under the ``CELERY_`` namespace, so the same settings
module drives the web processes and the workers. With no ``CELERY_BROKER_URL`` set, tasks run
in-process (``task_always_eager``), so a development checkout needs no broker.
"""

import logging
import os
from typing import Any

from celery import Celery
from kombu.exceptions import OperationalError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarabish_site.settings")

log = logging.getLogger(__name__)

app = Celery("tarabish")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# One log line and the metrics of each task run, wherever tasks run.
import tarabish_site.task_signals  # noqa: E402, F401


def send_on_commit(task: Any, *args: Any) -> None:
    """``task.delay(*args)`` once the current transaction commits, as ``delay_on_commit``, but a
    broker that cannot be reached is logged, never raised: what was committed stands, and the
    periodic task that repairs what this one does takes it up (the caller names which)."""
    from django.db import transaction

    def send() -> None:
        try:
            task.delay(*args)
        except (OperationalError, OSError) as exc:
            log.warning(
                "task %s%r not sent (%s): left to its periodic repair",
                task.name,
                args,
                type(exc).__name__,
            )

    transaction.on_commit(send)
