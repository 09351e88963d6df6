"""Subscriptions of a tournament's events, and each event's delivery to a subscription with
the log of its attempts."""

from __future__ import annotations

import datetime as dt
import json
import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Subscription(models.Model):
    """A URL that hears some of a tournament's events. The secret signs every delivery; it is
    shown once, when the subscription is made. A subscription that fails too many times in a
    row is disabled (``active`` off, ``disabled_reason`` saying why) until a director enables
    it again."""

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="webhook_subscriptions",
        verbose_name=_("tournament"),
    )
    url = models.URLField(max_length=500, verbose_name=_("URL"))
    events = models.JSONField(default=list, verbose_name=_("events"))
    description = models.CharField(max_length=200, blank=True, verbose_name=_("description"))
    secret = models.CharField(max_length=64, editable=False, verbose_name=_("secret"))
    active = models.BooleanField(default=True, verbose_name=_("active"))
    consecutive_failures = models.PositiveIntegerField(
        default=0, verbose_name=_("consecutive failures")
    )
    disabled_at = models.DateTimeField(null=True, blank=True, verbose_name=_("disabled at"))
    disabled_reason = models.CharField(
        max_length=300, blank=True, verbose_name=_("reason disabled")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))
    version = models.PositiveIntegerField(default=1, verbose_name=_("version"))

    class Meta:
        verbose_name = _("webhook subscription")
        verbose_name_plural = _("webhook subscriptions")
        ordering = ["tournament_id", "pk"]
        indexes = [models.Index(fields=["tournament", "active"], name="webhook_sub_active")]

    def __str__(self) -> str:
        return f"{self.url} ({', '.join(self.events)})"


class Delivery(models.Model):
    """One event for one subscription (the outbox row, written with the event's cause) and
    where its sending stands. Its id is the payload's ``id``, the same on every attempt and
    redelivery, so a receiver can tell a repeat; the body sent is made from its columns
    (:meth:`body`), the same each time."""

    class State(models.TextChoices):
        PENDING = "pending", "pending"
        DELIVERED = "delivered", "delivered"
        FAILED = "failed", "failed (gave up)"

    id = models.UUIDField(
        primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("ID")
    )
    subscription = models.ForeignKey(
        Subscription,
        on_delete=models.CASCADE,
        related_name="deliveries",
        verbose_name=_("subscription"),
    )
    event = models.CharField(max_length=40, verbose_name=_("event"))
    data = models.JSONField(default=dict, verbose_name=_("data"))
    state = models.CharField(
        max_length=10, choices=State.choices, default=State.PENDING, verbose_name=_("state")
    )
    attempts = models.PositiveIntegerField(default=0, verbose_name=_("attempts"))
    next_attempt_at = models.DateTimeField(verbose_name=_("next attempt at"))
    created_at = models.DateTimeField(verbose_name=_("created at"))
    delivered_at = models.DateTimeField(null=True, blank=True, verbose_name=_("delivered at"))
    last_status = models.PositiveIntegerField(
        null=True, blank=True, verbose_name=_("last HTTP status")
    )

    class Meta:
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["state", "next_attempt_at"], name="webhook_delivery_due"),
            models.Index(fields=["subscription", "-created_at"], name="webhook_delivery_sub"),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.pk} ({self.state})"

    def payload(self) -> dict[str, object]:
        """``{id, event, created, tournament, data}``: what the receiver is sent."""
        return {
            "id": str(self.pk),
            "event": self.event,
            "created": self.created_at.astimezone(dt.UTC).isoformat().replace("+00:00", "Z"),
            "tournament": self.subscription.tournament.slug,
            "data": self.data,
        }

    def body(self) -> bytes:
        """The payload as JSON, compact: the bytes signed and sent."""
        return json.dumps(self.payload(), separators=(",", ":"), ensure_ascii=False).encode()


class DeliveryAttempt(models.Model):
    """One try at sending a delivery: the answer's status (none when no answer came), the
    start of its body, how long it took, and the error when it failed."""

    delivery = models.ForeignKey(
        Delivery, on_delete=models.CASCADE, related_name="attempt_log", verbose_name=_("delivery")
    )
    number = models.PositiveIntegerField(verbose_name=_("number"))
    at = models.DateTimeField(verbose_name=_("time"))
    status_code = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("status code"))
    response_body = models.CharField(max_length=500, blank=True, verbose_name=_("response body"))
    duration_ms = models.PositiveIntegerField(verbose_name=_("duration (ms)"))
    error = models.CharField(max_length=300, blank=True, verbose_name=_("error"))
    manual = models.BooleanField(default=False, verbose_name=_("sent by hand"))

    class Meta:
        verbose_name = _("delivery attempt")
        verbose_name_plural = _("delivery attempts")
        ordering = ["delivery_id", "number"]

    def __str__(self) -> str:
        return f"attempt {self.number} of {self.delivery_id}: {self.status_code or self.error}"

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300
