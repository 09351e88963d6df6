"""The service's URLs plus ``POST /bench/bare/``: a plain Django view that reads the JSON body
and inserts one row, the floor against which the hand endpoint is measured. Loaded only by
``benchmarks.api_settings``."""

import json

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from tarabish_site.urls import urlpatterns as site_urlpatterns

BARE_TABLE = getattr(settings, "BENCH_BARE_TABLE", "bench_bare_row")


@csrf_exempt
@require_POST
def bare_insert(request: HttpRequest) -> HttpResponse:
    body = json.loads(request.body)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {BARE_TABLE} (body) VALUES (%s) RETURNING id",  # noqa: S608 - constant
            [json.dumps(body)],
        )
        (row_id,) = cursor.fetchone()
    return JsonResponse({"id": row_id}, status=201)


urlpatterns = [path("bench/bare/", bare_insert), *site_urlpatterns]
