"""The token endpoint score-pad apps log in with: ``POST /api/v1/auth/token/``."""

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from tarabish_site.api.parsers import JSONParser
from tarabish_site.api.schema import error_responses
from tarabish_site.api.throttles import LoginThrottle


class TokenView(ObtainAuthToken):
    """Exchange a username and password for the API token of that account."""

    permission_classes = [AllowAny]
    throttle_classes = [LoginThrottle]
    # JSON only, as every other write: one body the schema declares and clients generate.
    parser_classes = [JSONParser]

    @extend_schema(
        operation_id="auth_token_obtain",
        auth=[],
        tags=["auth"],
        summary="Obtain an API token",
        description=(
            "Send a username and password; get the account's token (the same one each time). "
            "Then send `Authorization: Token <token>` with every request. Limited to a few "
            "attempts a minute per address (429 beyond that)."
        ),
        request=inline_serializer(
            "Credentials",
            fields={
                "username": serializers.CharField(),
                "password": serializers.CharField(style={"input_type": "password"}),
            },
        ),
        responses={
            200: inline_serializer("TokenResponse", fields={"token": serializers.CharField()}),
            **error_responses(400, 429),
        },
        examples=[
            OpenApiExample(
                "Log in",
                value={"username": "scorekeeper", "password": "a long passphrase"},
                request_only=True,
            ),
            OpenApiExample(
                "Token",
                value={"token": "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"},
                response_only=True,
                status_codes=[200],
            ),
        ],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().post(request, *args, **kwargs)
