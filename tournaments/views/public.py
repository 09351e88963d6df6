"""The pages anyone following a tournament reads: the list, a tournament with its stages,
its schedule, and a stage alone for pages that refresh themselves."""

from __future__ import annotations

from typing import Any

from csp.decorators import csp_replace
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import conditional_page, require_GET

from tournaments import selectors, services
from tournaments.forms import TeamRegistrationForm
from tournaments.models import Tournament
from tournaments.views.common import (
    _highlight,
    _stage_of,
    _tournament_or_404,
    entry_items,
    follow_options,
    placing_items,
    stage_context,
    with_pages,
)

#: Matches listed under "now playing and up next" on the tournament page.
NOW_PLAYING_ROWS = 24


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = selectors.tournament_list(request.user)
    can_set_up = request.user.is_authenticated and services.can_create_tournament(request.user)
    return render(
        request, "tournaments/list.html", {"tournaments": tournaments, "can_set_up": can_set_up}
    )


@require_GET
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    return tournament_detail_page(request, _tournament_or_404(request, slug))


def tournament_detail_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    registration_form: TeamRegistrationForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The tournament's page: its stages, what is playing, its teams; and, while teams
    register themselves, the form to register one and the player's registrations waiting."""
    overview = selectors.tournament_overview(tournament)
    stage = _stage_of(overview.stages, request.GET.get("stage"))
    shown, more = selectors.now_playing(tournament, NOW_PLAYING_ROWS)
    context: dict[str, Any] = {
        "tournament": tournament,
        "overview": overview,
        "entry_items": entry_items(overview.entries),
        "placing_items": placing_items(overview.placements),
        "schedule": with_pages(shown),
        "schedule_more": more,
        "can_direct": selectors.tournament_directed_by(tournament, request.user),
    }
    if stage is not None:
        context.update(stage_context(stage, _highlight(request)))
    context.update(_self_registration(request, tournament, registration_form))
    return render(request, "tournaments/detail.html", context, status=status)


def _self_registration(
    request: HttpRequest, tournament: Tournament, form: TeamRegistrationForm | None
) -> dict[str, Any]:
    """What the page shows of teams registering themselves (nothing if they do not)."""
    if not tournament.self_registration:
        return {"registration_form": form} if form is not None else {}
    waiting = selectors.team_registrations_waiting(tournament, request.user)
    is_open = services.registration_is_open(tournament)
    if form is None and is_open and request.user.is_authenticated and not waiting:
        form = TeamRegistrationForm()
    opens = tournament.registration_opens_at
    return {
        "registration_open": is_open,
        "registration_opens_later": opens is not None and timezone.now() < opens,
        "registrations_waiting": waiting,
        "registration_form": form,
    }


@require_GET
def schedule(request: HttpRequest, slug: str) -> HttpResponse:
    """Every match of the tournament with its round, table, result and state; with ``?team=``
    (an entry), that team's matches alone: where and whom a player plays next."""
    tournament = _tournament_or_404(request, slug)
    teams = selectors.entry_display_names(tournament)
    team = _highlight(request)
    if team is not None and team not in teams:
        raise Http404(_("There is no such team in this tournament."))
    return render(
        request,
        "tournaments/schedule.html",
        {
            "tournament": tournament,
            "schedule": with_pages(
                selectors.tournament_schedule(tournament, entry=team, names=teams)
            ),
            "team": team,
            "team_name": teams.get(team) if team is not None else None,
            "team_options": follow_options(
                sorted(teams.items(), key=lambda item: item[1].casefold()), team
            ),
        },
    )


@conditional_page  # ETag on what it sends; 304 to a poll that has it already
@require_GET
def stage_live(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """The bracket or standings of a stage alone, for pages that refresh themselves."""
    tournament = _tournament_or_404(request, slug)
    stage = _stage_of(list(tournament.stages.order_by("order")), stage_id)
    assert stage is not None  # noqa: S101 - _stage_of raised 404 otherwise
    context = {"tournament": tournament, **stage_context(stage, _highlight(request))}
    return render(request, "tournaments/_stage.html", context)


@require_GET
@xframe_options_exempt
@csp_replace({"frame-ancestors": ["*"]})  # type: ignore[arg-type]  # its stubs take request only
def tournament_embed(request: HttpRequest, slug: str) -> HttpResponse:
    """A stage's bracket or standings (``?stage=``, else the latest), alone on a page that other
    sites may show in a frame: the one page that may be framed (``X-Frame-Options`` left off,
    ``frame-ancestors *``); it refreshes itself, and its links open on this site."""
    tournament = _tournament_or_404(request, slug)
    overview = selectors.tournament_overview(tournament)
    stage = _stage_of(overview.stages, request.GET.get("stage"))
    context: dict[str, Any] = {
        "tournament": tournament,
        "overview": overview,
        "placing_items": placing_items(overview.placements, linked=False),
    }
    if stage is not None:
        context.update(stage_context(stage, _highlight(request)))
    return render(request, "tournaments/embed.html", context)
