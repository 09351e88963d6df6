"""The big screen for the hall's projector: standings, bracket and what is being played now."""

from __future__ import annotations

from collections.abc import Mapping
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
    bracket_of,
    has_bracket,
    stage_context,
    standings_tables,
    tiebreaker_labels,
)

SCREEN_REFRESH_SECONDS = 15


SCREEN_PLAYING_ROWS = 16

#: A double-elimination bracket whose tallest rounds (the winners' side's and the losers'
#: side's together) hold more matches than this is shown a side at a time, each for
#: SCREEN_PAGE_SECONDS (or ``?turn=`` seconds): drawn whole and held to the projector's
#: height, its names would be too small to read across a hall. Up to 8 teams it is whole.
SCREEN_BRACKET_ROWS = 8
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
        if document is not None and _too_tall(document):
            context["bracket_pages"] = [
                (title, bracket_of(stage, None, document=document, sides=sides)[0])
                for title, sides in (
                    (_("Winners bracket"), ("winners", "final")),
                    (_("Losers bracket"), ("losers",)),
                )
            ]
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


def _too_tall(document: Mapping[str, Any]) -> bool:
    """Whether a bracket has a losers' side and too many matches in its tallest rounds to be
    read whole on the big screen (:data:`SCREEN_BRACKET_ROWS`)."""
    tallest = {
        side["side"]: max((len(rnd["matches"]) for rnd in side["rounds"]), default=0)
        for side in document["sides"]
    }
    return "losers" in tallest and tallest["winners"] + tallest["losers"] > SCREEN_BRACKET_ROWS
