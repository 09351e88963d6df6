"""Keeping score at a table: a table sheet's QR code or PIN signs the phone in for that table,
and a tournament's directors manage who keeps score (the tables' sheets, named accounts)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from scoring.views.common import forbidden
from tarabish_site.api.errors import ApplicationError
from tarabish_site.api.throttles import LoginThrottle
from tournaments import selectors, services
from tournaments.models import TableKey, Tournament
from tournaments.views.common import _tournament_or_404

BACKEND = "django.contrib.auth.backends.ModelBackend"


def _sign_in_at(request: HttpRequest, key: TableKey) -> HttpResponse:
    """Sign the phone in as the key's account (unless its account keeps score there already)
    and send it to the table."""
    tournament = key.tournament
    if not selectors.tournament_directed_by(tournament, request.user):
        login(request, key.account, backend=BACKEND)
    return redirect("tournaments:table-pad", slug=tournament.slug, table=key.table)


@require_http_methods(["GET", "POST"])
def table_claim(request: HttpRequest, token: str) -> HttpResponse:
    """What a table sheet's QR code opens: a page naming the table, whose button signs the
    phone in to keep score there; or why the sheet opens nothing (replaced, over)."""
    try:
        key = services.table_key_by_token(token)
    except ApplicationError as exc:
        context = {"title": _("Not a table sheet"), "message": exc.message, "back": "/"}
        return render(request, "scoring/message.html", context, status=404)
    why = services.table_key_refused_why(key)
    if why:
        back = reverse("tournaments:tournament-detail", args=[key.tournament.slug])
        context = {"title": _("This sheet opens nothing"), "message": why, "back": back}
        return render(request, "scoring/message.html", context, status=410)
    if request.method == "POST":
        return _sign_in_at(request, key)
    return render(request, "tournaments/table_claim.html", {"key": key})


@require_http_methods(["GET", "POST"])
def table_pin(request: HttpRequest, slug: str) -> HttpResponse:
    """A table's PIN, typed on a phone without a camera: the same as scanning its code.
    Attempts are limited per address at the sign-in rate."""
    tournament = _tournament_or_404(request, slug)
    errors: dict[str, str] = {}
    table_text = request.POST.get("table", "").strip()
    status = 200
    if request.method == "POST":
        throttle = LoginThrottle()
        if not throttle.allow_request(request, None):  # type: ignore[arg-type]
            wait = int(throttle.wait() or 1)
            errors["pin"] = _("Too many attempts from here: try again in %(seconds)s seconds.") % {
                "seconds": wait
            }
            status = 429
        else:
            table = int(table_text) if table_text.isdigit() else None
            try:
                key = services.table_key_by_pin(
                    tournament=tournament, table=table, pin=request.POST.get("pin", "")
                )
            except ApplicationError as exc:
                errors = {name: " ".join(map(str, msgs)) for name, msgs in exc.fields.items()}
                errors = errors or {"pin": exc.message}
                status = 400
            else:
                return _sign_in_at(request, key)
    return render(
        request,
        "tournaments/table_pin.html",
        {"tournament": tournament, "errors": errors, "table": table_text},
        status=status,
    )


@require_GET
def table_pad(request: HttpRequest, slug: str, table: int) -> HttpResponse:
    """A table's score-pad now: the match played there (its game's pad, or its page to start
    the next game), or a page saying that no match waits at the table yet."""
    tournament = _tournament_or_404(request, slug)
    match = selectors.table_match_now(tournament, table)
    if match is not None:
        return redirect("tournaments:match-pad", pk=match.pk)
    return render(
        request,
        "tournaments/table_idle.html",
        {"tournament": tournament, "table": table},
    )


def _scorekeepers_page(
    request: HttpRequest, tournament: Tournament, *, errors: dict[str, str], status: int = 200
) -> HttpResponse:
    keys = selectors.table_keys(tournament)
    tables = [(number, keys.get(number)) for number in selectors.tournament_tables(tournament)]
    context: dict[str, Any] = {
        "tournament": tournament,
        "tables": tables,
        "scorekeepers": selectors.tournament_scorekeepers(tournament),
        "errors": errors,
        "username": request.POST.get("username", ""),
    }
    return render(request, "tournaments/scorekeepers.html", context, status=status)


@require_http_methods(["GET", "POST"])
def scorekeepers(request: HttpRequest, slug: str) -> HttpResponse:
    """A director's page of who keeps score: each table's sheet (print it, or issue a new one
    that revokes the old), and the accounts named scorekeepers of every table. A refused act
    is shown on this same address, which answers a reload."""
    tournament = _tournament_or_404(request, slug)
    if not selectors.tournament_directed_by(tournament, request.user):
        return forbidden(
            request,
            _("Only this tournament's directors can do this."),
            reverse("tournaments:tournament-detail", args=[slug]),
            _("Back to the tournament"),
        )
    if request.method == "GET":
        return _scorekeepers_page(request, tournament, errors={})
    act = request.POST.get("act", "")
    try:
        if act == "issue":
            table_text = request.POST.get("table", "")
            if not table_text.isdigit():
                return _scorekeepers_page(
                    request,
                    tournament,
                    errors={"table": _("Give a table number.")},
                    status=400,
                )
            key = services.table_key_issue(
                tournament_id=tournament.pk, actor=request.user, table=int(table_text)
            )
            messages.success(
                request,
                _("Table %(table)s has a new sheet: the old one opens nothing now.")
                % {"table": key.table},
            )
        elif act == "add":
            services.tournament_scorekeeper_add(
                tournament_id=tournament.pk,
                actor=request.user,
                username=request.POST.get("username", ""),
            )
            messages.success(request, _("Scorekeeper added."))
        elif act == "remove":
            user_text = request.POST.get("user", "")
            services.tournament_scorekeeper_remove(
                tournament_id=tournament.pk,
                actor=request.user,
                user_id=int(user_text) if user_text.isdigit() else 0,
            )
            messages.success(request, _("Scorekeeper removed."))
        else:
            return _scorekeepers_page(
                request, tournament, errors={"act": _("Choose what to do.")}, status=400
            )
    except ApplicationError as exc:
        errors = {name: " ".join(map(str, msgs)) for name, msgs in exc.fields.items()}
        return _scorekeepers_page(
            request, tournament, errors=errors or {"act": exc.message}, status=exc.status
        )
    return redirect("tournaments:scorekeepers", slug=slug)
