"""Celery tasks of the scoring app: thin, id in, a service call, idempotent."""

from celery import shared_task
from django.db import InterfaceError, OperationalError

from scoring import services


@shared_task(
    ignore_result=True,
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError, ConnectionError, TimeoutError),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
    soft_time_limit=30,
    time_limit=60,
)
def dispute_adjudicate(dispute_id: int) -> None:
    """Judge a misplay dispute with the engine (a dispute already judged is left as it is)."""
    services.dispute_adjudicate(dispute_id=dispute_id)


@shared_task(ignore_result=True, acks_late=True, soft_time_limit=50, time_limit=60)
def result_changes_deliver() -> None:
    """Periodic (celery beat): deliver the changes to games' results that were not delivered
    when they committed (the broker was unreachable, a worker died)."""
    from scoring.services.results import result_changes_deliver_pending

    result_changes_deliver_pending()


@shared_task(ignore_result=True, acks_late=True, soft_time_limit=50, time_limit=60)
def disputes_adjudicate_pending() -> None:
    """Periodic (celery beat): judge the disputes still waiting for a verdict a minute after
    they were called (their task was never sent, or its worker died with it)."""
    services.disputes_adjudicate_pending()
