"""The big screen for the hall's projector: standings, bracket and what is being played now."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import conditional_page, require_GET

from tournaments import selectors
from tournaments.models import Stage, Tournament
from tournaments.views.common import (
    ELIMINATION,
    _stage_of,
    _tournament_or_404,
    bracket_in_parts,
    has_bracket,
    stage_context,
    standings_tables,
    tiebreaker_labels,
)

SCREEN_REFRESH_SECONDS = 15


SCREEN_PLAYING_ROWS = 16

#: A bracket too big for the projector to show its names 14 px high or more (its 1,870 px
#: by the 72% of 1,080 a part is given hold this much of the drawing, in its own units, whose
#: type is 15) is shown in parts (:func:`tournaments.charts.bracket_parts`: a side at a time,
#: a side too tall by halves or quarters, a part too wide as its first rounds and its last),
#: each for SCREEN_PAGE_SECONDS (or ``?turn=`` seconds). As many rows of matches and rounds
#: as fit, by the size of its boxes (as wide as the longest name needs, a line taller when a
#: name takes two): with one-line names up to 16 teams in single elimination and 8 in double
#: elimination are drawn whole, as before. Drawn whole, a 32-team bracket's names were 11 px
#: high at 1920 x 1080 (7 in double elimination), a 64-team one's 5.
SCREEN_BRACKET_WIDTH = 2000
SCREEN_BRACKET_HEIGHT = 830
SCREEN_PAGE_SECONDS = 20


@require_GET
def big_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """For the projector in the hall: standings, bracket and what is being played now."""
    tournament = _tournament_or_404(request, slug)
    return render(
        request,
        "tournaments/screen.html",
        {
            "tournament": tournament,
            "refresh_seconds": _seconds(request.GET.get("every", ""), SCREEN_REFRESH_SECONDS),
            "page_seconds": _seconds(request.GET.get("turn", ""), SCREEN_PAGE_SECONDS),
            **_screen_context(request, tournament),
        },
    )


def _seconds(given: str, default: int) -> int:
    """Seconds asked for in the address (``?every=``, ``?turn=``), held to 2 to 600."""
    return max(2, min(int(given), 600)) if given.isdigit() else default


@conditional_page  # ETag on what it sends; 304 to a poll that has it already
@require_GET
def big_screen_live(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament_or_404(request, slug)
    return render(
        request,
        "tournaments/_screen.html",
        {"tournament": tournament, **_screen_context(request, tournament)},
    )


def _screen_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    stages = list(tournament.stages.order_by("order"))
    stage = _stage_of(stages, request.GET.get("stage"))
    playing, more = selectors.now_playing(tournament, SCREEN_PLAYING_ROWS)
    running = selectors.games_under_way(playing)
    rows = [{"match": match, "game": running.get(match.pk)} for match in playing]
    context: dict[str, Any] = {
        "playing": rows,
        "playing_more": more,
        "screen_stage": stage,
    }
    if stage is not None:
        document = selectors.stage_bracket_document(stage) if has_bracket(stage) else None
        parts = []
        if document is not None:
            parts = bracket_in_parts(document, SCREEN_BRACKET_WIDTH, SCREEN_BRACKET_HEIGHT)
        if parts:
            titles = {"winners": _("Winners bracket"), "losers": _("Losers bracket")}
            if stage.kind == Stage.Kind.SINGLE_ELIM:
                titles["winners"] = _("Bracket")
            context["bracket_pages"] = [(titles[side], drawing) for side, drawing in parts]
        else:
            context.update(stage_context(stage, None, document=document))
        if stage.kind in ELIMINATION:
            # beside the bracket, the standings of the stage before it (the pools)
            earlier = [s for s in stages if s.order < stage.order and s.kind not in ELIMINATION]
            if earlier:
                context["tables"] = standings_tables(earlier[-1])
                context["tiebreakers"] = tiebreaker_labels(earlier[-1])
                context["swiss"] = earlier[-1].kind == Stage.Kind.SWISS
    return context
