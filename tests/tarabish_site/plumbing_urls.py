"""A URLconf used only by the plumbing tests: small views that write real rows through the
idempotency and version helpers, so the helpers are tested as a view would use them."""

import threading
from typing import Any

from django.contrib.auth.models import Group
from django.urls import path
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tarabish_site.api.errors import ValidationFailed
from tarabish_site.api.idempotency import idempotent
from tarabish_site.api.throttles import WritesThrottle
from tarabish_site.api.versioning import (
    ensure_version,
    expected_version,
    not_modified,
    not_modified_response,
    with_etag,
)

# Set by a test to hold the group view inside its transaction until released.
HOLD: dict[str, threading.Event] = {}


class GroupCreateView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [WritesThrottle]

    @idempotent
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        name = request.data.get("name", "")
        group = Group.objects.create(name=name)
        if request.data.get("fail_after_write"):
            raise ValidationFailed("refused after writing", fields={"fail_after_write": ["no"]})
        if request.data.get("answer_400_after_write"):
            return Response({"message": "no", "code": "invalid", "fields": {}}, status=400)
        if "entered" in HOLD:
            HOLD["entered"].set()
            HOLD["release"].wait(timeout=30)
        response = Response({"id": group.pk, "name": group.name}, status=201)
        response["Location"] = f"/groups/{group.pk}/"
        return with_etag(response, 1)

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response({"groups": Group.objects.count()})


class VersionedView(APIView):
    """A resource at version 3."""

    permission_classes = [AllowAny]
    current = 3

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if not_modified(request, self.current):
            return not_modified_response(self.current)
        return with_etag(Response({"version": self.current}), self.current)

    def put(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        ensure_version(current=self.current, expected=expected_version(request), thing="sheet")
        return with_etag(Response({"version": self.current + 1}), self.current + 1)


urlpatterns = [
    path("groups/", GroupCreateView.as_view()),
    path("other-groups/", GroupCreateView.as_view()),
    path("versioned/", VersionedView.as_view()),
]
