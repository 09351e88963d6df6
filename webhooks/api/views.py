"""The webhooks API, under a tournament: its directors list, add, change, remove and enable
subscriptions, read their deliveries and send one again. Nobody else sees any of it."""

import uuid
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tarabish_site.api.errors import NotFound
from tarabish_site.api.idempotency import KeptOut, idempotent, idempotent_kept_out
from tarabish_site.api.schema import LOCATION_HEADER, error_responses
from tarabish_site.api.versioning import (
    ETAG_RESPONSE_HEADER,
    IF_MATCH_PARAMETER,
    expected_version,
    with_etag,
)
from tarabish_site.api.viewsets import ApiViewSet
from webhooks import services
from webhooks.api.serializers import (
    DeliverySerializer,
    SubscriptionCreatedSerializer,
    SubscriptionCreateSerializer,
    SubscriptionSerializer,
    SubscriptionUpdateSerializer,
)
from webhooks.models import Delivery, Subscription

TAG = "webhooks"
SLUG = OpenApiParameter(
    "tournament_slug", OpenApiTypes.STR, OpenApiParameter.PATH, description="The tournament."
)
DELIVERY = OpenApiParameter(
    "delivery_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="The delivery."
)


def _response(subscription: Subscription, status: int = 200) -> Response:
    return with_etag(
        Response(SubscriptionSerializer(subscription).data, status=status), subscription.version
    )


def _with_secret(body: dict[str, Any]) -> dict[str, Any]:
    """The stored answer of a subscription made, its secret read again from the subscription:
    the Idempotency-Key's store keeps no copy of it."""
    secret = services.subscription_secret(subscription_id=body["id"])
    if secret is None:
        raise NotFound(f"the webhook {body['id']} this Idempotency-Key made has been removed since")
    return {**body, "secret": secret}


_SECRET_KEPT_OUT = KeptOut(keys=frozenset({"secret"}), restore=_with_secret)


