from celery import shared_task

from tarabish_site.core.services import (
    device_tokens_expire,
    heartbeat_record,
    idempotency_records_expire,
)


@shared_task(bind=True, ignore_result=True, soft_time_limit=20, time_limit=30)
def worker_heartbeat(self) -> None:  # type: ignore[no-untyped-def]
    """Record that the worker that runs this task is alive (scheduled by beat every minute)."""
    heartbeat_record(hostname=self.request.hostname or "eager")


@shared_task(ignore_result=True, soft_time_limit=120, time_limit=150)
def idempotency_records_expire_task() -> int:
    """Forget old idempotency records (scheduled by beat every hour)."""
    return idempotency_records_expire()


@shared_task(ignore_result=True, soft_time_limit=120, time_limit=150)
def device_tokens_expire_task() -> int:
    """Delete expired device tokens (scheduled by beat every hour)."""
    return device_tokens_expire()
