"""Downloads of a tournament: the whole of it as one JSON document (which
``manage.py import_tournament`` and the API's import read back) and its CSV tables, for anyone
who may see the tournament."""

from __future__ import annotations

import json

from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from tournaments import exports
from tournaments.views.common import _tournament_or_404


@require_GET
def tournament_json(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament_or_404(request, slug)
    document = exports.tournament_document(tournament)
    response = HttpResponse(
        json.dumps(document, cls=DjangoJSONEncoder, indent=1),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
    return response


@require_GET
def tournament_csv(request: HttpRequest, slug: str, table: str) -> HttpResponse:
    tournament = _tournament_or_404(request, slug)
    write = exports.CSV_TABLES.get(table)
    if write is None:
        raise Http404(f"no table {table}")
    response = HttpResponse(write(tournament), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-{table}.csv"'
    return response
