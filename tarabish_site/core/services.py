from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tarabish_site.core.models import IdempotencyRecord, WorkerHeartbeat


@transaction.atomic
def heartbeat_record(*, hostname: str) -> WorkerHeartbeat:
    """Note that the worker ``hostname`` is alive now."""
    heartbeat, _ = WorkerHeartbeat.objects.select_for_update().get_or_create(
        hostname=hostname, defaults={"seen_at": timezone.now()}
    )
    heartbeat.seen_at = timezone.now()
    heartbeat.beats = F("beats") + 1
    heartbeat.save(update_fields=["seen_at", "beats"])
    heartbeat.refresh_from_db()
    return heartbeat


def idempotency_records_expire(*, older_than: timedelta | None = None) -> int:
    """Forget idempotency records older than ``older_than`` (default: the configured lifetime).

    A client that retries with an expired key makes a new request; keys are meant for retries
    within minutes or hours, not days.
    """
    if older_than is None:
        older_than = timedelta(hours=settings.IDEMPOTENCY_KEY_TTL_HOURS)
    deleted, _ = IdempotencyRecord.objects.filter(
        created_at__lt=timezone.now() - older_than
    ).delete()
    return deleted
