"""Device tokens: signing in (``POST /api/v1/auth/token/``), the tokens an account holds
(``GET /api/v1/auth/tokens/``) and revoking one (``DELETE /api/v1/auth/tokens/{id}/``).

A token is django-rest-knox's: only its SHA-512 digest is stored (``core.DeviceToken``), it is
named after the device that signed in, and it expires ``DEVICE_TOKEN_TTL_DAYS`` after its last
use (each use moves the expiry on, written at most once a minute), so a score-pad in use never
has to sign in again and a lost phone's token dies on its own. Expired rows are deleted hourly
by a beat task.
"""

import uuid
from typing import Any

from django.contrib.auth import authenticate
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from knox.settings import knox_settings
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tarabish_site.api.errors import ValidationFailed
from tarabish_site.api.parsers import JSONParser
from tarabish_site.api.schema import error_responses
from tarabish_site.api.serializers import OnlyItsFields
from tarabish_site.api.throttles import LoginThrottle
from tarabish_site.core.models import DeviceToken
from tarabish_site.core.services import (
    device_token_create,
    device_token_revoke,
    device_tokens_visible,
)

#: The device a token is named after when signing in names none.
UNNAMED_DEVICE = "API client"


class CredentialsSerializer(OnlyItsFields):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)
    device = serializers.CharField(
        max_length=60,
        required=False,
        help_text=f'The device the token is for, as its owner will see it listed ("Table 4 '
        f'tablet"). Omitted: "{UNNAMED_DEVICE}".',
    )


class DeviceTokenSerializer(serializers.ModelSerializer[DeviceToken]):
    """A device token as its owner lists it (never the token itself)."""

    id = serializers.UUIDField(source="public_id", read_only=True)
    user = serializers.CharField(source="user.username", read_only=True)
    expiry = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text="When it stops working unless used before (each use moves it on).",
    )

    class Meta:
        model = DeviceToken
        fields = ["id", "device", "user", "created", "expiry"]
        read_only_fields = fields


class SignedInSerializer(DeviceTokenSerializer):
    """The answer to signing in: the token, shown this once, and its row."""

    token = serializers.CharField(
        read_only=True, help_text="Send it as `Authorization: Token <token>`; kept nowhere."
    )

    class Meta(DeviceTokenSerializer.Meta):
        fields = ["token", *DeviceTokenSerializer.Meta.fields]
        read_only_fields = fields


class TokenView(APIView):
    """Exchange a username and password for a new token for this device."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [LoginThrottle]
    # JSON only, as every other write: one body the schema declares and clients generate.
    parser_classes = [JSONParser]

    @extend_schema(
        operation_id="auth_token_obtain",
        auth=[],
        tags=["auth"],
        summary="Sign in: a new token for this device",
        description=(
            "Send a username, a password and the device's name; get a new token for that "
            "device, shown this once (the service keeps only its digest). Send "
            "`Authorization: Token <token>` with every request. The token expires "
            f"{knox_settings.TOKEN_TTL.days} days after it was last used (each use moves the "
            "expiry on: a device in use stays signed in); list and revoke tokens at "
            "`auth/tokens/`. Limited to a few attempts a minute per address: beyond that 429, "
            "with `Retry-After` saying when to try again, whatever the password."
        ),
        request=CredentialsSerializer,
        responses={200: SignedInSerializer, **error_responses(400, 429)},
        examples=[
            OpenApiExample(
                "Sign in",
                value={
                    "username": "scorekeeper",
                    "password": "a long passphrase",
                    "device": "Table 4 tablet",
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = CredentialsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user = authenticate(username=data["username"], password=data["password"])
        if user is None or not user.is_active:
            reason = "Unable to log in with provided credentials."
            raise ValidationFailed(reason, fields={"non_field_errors": [reason]})
        row, token = device_token_create(user=user, device=data.get("device") or UNNAMED_DEVICE)
        response = Response({"token": token, **DeviceTokenSerializer(row).data})
        response["Cache-Control"] = "no-store"  # the token is in the body: no cache keeps it
        response["Pragma"] = "no-cache"
        return response


class TokenListView(ListAPIView[DeviceToken]):
    """Device tokens: an account's own, or every account's for staff."""

    permission_classes = [IsAuthenticated]
    serializer_class = DeviceTokenSerializer

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):  # the schema's look at the view
            return DeviceToken.objects.none()
        return device_tokens_visible(self.request.user).order_by("-created")

    @extend_schema(
        operation_id="auth_tokens_list",
        tags=["auth"],
        summary="The device tokens you hold (staff: everyone's)",
        responses={200: DeviceTokenSerializer(many=True), **error_responses(401)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class TokenRevokeView(APIView):
    """Revoke one device token (yours, or anyone's for staff): it stops working at once."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="auth_tokens_revoke",
        tags=["auth"],
        summary="Revoke a device token",
        parameters=[
            OpenApiParameter("id", uuid.UUID, OpenApiParameter.PATH, description="The token's id.")
        ],
        request=None,
        responses={204: None, **error_responses(401, 404)},
    )
    def delete(self, request: Request, id: uuid.UUID) -> Response:  # noqa: A002 (the path's name)
        device_token_revoke(actor=request.user, public_id=id)
        return Response(status=204)
