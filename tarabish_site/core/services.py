import uuid
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from tarabish_site.api.errors import NotFound
from tarabish_site.core.models import DeviceToken, IdempotencyRecord, WorkerHeartbeat


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


def device_token_create(*, user: Any, device: str) -> tuple[DeviceToken, str]:
    """A new token for ``device`` of ``user``: the row (holding only the token's digest) and
    the token itself, to show once."""
    token, key = DeviceToken.objects.create(user=user, device=device)
    return token, key


def device_tokens_visible(actor: Any) -> QuerySet[DeviceToken]:
    """The unexpired tokens ``actor`` may list and revoke: their own; staff, everyone's."""
    tokens: QuerySet[DeviceToken] = DeviceToken.objects.select_related("user").filter(
        Q(expiry__isnull=True) | Q(expiry__gt=timezone.now())
    )
    return tokens if actor.is_staff else tokens.filter(user=actor)


def device_token_revoke(*, actor: Any, public_id: uuid.UUID) -> None:
    """Revoke a token: it stops working at once. 404 when ``actor`` may not see it."""
    deleted, _ = device_tokens_visible(actor).filter(public_id=public_id).delete()
    if not deleted:
        raise NotFound(f"No device token {public_id} was found.")


def device_tokens_expire() -> int:
    """Delete expired tokens (they are already refused: this keeps the table small)."""
    deleted: int = DeviceToken.objects.filter(expiry__lt=timezone.now()).delete()[0]
    return deleted