@extend_schema_view(
    list=extend_schema(
        summary="List the tournament's webhooks",
        tags=[TAG],
        parameters=[SLUG],
        responses={200: SubscriptionSerializer(many=True), **error_responses(401, 403, 404)},
    ),
)
class WebhookViewSet(mixins.ListModelMixin, ApiViewSet):
    """A tournament's webhook subscriptions (directors only)."""

    serializer_class = SubscriptionSerializer
    permission_classes = [IsAuthenticated]

    def _tournament(self) -> Any:
        return services.tournament_for_webhooks(
            slug=self.kwargs["tournament_slug"], actor=self.request.user
        )

    def get_queryset(self) -> QuerySet[Subscription]:
        if getattr(self, "swagger_fake_view", False):  # the schema generator
            return Subscription.objects.none()
        return Subscription.objects.filter(tournament=self._tournament()).order_by("pk")

    @extend_schema(
        summary="A webhook",
        tags=[TAG],
        parameters=[SLUG, ETAG_RESPONSE_HEADER],
        responses={200: SubscriptionSerializer, **error_responses(401, 403, 404)},
    )
    def retrieve(self, request: Request, tournament_slug: str, pk: str) -> Response:
        return _response(self.get_object())

    @extend_schema(
        summary="Subscribe a URL to the tournament's events",
        description="The answer carries the secret that signs every delivery, once: it is "
        "never shown again.",
        tags=[TAG],
        parameters=[SLUG, ETAG_RESPONSE_HEADER, LOCATION_HEADER],
        request=SubscriptionCreateSerializer,
        responses={
            201: SubscriptionCreatedSerializer,
            **error_responses(400, 401, 403, 404, 409, 422),
        },
    )
    @idempotent_kept_out(_SECRET_KEPT_OUT)
    def create(self, request: Request, tournament_slug: str) -> Response:
        tournament = self._tournament()
        serializer = SubscriptionCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        subscription = services.subscription_create(
            tournament=tournament, actor=request.user, **serializer.validated_data
        )
        response = Response(SubscriptionCreatedSerializer(subscription).data, status=201)
        response["Location"] = reverse(
            "api:tournament-webhook-detail",
            kwargs={"tournament_slug": tournament.slug, "pk": subscription.pk},
        )
        return with_etag(response, subscription.version)

    @extend_schema(
        summary="Change a webhook (its URL, events, description; `active` to enable it again)",
        tags=[TAG],
        parameters=[SLUG, IF_MATCH_PARAMETER, ETAG_RESPONSE_HEADER],
        request=SubscriptionUpdateSerializer,
        responses={
            200: SubscriptionSerializer,
            **error_responses(400, 401, 403, 404, 412, 428),
        },
    )
    def partial_update(self, request: Request, tournament_slug: str, pk: str) -> Response:
        tournament = self._tournament()
        serializer = SubscriptionUpdateSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        subscription = services.subscription_update(
            tournament=tournament,
            subscription_id=int(pk),
            actor=request.user,
            changes=dict(serializer.validated_data),
            expected_version=expected_version(request),
        )
        return _response(subscription)

    @extend_schema(
        summary="Remove a webhook and its deliveries",
        operation_id="tournaments_webhooks_remove",
        tags=[TAG],
        parameters=[SLUG],
        responses={204: None, **error_responses(401, 403, 404)},
    )
    def destroy(self, request: Request, tournament_slug: str, pk: str) -> Response:
        services.subscription_delete(
            tournament=self._tournament(), subscription_id=int(pk), actor=request.user
        )
        return Response(status=204)

    @extend_schema(
        operation_id="tournaments_webhooks_enable",
        summary="Enable a webhook again (after it was disabled for its failures)",
        description="Starts its count of failures over and sends the deliveries that waited.",
        tags=[TAG],
        parameters=[SLUG, ETAG_RESPONSE_HEADER],
        request=None,
        responses={200: SubscriptionSerializer, **error_responses(401, 403, 404, 409, 422)},
    )
    @idempotent
    @action(detail=True, methods=["post"])
    def enable(self, request: Request, tournament_slug: str, pk: str) -> Response:
        subscription = services.subscription_enable(
            tournament=self._tournament(), subscription_id=int(pk), actor=request.user
        )
        return _response(subscription)

    @extend_schema(
        summary="A webhook's deliveries, the newest first, with their attempts",
        tags=[TAG],
        parameters=[SLUG],
        responses={200: DeliverySerializer(many=True), **error_responses(400, 401, 403, 404)},
    )
    @action(detail=True, methods=["get"])
    def deliveries(self, request: Request, tournament_slug: str, pk: str) -> Response:
        subscription = self.get_object()
        found = (
            Delivery.objects.filter(subscription=subscription)
            .select_related("subscription__tournament")
            .prefetch_related("attempt_log")
            .order_by("-created_at", "pk")
        )
        page = self.paginate_queryset(found)
        shown = DeliverySerializer(page if page is not None else found, many=True).data
        return self.get_paginated_response(shown) if page is not None else Response(shown)

    @extend_schema(
        summary="Send a delivery again",
        operation_id="tournaments_webhooks_deliveries_redeliver",
        description="The same id and body, signed anew, sent at once (after the webhook is "
        "enabled, if it is disabled).",
        tags=[TAG],
        parameters=[SLUG, DELIVERY],
        request=None,
        responses={202: DeliverySerializer, **error_responses(401, 403, 404, 409, 422)},
    )
    @idempotent
    @action(
        detail=True,
        methods=["post"],
        url_path=r"deliveries/(?P<delivery_id>[0-9a-fA-F-]{32,36})/redeliver",
    )
    def redeliver(
        self, request: Request, tournament_slug: str, pk: str, delivery_id: str
    ) -> Response:
        tournament = self._tournament()
        try:
            key = uuid.UUID(delivery_id)
        except ValueError:
            raise NotFound(f"There is no delivery {delivery_id}.") from None
        delivery = services.delivery_redeliver(
            tournament=tournament, subscription_id=int(pk), delivery_id=key, actor=request.user
        )
        delivery = (
            Delivery.objects.select_related("subscription__tournament")
            .prefetch_related("attempt_log")
            .get(pk=delivery.pk)
        )
        return Response(DeliverySerializer(delivery).data, status=202)
