"""The score-pad: the page, its live part, the hand form when no script runs, the first
dealer, and the scorekeeper's acts on the whole game (undo the last hand, end early)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from scoring import services
from scoring.engine import EngineError, dealer_of_hand, parse_card
from scoring.forms import FirstDealerForm, GameActForm, HandForm, ReasonForm, UndoForm
from scoring.models import Game, Hand
from scoring.views.common import (
    OUTCOME_LABELS,
    _game_or_404,
    _put_errors,
    _refuse_unless_keeper,
    _user,
    abilities,
    game_context,
    post_else_back,
    seat_names,
)
from tarabish_site.api.errors import ApplicationError

#: How many dealers ahead the score-pad knows, for hands entered with no signal.
DEALERS_AHEAD = 40


def _hand_form(game: Game, *args: Any, form_class: type[HandForm] = HandForm, **kwargs: Any) -> Any:
    return form_class(
        *args,
        seat_names=seat_names(game),
        team_names=(game.team_a.name, game.team_b.name),
        no_trump_allowed=game.engine_ruleset.no_trump_allowed,
        void_allowed=game.engine_ruleset.dealer_may_pass,
        **kwargs,
    )


def pad_config(request: HttpRequest, game: Game) -> dict[str, Any]:
    """What the score-pad's script needs (it knows no rules: the dealers ahead come from the
    engine here, and every score from the server)."""
    first = game.first_dealer
    dealers = (
        {n: dealer_of_hand(first, n) for n in range(1, game.hands_played + DEALERS_AHEAD)}
        if first is not None
        else {}
    )
    return {
        "game": game.pk,
        "version": game.version,
        "nextNumber": game.hands_played + 1,
        "running": game.status == Game.Status.IN_PROGRESS and first is not None,
        "dealers": dealers,
        "seats": seat_names(game),
        "teams": [game.team_a.name, game.team_b.name],
        "outcomes": {outcome: str(label) for outcome, label in OUTCOME_LABELS.items()},
        "urls": {
            "hands": reverse("api:game-hand-list", kwargs={"game_pk": game.pk}),
            "preview": reverse("api:game-hand-preview", kwargs={"game_pk": game.pk}),
            "sheet": reverse("scoring:game-pad-sheet", args=[game.pk]),
        },
        "words": {
            "notSent": _("Not yet sent"),
            "refused": _("Refused by the server"),
            "discard": _("Discard"),
            "hand": _("Hand"),
            "passed": _("all passed"),
            "previewOffline": _(
                "No signal: the hand is checked when it is sent. It is kept on this phone."
            ),
            "previewWaiting": _(
                "Hands on this phone are not yet sent: this one is checked when it is sent."
            ),
            "edit": _("Put back in the form"),
            "waiting": _("%(count)s hand(s) not yet sent"),
            "wins": _("%(team)s wins the game"),
            "countRange": _("card points %(points)s are impossible: a team takes 0 to %(total)s"),
            "countOne": _("card points %(points)s are impossible: no card is worth 1"),
        },
    }


def card_face(code: str) -> dict[str, str]:
    """A card turned for the first deal as the table sees it: its rank and suit symbol
    (``"J♥"``, with ``suit`` the letter for its colour), not its code."""
    card = parse_card(code)
    return {"card": f"{str(card)[:-1]}{card.suit.symbol}", "suit": card.suit.value}


def _then(request: HttpRequest) -> str:
    """Where the pad sends the scorekeeper when the game is over, if the page that opened it
    said (a tournament match: its next game must be started there to count). Local paths only."""
    then = request.GET.get("then", "")
    allowed = url_has_allowed_host_and_scheme(then, allowed_hosts=None) and then.startswith("/")
    return then if allowed else ""


@require_GET
@never_cache
def game_pad(request: HttpRequest, pk: int) -> HttpResponse:
    game, hands = _game_or_404(request, pk)
    return _pad(
        request,
        game,
        hands,
        form=_hand_form(game, initial={"count_team": "team_a"}),
        can_write=services.user_can_keep_score(request.user, game),
        first_dealer_flips=[
            {"seat": s, "name": seat_names(game)[s], **card_face(card)}
            for s, card in (game.first_dealer_flips or [])
        ],
    )


def _pad(
    request: HttpRequest,
    game: Game,
    hands: Sequence[Hand],
    *,
    form: forms.Form,
    can_write: bool = True,
    status: int = 200,
    **more: Any,
) -> HttpResponse:
    """The score-pad page, as first shown or again with a refusal (``status`` 400): the way
    back to the match a game is played for stays on it either way."""
    context = game_context(game, hands)
    context.update(
        {
            "then": services.game_owner_page(game) or _then(request),
            "then_words": services.game_owner_next(game) if game.is_over else "",
            "owner_warning": services.game_owner_warning(game),
            "can_write": can_write,
            **abilities(request, game, can_write=can_write),
            "can_direct": services.user_can_direct(request.user, game),
            "form": form,
            "config": pad_config(request, game),
            "first_dealer_flips": [],
            **more,
        }
    )
    return render(request, "scoring/pad.html", context, status=status)


@require_GET
@never_cache
def game_pad_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The live part of the score-pad (scoreboard, sheet), for the script to refresh.

    ``?version=N``: 204 when the game is still at version N (nothing to redraw), and the
    warning of the app that runs it (``warned``, 1 or 0) is still shown or not.
    """
    game, hands = _game_or_404(request, pk)
    seen = request.GET.get("version", "")
    warning = services.game_owner_warning(game)
    warned = request.GET.get("warned", "0") == "1"
    if seen.isdigit() and int(seen) == game.version and warned == bool(warning):
        return HttpResponse(status=204)
    context = game_context(game, hands)
    context["owner_warning"] = warning
    context["can_write"] = services.user_can_keep_score(request.user, game)
    context.update(abilities(request, game, can_write=context["can_write"]))
    response = render(request, "scoring/_live.html", context)
    response["X-Game-Version"] = str(game.version)
    return response


