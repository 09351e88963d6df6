"""The director's webhooks page: the tournament's subscriptions, a form to add one (its secret
shown once, on the page that answers it), and each subscription's deliveries with their
attempts, sent again or the subscription enabled again by a button."""

from __future__ import annotations

import uuid
from collections.abc import Mapping

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring.views.common import forbidden
from tarabish_site import events
from tarabish_site.api.errors import ApplicationError
from tournaments.models import Tournament
from tournaments.selectors import tournament_directed_by, tournaments_visible
from webhooks import services
from webhooks.models import Delivery, Subscription

#: Deliveries shown on a subscription's page, the newest first.
DELIVERIES_SHOWN = 50


class _NotDirector(Exception):
    pass


def _directed(request: HttpRequest, slug: str) -> Tournament:
    tournament = tournaments_visible(request.user).filter(slug=slug).first()
    if tournament is None:
        raise Http404(_("There is no such tournament."))
    if not tournament_directed_by(tournament, request.user):
        raise _NotDirector
    return tournament


def _refused(request: HttpRequest, slug: str) -> HttpResponse:
    return forbidden(
        request,
        _("Only this tournament's directors manage its webhooks."),
        reverse("tournaments:tournament-detail", args=[slug]),
        _("Back to the tournament"),
    )


def _list_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    form: Mapping[str, object] | None = None,
    errors: dict[str, str] | None = None,
    created: Subscription | None = None,
    status: int = 200,
) -> HttpResponse:
    subscriptions = list(Subscription.objects.filter(tournament=tournament).order_by("pk"))
    context = {
        "tournament": tournament,
        "subscriptions": subscriptions,
        "events": events.EVENTS,
        "form": form or {"url": "", "events": [], "description": ""},
        "errors": errors or {},
        "created": created,
    }
    return render(request, "webhooks/list.html", context, status=status)


@require_http_methods(["GET", "POST"])
@login_required
def webhooks_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The subscriptions, and the form that adds one (posted here)."""
    try:
        tournament = _directed(request, slug)
    except _NotDirector:
        return _refused(request, slug)
    if request.method == "GET":
        return _list_page(request, tournament)
    url = request.POST.get("url", "").strip()
    chosen = request.POST.getlist("events")
    description = request.POST.get("description", "").strip()
    form = {"url": url, "events": chosen, "description": description}
    try:
        created = services.subscription_create(
            tournament=tournament,
            actor=request.user,
            url=url,
            events=chosen,
            description=description,
        )
    except ApplicationError as exc:
        errors = {key.split(".")[0]: " ".join(reasons) for key, reasons in exc.fields.items()}
        return _list_page(
            request, tournament, form=form, errors=errors or {"url": exc.message}, status=400
        )
    return _list_page(request, tournament, created=created)


def _subscription(tournament: Tournament, pk: int) -> Subscription:
    found = Subscription.objects.filter(tournament=tournament, pk=pk).first()
    if found is None:
        raise Http404(_("There is no such webhook."))
    return found


@require_http_methods(["GET"])
@login_required
def subscription_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """One subscription: its state and its latest deliveries with every attempt."""
    try:
        tournament = _directed(request, slug)
    except _NotDirector:
        return _refused(request, slug)
    subscription = _subscription(tournament, pk)
    deliveries = list(
        Delivery.objects.filter(subscription=subscription)
        .prefetch_related("attempt_log")
        .order_by("-created_at", "pk")[:DELIVERIES_SHOWN]
    )
    context = {"tournament": tournament, "subscription": subscription, "deliveries": deliveries}
    return render(request, "webhooks/subscription.html", context)


def _act(request: HttpRequest, slug: str, pk: int, act: str, delivery: str = "") -> HttpResponse:
    try:
        tournament = _directed(request, slug)
    except _NotDirector:
        return _refused(request, slug)
    back = reverse("webhooks:subscription", args=[slug, pk])
    try:
        if act == "enable":
            services.subscription_enable(
                tournament=tournament, subscription_id=pk, actor=request.user
            )
            messages.success(request, _("Enabled: the deliveries that waited are being sent."))
        elif act == "redeliver":
            try:
                key = uuid.UUID(delivery)
            except ValueError:
                raise Http404(_("There is no such delivery.")) from None
            services.delivery_redeliver(
                tournament=tournament, subscription_id=pk, delivery_id=key, actor=request.user
            )
            messages.success(request, _("The delivery is being sent again."))
        else:
            services.subscription_delete(
                tournament=tournament, subscription_id=pk, actor=request.user
            )
            messages.success(request, _("The webhook and its deliveries were removed."))
            back = reverse("webhooks:list", args=[slug])
    except ApplicationError as exc:
        if exc.status == 404:
            raise Http404(exc.message) from None
        messages.error(request, exc.message)
    return redirect(back)


@require_POST
@login_required
def subscription_enable(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return _act(request, slug, pk, "enable")


@require_POST
@login_required
def subscription_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return _act(request, slug, pk, "delete")


@require_POST
@login_required
def delivery_redeliver(request: HttpRequest, slug: str, pk: int, delivery: str) -> HttpResponse:
    return _act(request, slug, pk, "redeliver", delivery)
