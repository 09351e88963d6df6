"""The lobby (``/play/``) and the table page (``/play/<id>/``). The table page is drawn by
its script (``static/js/play/``) from the same state the socket sends."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from play import services
from play.forms import SignUpForm, TableForm
from play.models import Seat, Table
from scoring import services as scoring
from scoring.engine import EngineError
from scoring.views.common import OUTCOME_LABELS
from scoring.wording import preset_choices, preset_name, ruleset_lines
from tarabish_site.api.errors import ApplicationError


def _tables(request: HttpRequest) -> list[Table]:
    user = request.user
    visible = Q(public=True)
    if user.is_authenticated:
        visible |= Q(created_by=user) | Q(seats__user=user) | Q(spectators__user=user)
    tables: list[Table] = list(
        Table.objects.filter(visible)
        .distinct()
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number"))
        )
        .order_by("-updated_at")[:50]
    )
    for table in tables:
        table.preset_name = preset_name(table.ruleset_preset)  # type: ignore[attr-defined]
        # the seat the person looking holds at this table, if any: theirs to go back to
        table.your_seat = next(  # type: ignore[attr-defined]
            (
                seat.number
                for seat in table.seats.all()
                if user.is_authenticated and seat.user_id == user.pk
            ),
            None,
        )
    return tables


def lobby(request: HttpRequest) -> HttpResponse:
    """Open tables, a new table, and signing up in one step."""
    table_form = TableForm(prefix="table")
    signup = SignUpForm(prefix="signup")
    status = 200
    if request.method == "POST" and "signup-username" in request.POST:
        signup = SignUpForm(request.POST, prefix="signup")
        if signup.is_valid() and _sign_up(request, signup):
            return redirect("play:lobby")
        status = 400
    elif request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        table_form = TableForm(request.POST, prefix="table")
        if table_form.is_valid():
            table = _create(request, table_form.cleaned_data)
            return redirect("play:table", pk=table.pk)
        status = 400
    context = {
        "tables": _tables(request),
        "table_form": table_form,
        "signup": signup,
        "presets": dict(preset_choices()),
    }
    return render(request, "play/lobby.html", context, status=status)


def _sign_up(request: HttpRequest, form: SignUpForm) -> bool:
    data = form.cleaned_data
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(
                username=data["username"], password=data["password"]
            )
            scoring.player_create(display_name=data["display_name"], community="", user=user)
    except ApplicationError as exc:
        form.add_error("display_name", exc.message)
        return False
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return True


def _create(request: HttpRequest, data: dict[str, Any]) -> Table:
    with transaction.atomic():
        table = services.table_create(
            by=request.user,
            name=data["name"],
            ruleset_preset=data["ruleset_preset"],
            public=data["public"],
            replace_after=data["replace_after"],
        )
        services.table_sit(table=table, user=request.user, seat=0)
        if data["computers"]:
            services.table_fill_with_bots(table=table, user=request.user)
    return table


def table_page(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_object_or_404(Table.objects.select_related("game"), pk=pk)
    token = request.GET.get("invite", "")
    if not services.table_watch(table=table, user=request.user, token=token):
        raise Http404
    seat = services.seat_of(table, request.user)
    directs = table.created_by_id == request.user.pk or (
        table.game is not None and scoring.user_can_direct(request.user, table.game)
    )
    waiting = [s for s in table.seats.select_related("player") if services.seat_waiting(s)]
    context = {
        "table": table,
        "seat": seat,
        "waiting": waiting if directs else [],
        "invite": request.build_absolute_uri(
            reverse("play:table", args=[table.pk]) + f"?invite={table.invite_token}"
        )
        if seat is not None or table.created_by_id == request.user.pk
        else "",
        "preset": preset_name(table.ruleset_preset),
        "rules": ruleset_lines(table.engine_ruleset),
        "words": play_words(),
        "poll_ms": round(settings.PLAY_POLL_SECONDS * 1000),
    }
    return render(request, "play/table.html", context)


def play_words() -> dict[str, Any]:
    """The table script's words in the request's language (static/js/play/cards.js holds
    the same keys in English, for its tests)."""
    return {
        "you": _("You"),
        "seat": _("seat %(n)s"),
        "emptySeat": _("empty seat"),
        "computer": _("computer"),
        "waitingSignIn": _("waiting for them to sign in"),
        "theMatch": _("The match"),
        "waiting": _("Waiting for four players."),
        "turnedJack": _("%(name)s turned a jack and deals."),
        "cuts": _("%(cutter)s cuts the deck for %(dealer)s."),
        "handResult": _("Hand %(number)s: %(outcome)s, %(a)s to %(b)s."),
        "gameOverYours": _("Game over: your team wins, %(a)s to %(b)s."),
        "gameOverTeam": _("Game over: team %(team)s wins, %(a)s to %(b)s."),
        "nextDeals": _("Next: %(name)s deals."),
        "trickTo": _("trick to %(name)s"),
        "toCall": _("%(name)s to call"),
        "toPlay": _("%(name)s to play"),
        "handOver": _("the hand is over"),
        "dealer": _("dealer"),
        "calledSuit": _("called %(suit)s"),
        "cards": _("%(n)s cards"),
        "away": _("away"),
        "notPlayable": _("Not playable now: tap to see why"),
        "turnOf": _("It is %(name)s's turn."),
        "flipAndStart": _("Flip for jacks and start"),
        "anotherGame": _("Another game"),
        "whereToCut": _("Where to cut"),
        "cutHere": _("Cut here"),
        "nextHand": _("Next hand"),
        "goOn": _("Go on"),
        "throwIn": _("Throw in"),
        "throwInConfirm": _("Throw in your cards? The hand stops and is scored as it stands."),
        "sheetHand": _("Hand"),
        "sheetTeamA": _("Team A"),
        "sheetTeamB": _("Team B"),
        "sheetTotalA": _("Total A"),
        "sheetTotalB": _("Total B"),
        "gamePage": _("The game's page"),
        "clubs": _("clubs"),
        "diamonds": _("diamonds"),
        "hearts": _("hearts"),
        "spades": _("spades"),
        "noTrumpWord": _("no trump"),
        "passed": _("%(name)s passed"),
        "called": _("%(name)s called %(suit)s"),
        "hasRun": _("%(name)s has a run"),
        "showed": _("%(name)s showed %(cards)s"),
        "calledBella": _("%(name)s called bella"),
        "played": _("%(name)s played %(card)s"),
        "threwIn": _("%(name)s threw in"),
        "pass": _("Pass"),
        "noTrump": _("No trump"),
        "announceRun": _("Announce a run"),
        "show": _("Show %(cards)s"),
        "bella": _("Bella"),
        "outcomes": {outcome: str(label) for outcome, label in OUTCOME_LABELS.items()},
    }


@require_POST
@login_required
def table_seat(request: HttpRequest, pk: int) -> HttpResponse:
    """Sit, stand, fill the empty seats with computers, or (a director) give a seat waiting
    for its player to a computer (a form's ``do``)."""
    do = request.POST.get("do", "")
    try:
        if do == "sit":
            seat = int(request.POST.get("seat", "-1"))
            services.table_sit(table=pk, user=request.user, seat=seat)
        elif do == "stand":
            services.table_stand(table=pk, user=request.user)
        elif do == "computers":
            services.table_fill_with_bots(table=pk, user=request.user)
        elif do == "computer":
            seat = int(request.POST.get("seat", "-1"))
            services.seat_to_computer(table=pk, user=request.user, seat=seat)
    except (ApplicationError, EngineError, ValueError) as exc:
        context: dict[str, Any] = {
            "tables": _tables(request),
            "error": str(exc),
            "table_form": TableForm(prefix="table"),
            "signup": SignUpForm(prefix="signup"),
            "presets": dict(preset_choices()),
        }
        return render(request, "play/lobby.html", context, status=409)
    if do == "stand":
        return redirect("play:lobby")
    return redirect("play:table", pk=pk)
