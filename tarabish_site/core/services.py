from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tarabish_site.core.models import WorkerHeartbeat


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
