"""The big screen for the hall's projector: standings, bracket and what is being played now."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import conditional_page, require_GET

from tournaments import selectors
from tournaments.models import Stage, Tournament
from tournaments.views.common import (
    ELIMINATION,
    _stage_of,
    _tournament_or_404,
    stage_context,
    standings_tables,
    tiebreaker_labels,
)

SCREEN_REFRESH_SECONDS = 15


SCREEN_PLAYING_ROWS = 16


@require_GET
def big_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """For the projector in the hall: standings, bracket and what is being played now."""
    tournament = _tournament_or_404(request, slug)
    every = request.GET.get("every", "")
    seconds = max(2, min(int(every), 600)) if every.isdigit() else SCREEN_REFRESH_SECONDS
    return render(
        request,
        "tournaments/screen.html",
        {
            "tournament": tournament,
            "refresh_seconds": seconds,
            **_screen_context(request, tournament),
        },
    )


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
        context.update(stage_context(stage, None))
        if stage.kind in ELIMINATION:
            # beside the bracket, the standings of the stage before it (the pools)
            earlier = [s for s in stages if s.order < stage.order and s.kind not in ELIMINATION]
            if earlier:
                context["tables"] = standings_tables(earlier[-1])
                context["tiebreakers"] = tiebreaker_labels(earlier[-1])
                context["swiss"] = earlier[-1].kind == Stage.Kind.SWISS
    return context
