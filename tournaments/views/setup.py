"""The director's setup page: a tournament named, shaped, filled with teams and started in
one go, without the admin."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring.views.common import _put_errors, forbidden
from tarabish_site.api.errors import ApplicationError
from tournaments import services
from tournaments.forms import SetupForm
from tournaments.services.setup import FORMAT_PRESETS, Setup, tournament_setup

#: Where a refusal naming a field of the service lands on the form.
FIELD_OF = {"slug": "name", "ends_on": "starts_on", "qualifiers_pool_count": "pool_count"}


@require_http_methods(["GET", "POST"])
@login_required
def tournament_setup_page(request: HttpRequest) -> HttpResponse:
    """Name the tournament, choose its format and rules, paste its teams, seed them and start
    (or open check-in): then on to the director's day."""
    if not services.can_create_tournament(request.user):
        return forbidden(
            request,
            _("Only a director may set up a tournament."),
            reverse("tournaments:tournament-list"),
            _("Back to the tournaments"),
        )
    form = SetupForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        setup = Setup(
            name=data["name"],
            starts_on=data["starts_on"],
            venue=data["venue"],
            format=data["format"],
            teams=data["teams"],
            ruleset_preset=data["ruleset_preset"],
            match_games=data["match_games"],
            pool_count=data["pool_count"],
            qualifiers_per_pool=data["qualifiers_per_pool"],
            swiss_rounds=data["swiss_rounds"],
            third_place=data["third_place"],
            check_in_required=data["check_in_required"],
            quick_results_by_scorekeepers=data["quick_results_by_scorekeepers"],
            results_confirmed_by_both=data["results_confirmed_by_both"],
            entry_cap=data["entry_cap"],
            seeding=data["seeding"],
        )
        try:
            tournament = tournament_setup(actor=request.user, setup=setup)
        except ApplicationError as exc:
            exc.fields = {FIELD_OF.get(k, k): v for k, v in (exc.fields or {}).items()}
            _put_errors(form, exc)
        else:
            if tournament.status == tournament.Status.RUNNING:
                messages.success(request, _("%(name)s has started.") % {"name": tournament.name})
            else:
                messages.success(
                    request,
                    _("%(name)s is open for check-in: check the teams in, then start it.")
                    % {"name": tournament.name},
                )
            return redirect("tournaments:director-day", slug=tournament.slug)
    status = 400 if form.errors else 200
    return render(
        request,
        "tournaments/setup.html",
        {"form": form, "presets": FORMAT_PRESETS.values()},
        status=status,
    )
