"""The director's day at a glance, and the step that moves the tournament on once play has
run out (after a confirmation)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    conditional_page,
    require_GET,
    require_http_methods,
    require_POST,
)

from scoring.views.common import forbidden
from tarabish_site.api.errors import ApplicationError
from tournaments import selectors, services
from tournaments.forms import SelfRegistrationForm
from tournaments.models import Tournament
from tournaments.views.common import _tournament_or_404


@require_http_methods(["GET", "POST"])
@login_required
def director_day(request: HttpRequest, slug: str) -> HttpResponse:
    """The director's day at a glance: matches ready, in progress, waiting; disputes to rule;
    and, once play has run out, the step that moves the tournament on (posted here: first a
    page asking to confirm, then, confirmed, the step through its service)."""
    tournament = _tournament_or_404(request, slug)
    if not selectors.tournament_directed_by(tournament, request.user):
        return forbidden(
            request,
            _("Only this tournament's directors see this page."),
            reverse("tournaments:tournament-detail", args=[tournament.slug]),
            _("Back to the tournament"),
        )
    if request.method == "POST":
        return _next_step_post(request, tournament)
    return day_page(request, tournament)


def day_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    error: str = "",
    status: int = 200,
    reopen_error: str = "",
    registration_form: SelfRegistrationForm | None = None,
) -> HttpResponse:
    day = selectors.director_day(tournament)
    context = {"tournament": tournament, "day": day, "action_error": error}
    if registration_form is None and tournament.status in services.REGISTRATION_STATES:
        registration_form = SelfRegistrationForm(
            initial={
                "self_registration": tournament.self_registration,
                "registration_opens_at": tournament.registration_opens_at,
                "registration_closes_at": tournament.registration_closes_at,
                "entry_cap": tournament.entry_cap,
            }
        )
    return render(
        request,
        "tournaments/director.html",
        {
            **context,
            "reopen_error": reopen_error,
            "registration_form": registration_form,
            "reports_open": (
                selectors.result_reports_open(tournament_id=tournament.pk)
                if tournament.status == Tournament.Status.RUNNING
                else []
            ),
            "registrations_pending": (
                selectors.team_registrations_pending(tournament)
                if tournament.self_registration and registration_form is not None
                else []
            ),
        },
        status=status,
    )


@require_POST
@login_required
def director_reopen(request: HttpRequest, slug: str) -> HttpResponse:
    """Reopen a finished tournament, with the reason the director gives (kept in its
    history); a refusal is shown beside the reason."""
    tournament = _tournament_or_404(request, slug)
    if not selectors.tournament_directed_by(tournament, request.user):
        return HttpResponseForbidden(_("Only this tournament's directors see this page."))
    try:
        services.tournament_reopen(
            tournament_id=tournament.pk, actor=request.user, reason=request.POST.get("reason", "")
        )
    except ApplicationError as exc:
        reasons = [r for rs in exc.fields.values() for r in rs] or [exc.message]
        fresh = _tournament_or_404(request, slug)
        return day_page(request, fresh, status=exc.status, reopen_error=" ".join(reasons))
    messages.success(request, _("%(name)s is reopened.") % {"name": tournament.name})
    return redirect("tournaments:director-day", slug=tournament.slug)


@dataclass(frozen=True)
class StepAct:
    """The step that moves a tournament on, as its confirmation asks about it."""

    title: str
    consequence: str
    button: str
    done: str
    fields: dict[str, str]


def _step_act(step: selectors.NextStep) -> StepAct:
    fields = {"step": step.action, "stage": str(step.stage_id or "")}
    if step.action == "pair_round":
        assert step.stage is not None  # noqa: S101 - a Swiss round belongs to a stage
        words = {"number": step.round_number, "stage": step.stage.name}
        return StepAct(
            title=_("Pair round %(number)s of %(stage)s") % words,
            consequence=_(
                "Every match of the round before is decided. Round %(number)s is paired from "
                "the standings as they are now, and its matches become ready to start."
            )
            % words,
            button=_("Pair round %(number)s") % words,
            done=_("Round %(number)s of %(stage)s is paired.") % words,
            fields=fields,
        )
    if step.action == "advance":
        assert step.stage is not None  # noqa: S101 - advancing starts a stage
        words = {
            "stage": step.stage.name,
            "kind": step.stage.get_kind_display(),
            "finished": step.finished.name if step.finished else _("check-in"),
        }
        return StepAct(
            title=_("Start %(stage)s") % words,
            consequence=_(
                "%(stage)s (%(kind)s) starts with the teams that qualify from %(finished)s: "
                "its first matches become ready to start. The results of %(finished)s then "
                "stand and can no longer be changed."
            )
            % words,
            button=_("Start %(stage)s") % words,
            done=_("%(stage)s has started.") % words,
            fields=fields,
        )
    return StepAct(
        title=_("Finish the tournament"),
        consequence=_(
            "Every stage is over. Finishing stores each team's final place; the results then "
            "stand and can no longer be changed."
        ),
        button=_("Finish the tournament"),
        done=_("The tournament is finished."),
        fields=fields,
    )


def _next_step_post(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    step = selectors.director_next_step(tournament)
    asked = (request.POST.get("step", ""), request.POST.get("stage", ""))
    if step is None or asked != (step.action, str(step.stage_id or "")):
        moved = _("The tournament moved on while you were deciding: here is the day as it is now.")
        return day_page(request, tournament, error=moved, status=409)
    act = _step_act(step)
    if request.POST.get("confirmed") != "yes":
        return render(
            request,
            "tournaments/director_confirm.html",
            {"tournament": tournament, "act": act},
        )
    try:
        if step.action == "pair_round":
            services.swiss_round_pair(stage_id=int(step.stage_id or 0), actor=request.user)
        elif step.action == "advance":
            services.stage_advance(tournament_id=tournament.pk, actor=request.user)
        else:
            services.tournament_finish(tournament_id=tournament.pk, actor=request.user)
    except ApplicationError as exc:
        fresh = _tournament_or_404(request, tournament.slug)
        return day_page(request, fresh, error=exc.message, status=exc.status)
    messages.success(request, act.done)
    return redirect("tournaments:director-day", slug=tournament.slug)


@conditional_page  # ETag on what it sends; 304 to a poll that has it already
@require_GET
@login_required
def director_day_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The director's day without the page around it, for the page to refresh itself (a
    dispute's verdict arrives from the engine while the director watches). A refusal is a
    short 403 with no page around it either: the script keeps what it shows on any answer
    that is not ok, and on a redirect (to signing in, once the session has ended)."""
    tournament = _tournament_or_404(request, slug)
    if not selectors.tournament_directed_by(tournament, request.user):
        return HttpResponseForbidden(_("Only this tournament's directors see this page."))
    day = selectors.director_day(tournament)
    return render(request, "tournaments/_day.html", {"tournament": tournament, "day": day})
