"""Error reports to Sentry, or to any server that speaks its protocol, when ``SENTRY_DSN`` is
set (``settings``): unhandled exceptions in views and tasks, and log records at ERROR.

No personal data is sent (``send_default_pii`` off: no cookies, no user's address), and no
performance traces unless ``SENTRY_TRACES_SAMPLE_RATE`` asks for a share of them.
"""

from __future__ import annotations

import logging

import sentry_sdk
from sentry_sdk.integrations.celery import CeleryIntegration
from sentry_sdk.integrations.django import DjangoIntegration
from sentry_sdk.integrations.logging import LoggingIntegration


def sentry_init(*, dsn: str, environment: str, traces_sample_rate: float = 0.0) -> None:
    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        send_default_pii=False,
        traces_sample_rate=traces_sample_rate,
        integrations=[
            DjangoIntegration(),
            CeleryIntegration(),
            LoggingIntegration(event_level=logging.ERROR),
        ],
    )
