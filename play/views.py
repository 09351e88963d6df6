"""Online play over plain HTTP, for a client that cannot keep a WebSocket open: the table's
state for one's seat (``GET .../state/``, with an ETag: 304 until the table changes) and a
move (``POST .../move/``, the same JSON a socket sends). A poll also makes the computer move
owed, once the computer's pause is over, as an open socket would."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET, require_POST

from play import services
from play.models import Table
from play.selectors import table_state
from scoring.engine import EngineError
from tarabish_site.api.errors import ApplicationError
from tarabish_site.api.exceptions import error_body


def _error(status: int, message: str, code: str, field: str = "") -> JsonResponse:
    fields = {field: [message]} if field else {}
    return JsonResponse(error_body(message, code, fields), status=status)


def _visible_table(request: HttpRequest, pk: int) -> Table | None:
    table = get_object_or_404(Table.objects.select_related("game"), pk=pk)
    token = request.GET.get("invite", "")
    return table if services.table_watch(table=table, user=request.user, token=token) else None


@require_GET
def table_state_view(request: HttpRequest, pk: int) -> HttpResponse:
    table = _visible_table(request, pk)
    if table is None:
        return _error(404, f"table {pk} does not exist", "not_found")
    seat = services.seat_of(table, request.user)
    if seat is not None:
        services.computer_moves_due(table=table)
    etag = f'"{table.version}-{"s" if seat is None else seat}"'
    # a compressed answer's tag comes back weak (W/"..."): the state is the same either way
    sent = {
        t.strip().removeprefix("W/") for t in request.headers.get("If-None-Match", "").split(",")
    }
    response: HttpResponse = (
        HttpResponse(status=304) if etag in sent else JsonResponse(table_state(table, seat))
    )
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache, private"
    return response


@require_POST
def table_move_view(request: HttpRequest, pk: int) -> HttpResponse:
    table = _visible_table(request, pk)
    if table is None:
        return _error(404, f"table {pk} does not exist", "not_found")
    seat = services.seat_of(table, request.user)
    if seat is None:
        return _error(403, "you are watching: take a seat to play", "not_seated", "seat")
    try:
        data = json.loads(request.body or b"{}")
    except ValueError:
        return _error(400, "a move is a JSON object with a type", "bad_json", "type")
    if not isinstance(data, dict):
        return _error(400, "a move is a JSON object with a type", "bad_json", "type")
    try:
        services.move(table=table.pk, seat=seat, data=data)
    except EngineError as exc:
        return _error(409, str(exc), exc.code, exc.field or "type")
    except ApplicationError as exc:
        return JsonResponse(error_body(exc.message, exc.code, exc.fields), status=exc.status)
    return JsonResponse(table_state(table.pk, seat))
