"""Teams that register themselves: the form on the tournament's page, the partner's answer,
a player's list of their registrations, and the director's window for them."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tarabish_site.api.errors import ApplicationError
from tarabish_site.api.exceptions import error_body
from tournaments import selectors, services
from tournaments.forms import SelfRegistrationForm, TeamRegistrationForm
from tournaments.views.common import _tournament_or_404
from tournaments.views.director import day_page
from tournaments.views.public import tournament_detail_page


def worded(error: ApplicationError) -> dict[str, Any]:
    """A refusal in the page's language: its message and reasons per field."""
    return error_body(error.message, error.code, error.fields)


def put_refusal(form: Any, error: ApplicationError) -> None:
    """The refusal next to the field it names, else above the form."""
    body = worded(error)
    placed = False
    for name, reasons in body["fields"].items():
        for reason in reasons:
            form.add_error(name if name in form.fields else None, reason)
            placed = True
    if not placed:
        form.add_error(None, body["message"])


@require_POST
@login_required
def tournament_register(request: HttpRequest, slug: str) -> HttpResponse:
    """Register a team with a partner from the tournament's page; refused, the page again with
    the reason next to the field."""
    tournament = _tournament_or_404(request, slug)
    form = TeamRegistrationForm(request.POST)
    status = 400
    if form.is_valid():
        try:
            registration = services.team_registration_create(
                tournament_id=tournament.pk, actor=request.user, **form.cleaned_data
            )
        except ApplicationError as exc:
            put_refusal(form, exc)
            status = exc.status
        else:
            messages.success(
                request,
                _("Registered: the team is entered once %(partner)s confirms it.")
                % {"partner": registration.partner.username},
            )
            url = reverse("tournaments:tournament-detail", args=[tournament.slug])
            return redirect(f"{url}#register")
    return tournament_detail_page(request, tournament, registration_form=form, status=status)


def _back(request: HttpRequest) -> str:
    wanted = request.POST.get("next", "")
    if wanted and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return reverse("tournaments:my-registrations")


@require_POST
@login_required
def registration_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """The partner confirms: the team is entered (or waits, when the tournament is full)."""
    try:
        registration = services.team_registration_confirm(registration_id=pk, actor=request.user)
    except ApplicationError as exc:
        messages.error(request, worded(exc)["message"])
    else:
        entry = registration.entry
        if entry is not None and entry.status == entry.Status.WAITING:
            messages.success(
                request,
                _("Confirmed: the tournament is full, so your team is on the waiting list."),
            )
        else:
            messages.success(request, _("Confirmed: your team is entered."))
    return redirect(_back(request))


@require_POST
@login_required
def registration_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    """Either player takes a waiting registration back (the partner declines it)."""
    try:
        registration = services.team_registration_withdraw(registration_id=pk, actor=request.user)
    except ApplicationError as exc:
        messages.error(request, worded(exc)["message"])
    else:
        if registration.status == registration.Status.DECLINED:
            messages.success(request, _("Declined."))
        else:
            messages.success(request, _("Registration withdrawn."))
    return redirect(_back(request))


@require_GET
@login_required
def my_registrations(request: HttpRequest) -> HttpResponse:
    """The registrations a player made or is named partner in, the waiting ones to answer."""
    registrations = list(selectors.team_registrations_of(request.user)[:100])
    return render(request, "tournaments/registrations.html", {"registrations": registrations})


@require_POST
@login_required
def director_registration(request: HttpRequest, slug: str) -> HttpResponse:
    """The director lets teams register themselves (or not), sets the window and the cap."""
    tournament = _tournament_or_404(request, slug)
    if not selectors.tournament_directed_by(tournament, request.user):
        return HttpResponseForbidden(_("Only this tournament's directors see this page."))
    form = SelfRegistrationForm(request.POST)
    if form.is_valid():
        try:
            services.tournament_update(
                tournament_id=tournament.pk,
                actor=request.user,
                expected_version=tournament.version,
                changes=dict(form.cleaned_data),
            )
        except ApplicationError as exc:
            put_refusal(form, exc)
            return day_page(request, tournament, registration_form=form, status=exc.status)
        messages.success(request, _("Registration settings saved."))
        return redirect(reverse("tournaments:director-day", args=[slug]) + "#self-registration")
    return day_page(request, tournament, registration_form=form, status=400)