@post_else_back("scoring:game-pad")
@login_required
def game_hand_add(request: HttpRequest, pk: int) -> HttpResponse:
    """The score-pad's form when no script runs: store the hand and show the pad again."""
    game, hands = _game_or_404(request, pk)
    refused = _refuse_unless_keeper(request, game)
    if refused is not None:
        return refused
    form = _hand_form(game, request.POST)
    if form.is_valid():
        try:
            services.hand_record(
                game=game,
                entry_kind="summary",
                entry=form.to_entry(),
                by=_user(request),
            )
        except (EngineError, ApplicationError) as exc:
            _put_errors(form, exc)
        else:
            return redirect("scoring:game-pad", pk=game.pk)
    return _pad(request, game, hands, form=form, status=400)


@post_else_back("scoring:game-pad")
@login_required
def game_first_dealer(request: HttpRequest, pk: int) -> HttpResponse:
    game, hands = _game_or_404(request, pk)
    refused = _refuse_unless_keeper(request, game)
    if refused is not None:
        return refused
    try:
        if "flip" in request.POST:
            form: forms.Form = GameActForm(request.POST)
            if not form.is_valid():
                return _pad_with_error(request, pk, _("Reload the page and flip again."))
            services.game_first_dealer_flip(
                game=game, by=_user(request), expected_version=form.cleaned_data["version"]
            )
        else:
            form = FirstDealerForm(request.POST)
            if not form.is_valid():  # said beside the choice of players, not above the page
                return _pad(
                    request,
                    game,
                    hands,
                    form=_hand_form(game),
                    status=400,
                    first_dealer_error=_("Choose the player who deals first."),
                )
            services.game_first_dealer_set(
                game=game,
                seat=form.cleaned_data["seat"],
                by=_user(request),
                expected_version=form.cleaned_data["version"],
            )
    except (EngineError, ApplicationError) as exc:
        return _pad_with_error(request, pk, str(exc))
    return redirect("scoring:game-pad", pk=pk)


def _pad_with_error(request: HttpRequest, pk: int, message: str) -> HttpResponse:
    game, hands = _game_or_404(request, pk)
    return _pad(request, game, hands, form=_hand_form(game), status=400, pad_error=message)


def _game_act(
    request: HttpRequest,
    pk: int,
    form_class: type[forms.Form],
    act: Callable[[Game, Any, str, int], object],
    template: str,
) -> HttpResponse:
    """A scorekeeper's act on the whole game behind a short form with a reason: show the form,
    run the service on a valid post and go back to the pad, or show the refusal beside it.

    The act is made on the game version the page showed. When it was refused because the game
    changed, the page shows the game as it is now, with its version, so the next confirmation
    is made knowingly."""
    game, hands = _game_or_404(request, pk)
    refused = _refuse_unless_keeper(request, game)
    if refused is not None:
        return refused
    form = form_class(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            act(game, _user(request), form.cleaned_data["reason"], form.cleaned_data["version"])
        except (EngineError, ApplicationError) as exc:
            _put_errors(form, exc)
        else:
            return redirect("scoring:game-pad", pk=pk)
    context = game_context(game, hands)
    context.update({"form": form, "last": context["rows"][-1] if context["rows"] else None})
    return render(request, template, context, status=400 if form.errors else 200)


@login_required
def game_undo(request: HttpRequest, pk: int) -> HttpResponse:
    return _game_act(
        request,
        pk,
        UndoForm,
        lambda game, by, reason, version: services.hand_undo_last(
            game=game, by=by, reason=reason, expected_version=version
        ),
        "scoring/undo.html",
    )


@login_required
def game_end(request: HttpRequest, pk: int) -> HttpResponse:
    return _game_act(
        request,
        pk,
        ReasonForm,
        lambda game, by, reason, version: services.game_end_early(
            game=game, by=by, reason=reason, expected_version=version
        ),
        "scoring/end.html",
    )
