"""Printable table sheets: one match's, and a round's for every table, each with the QR code
that opens the match's score-pad."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.views.common import qr_svg
from tournaments import selectors
from tournaments.models import Match
from tournaments.views.common import _match_or_404, _tournament_or_404


def table_code_label(match: Match) -> str:
    """What a table sheet's QR code is, said to a screen reader."""
    if match.table:
        return _("QR code that opens the score-pad of table %(table)s") % {"table": match.table}
    return _("QR code that opens this match's score-pad")


@require_GET
def match_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The printable sheet for the match's table, with a QR code of its score-pad."""
    match = _match_or_404(request, pk)
    url = request.build_absolute_uri(reverse("tournaments:match-pad", args=[pk]))
    return render(
        request,
        "tournaments/match_sheet.html",
        {
            "match": match,
            "tournament": match.stage.tournament,
            "qr": qr_svg(url, table_code_label(match)),
            "pad_url": url,
            "blank_lines": range(1, 17),
        },
    )


@require_GET
def round_sheets(request: HttpRequest, slug: str) -> HttpResponse:
    """Every table's sheet for the matches ready or being played, one per printed page."""
    tournament = _tournament_or_404(request, slug)
    matches = selectors.tournament_schedule(
        tournament, states=[Match.State.READY, Match.State.IN_PROGRESS]
    )
    pad_urls = [
        request.build_absolute_uri(reverse("tournaments:match-pad", args=[match.pk]))
        for match in matches
    ]
    sheets = [
        {"match": match, "qr": qr_svg(url, table_code_label(match)), "pad_url": url}
        for match, url in zip(matches, pad_urls, strict=True)
    ]
    return render(
        request,
        "tournaments/round_sheets.html",
        {"tournament": tournament, "sheets": sheets, "blank_lines": range(1, 17)},
    )
