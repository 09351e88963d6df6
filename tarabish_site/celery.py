"""The Celery application.

Configuration comes from Django settings under the ``CELERY_`` namespace, so the same settings
module drives the web processes and the workers. With no ``CELERY_BROKER_URL`` set, tasks run
in-process (``task_always_eager``), so a development checkout needs no broker.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarabish_site.settings")

app = Celery("tarabish")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# One log line and the metrics of each task run, wherever tasks run.
import tarabish_site.task_signals  # noqa: E402, F401
