"""Bodies of the webhooks API."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tarabish_site import events
from tarabish_site.api.serializers import OnlyItsChanges, OnlyItsFields
from webhooks.models import Delivery, DeliveryAttempt, Subscription

EVENT_CHOICES = [(name, f"{name}: {words}") for name, words in events.EVENTS.items()]


class _EventsField(serializers.ListField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            child=serializers.ChoiceField(choices=EVENT_CHOICES),
            min_length=1,
            help_text="The events sent to the URL: " + ", ".join(events.EVENTS) + ".",
            **kwargs,
        )


class SubscriptionSerializer(serializers.ModelSerializer[Subscription]):
    """A URL subscribed to some of a tournament's events (its secret is shown only once, in
    the answer that made it)."""

    events = _EventsField()

    class Meta:
        model = Subscription
        fields: tuple[str, ...] = (
            "id",
            "url",
            "events",
            "description",
            "active",
            "consecutive_failures",
            "disabled_at",
            "disabled_reason",
            "created_at",
            "version",
        )
        read_only_fields = fields


class SubscriptionCreatedSerializer(SubscriptionSerializer):
    """A subscription just made, with the secret that signs its deliveries: keep it now, it is
    never shown again."""

    secret = serializers.CharField(
        read_only=True,
        help_text="Signs every delivery (HMAC-SHA256, header `Tarabish-Signature`); shown once.",
    )

    class Meta(SubscriptionSerializer.Meta):
        fields = (*SubscriptionSerializer.Meta.fields, "secret")
        read_only_fields = fields


class SubscriptionCreateSerializer(OnlyItsFields):
    """The URL to send events to, and which events."""

    url = serializers.CharField(
        max_length=500,
        help_text="http(s) URL of a public host: loopback, private and link-local addresses "
        "are refused.",
    )
    events = _EventsField()
    description = serializers.CharField(
        max_length=200, required=False, allow_blank=True, help_text="What receives them."
    )


class SubscriptionUpdateSerializer(OnlyItsChanges):
    """What changes in a subscription; `active: true` enables it again after failures."""

    url = serializers.CharField(max_length=500, required=False)
    events = _EventsField(required=False)
    description = serializers.CharField(max_length=200, required=False, allow_blank=True)
    active = serializers.BooleanField(required=False)


class AttemptSerializer(serializers.ModelSerializer[DeliveryAttempt]):
    """One try at sending a delivery: the answer's status (null when none came), the start of
    its body, how long it took, why it failed."""

    class Meta:
        model = DeliveryAttempt
        fields = (
            "number",
            "at",
            "status_code",
            "response_body",
            "duration_ms",
            "error",
            "manual",
        )
        read_only_fields = fields


class PayloadSerializer(serializers.Serializer[Any]):
    """The JSON body a delivery posts."""

    id = serializers.UUIDField(help_text="The delivery: the same on every retry.")
    event = serializers.ChoiceField(choices=EVENT_CHOICES)
    created = serializers.CharField(help_text="When the event happened (ISO 8601, UTC).")
    tournament = serializers.CharField(help_text="The tournament's slug.")


# "data" is also a Serializer property, so it cannot be declared in the class body (as the
# error shape's "fields").
PayloadSerializer._declared_fields["data"] = serializers.DictField(
    help_text="What the event says (see the README's table of events)."
)


class DeliverySerializer(serializers.ModelSerializer[Delivery]):
    """An event for a subscription, where its sending stands, and the log of its attempts."""

    payload = serializers.SerializerMethodField()
    attempt_log = AttemptSerializer(many=True, read_only=True)

    class Meta:
        model = Delivery
        fields = (
            "id",
            "event",
            "state",
            "attempts",
            "created_at",
            "next_attempt_at",
            "delivered_at",
            "last_status",
            "payload",
            "attempt_log",
        )
        read_only_fields = fields

    @extend_schema_field(PayloadSerializer)
    def get_payload(self, delivery: Delivery) -> dict[str, object]:
        return delivery.payload()
