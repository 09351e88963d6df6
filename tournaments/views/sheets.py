"""Printable table sheets: one match's, and a round's for every table. A director's print
carries the table's key (a QR code and a PIN that let whoever holds the sheet keep score at
that table during the tournament); anyone else's a QR code of the match to follow."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.views.common import qr_svg
from tournaments import selectors, services
from tournaments.models import Match
from tournaments.views.common import _match_or_404, _tournament_or_404


def table_code_label(match: Match) -> str:
    """What a table sheet's QR code is, said to a screen reader."""
    if match.table:
        return _("QR code that opens the score-pad of table %(table)s") % {"table": match.table}
    return _("QR code that opens this match's score-pad")


def _sheet(request: HttpRequest, match: Match, *, directs: bool) -> dict[str, Any]:
    """What a table sheet prints for ``match``: the QR code, the address it carries, and for a
    director's print of a numbered table its PIN and where to type it."""
    tournament = match.stage.tournament
    if directs and match.table:
        key = services.table_key_for_sheet(
            tournament_id=tournament.pk, actor=request.user, table=match.table
        )
        url = request.build_absolute_uri(reverse("tournaments:table-claim", args=[key.token]))
        pin_url = request.build_absolute_uri(
            reverse("tournaments:table-pin", args=[tournament.slug])
        )
        return {
            "match": match,
            "qr": qr_svg(url, table_code_label(match)),
            "pad_url": url,
            "pin": key.pin,
            "pin_url": pin_url,
        }
    url = request.build_absolute_uri(reverse("tournaments:match-pad", args=[match.pk]))
    return {"match": match, "qr": qr_svg(url, table_code_label(match)), "pad_url": url}


@require_GET
def match_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The printable sheet for the match's table, with its QR code."""
    match = _match_or_404(request, pk)
    tournament = match.stage.tournament
    directs = selectors.tournament_directed_by(tournament, request.user)
    context = _sheet(request, match, directs=directs)
    context.update({"tournament": tournament, "blank_lines": range(1, 17)})
    return render(request, "tournaments/match_sheet.html", context)


@require_GET
def round_sheets(request: HttpRequest, slug: str) -> HttpResponse:
    """Every table's sheet for the matches ready or being played, one per printed page."""
    tournament = _tournament_or_404(request, slug)
    matches = selectors.tournament_schedule(
        tournament, states=[Match.State.READY, Match.State.IN_PROGRESS]
    )
    directs = selectors.tournament_directed_by(tournament, request.user)
    sheets = [_sheet(request, match, directs=directs) for match in matches]
    return render(
        request,
        "tournaments/round_sheets.html",
        {"tournament": tournament, "sheets": sheets, "blank_lines": range(1, 17)},
    )
