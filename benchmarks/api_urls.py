"""The service's URLs plus two benchmark-only endpoints, loaded only by
``benchmarks.api_settings``:

* ``POST /bench/token-insert/``: the bare endpoint, the baseline the hand endpoint is measured
  against: a write of the API's own stack (Django middleware, DRF, token authentication, JSON in
  and out, the write rate limit every API view has) doing nothing but inserting one row, so the
  ratio shows what entering a hand costs beyond it;
* ``POST /bench/token-insert-unlimited/``: the same without the write rate limit, a reference
  for what the limit costs;
* ``POST /bench/bare/``: a plain Django view that reads the JSON body and inserts the same
  row, with no DRF and no authentication: a reference for what the framework itself costs.
"""

import json

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tarabish_site.urls import urlpatterns as site_urlpatterns

BARE_TABLE = getattr(settings, "BENCH_BARE_TABLE", "bench_bare_row")


def _insert(body: object) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {BARE_TABLE} (body) VALUES (%s) RETURNING id",  # noqa: S608 - constant
            [json.dumps(body)],
        )
        (row_id,) = cursor.fetchone()
    return int(row_id)


@csrf_exempt
@require_POST
def bare_insert(request: HttpRequest) -> HttpResponse:
    return JsonResponse({"id": _insert(json.loads(request.body))}, status=201)


class TokenInsertView(APIView):
    """An API write with the API's defaults (the write rate limit among them)."""

    permission_classes = [IsAuthenticated]

    def post(self, request: Request) -> Response:
        return Response({"id": _insert(request.data)}, status=201)


class UnlimitedTokenInsertView(TokenInsertView):
    throttle_classes = []


urlpatterns = [
    path("bench/bare/", bare_insert),
    path("bench/token-insert/", TokenInsertView.as_view()),
    path("bench/token-insert-unlimited/", UnlimitedTokenInsertView.as_view()),
    *site_urlpatterns,
]
