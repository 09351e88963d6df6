import uuid

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from knox.models import AbstractAuthToken, AuthTokenManager


class WorkerHeartbeat(models.Model):
    """The last time a Celery worker ran the heartbeat task: proof that the queue is served."""

    hostname = models.CharField(max_length=255, unique=True, verbose_name=_("host name"))
    seen_at = models.DateTimeField(verbose_name=_("last seen at"))
    beats = models.PositiveBigIntegerField(default=0, verbose_name=_("beats"))

    class Meta:
        verbose_name = _("worker heartbeat")
        verbose_name_plural = _("worker heartbeats")
        ordering = ["-seen_at"]

    def __str__(self) -> str:
        return f"{self.hostname} at {self.seen_at:%Y-%m-%d %H:%M:%S}"


class IdempotencyRecord(models.Model):
    """The response to a POST with an ``Idempotency-Key`` header, kept for the retries.

    A record is written in the same transaction as the write it describes (see
    ``tarabish_site.api.idempotency``): either both are committed or neither is, so a record in
    the table always holds a finished response. A request still in flight is recognised by a
    transaction-scoped lock on PostgreSQL, not by a row, which is why there is no "pending" state
    (a hand entered writes its record in the same statement as the hand: a retry waits for it).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="idempotency_records",
        # The unique (user, key) index starts with the user: no index of its own to write.
        db_index=False,
        verbose_name=_("user"),
    )
    key = models.CharField(max_length=255, verbose_name=_("key"))
    method = models.CharField(max_length=10, verbose_name=_("HTTP method"))
    path = models.CharField(max_length=2048, verbose_name=_("path"))
    fingerprint = models.CharField(
        max_length=64,
        help_text=_("SHA-256 of the request body as canonical JSON."),
        verbose_name=_("fingerprint"),
    )
    status_code = models.PositiveSmallIntegerField(verbose_name=_("status code"))
    response_body = models.JSONField(
        encoder=DjangoJSONEncoder, null=True, blank=True, verbose_name=_("response body")
    )
    response_headers = models.JSONField(
        default=dict, blank=True, verbose_name=_("response headers")
    )
    created_at = models.DateTimeField(
        default=timezone.now, db_index=True, verbose_name=_("created at")
    )

    class Meta:
        verbose_name = _("idempotency record")
        verbose_name_plural = _("idempotency records")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_user_key_unique"),
            # NULLs are distinct in a unique index: anonymous keys need their own one.
            models.UniqueConstraint(
                fields=["key"],
                condition=models.Q(user__isnull=True),
                name="idempotency_anonymous_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.path} key {self.key} -> {self.status_code}"


class DeviceToken(AbstractAuthToken):  # type: ignore[misc]  # django-rest-knox is untyped
    """An API token of one device of an account (django-rest-knox's token, with the device's
    name). Only a SHA-512 digest of the token is stored; the token itself is shown once, in
    the answer to signing in. It expires ``DEVICE_TOKEN_TTL_DAYS`` after its last use (each use
    moves the expiry on, at most once a minute), and its owner or staff revoke it."""

    objects = AuthTokenManager()

    public_id: "models.UUIDField[uuid.UUID, uuid.UUID]" = models.UUIDField(
        default=uuid.uuid4, unique=True, editable=False, verbose_name=_("public ID")
    )
    device: "models.CharField[str, str]" = models.CharField(max_length=60, verbose_name=_("device"))

    class Meta:
        verbose_name = _("device token")
        verbose_name_plural = _("device tokens")
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.device} of {self.user}"
