"""Pages of the scoring app: the score-pad, the game pages, the printable sheet, and the shell
that lets the score-pad work offline (web app manifest, service worker).

Views read through :mod:`scoring.selectors` and write through :mod:`scoring.services`; what is
left here is shaping for the templates (names of seats, labels, chart points). Hands are
entered by the score-pad's script through the REST API (so they can wait in the phone's outbox
with their idempotency key); the same form also posts here when scripts do not run.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import segno
from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    JsonResponse,
)
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import escape
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from scoring import selectors, services
from scoring.charts import ChartHand, running_score_svg
from scoring.engine import PRESET_NAMES, EngineError, Suit, dealer_of_hand
from scoring.forms import (
    CasualGameForm,
    CorrectHandForm,
    DisputeForm,
    DisputeRulingForm,
    FirstDealerForm,
    GameActForm,
    HandForm,
    ReasonForm,
    UndoForm,
    form_field_of,
)
from scoring.models import Game, Hand, MisplayDispute
from tarabish_site.api.errors import ApplicationError, Conflict, NotFound

OUTCOME_LABELS = {
    "made": gettext_lazy("Made"),
    "half_bait": gettext_lazy("Half-bait"),
    "bait": gettext_lazy("Bait"),
    "void": gettext_lazy("All passed"),
    "misplay_proven": gettext_lazy("Misplay proven"),
    "misplay_not_proven": gettext_lazy("Misplay not proven"),
    "thrown_in": gettext_lazy("Thrown in"),
}
SUITS = {suit.value: suit for suit in Suit}
#: How many dealers ahead the score-pad knows, for hands entered with no signal.
DEALERS_AHEAD = 40


# --------------------------------------------------------------------------- the offline shell

STATIC_DIR = Path(settings.BASE_DIR) / "static"


@cache
def shell_version() -> str:
    """A fingerprint of the shell's files: a new one makes phones fetch the shell again."""
    digest = hashlib.sha256()
    for path in sorted(STATIC_DIR.rglob("*")):
        if path.is_file() and path.suffix in {".css", ".js", ".svg"}:
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    template = Path(settings.BASE_DIR) / "templates" / "pages" / "sw.js"
    digest.update(template.read_bytes())
    return digest.hexdigest()[:12]


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the score-pad installs like an app and opens full screen."""
    data = {
        "name": _("Tarabish score-pad"),
        "short_name": _("Tarabish"),
        "description": _("Score Tarabish hands at the table, with or without signal."),
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#fffdf7",
        "theme_color": "#0b5d3b",
        "icons": [
            {"src": static("img/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {
                "src": static("img/icon.svg"),
                "sizes": "any",
                "type": "image/svg+xml",
                "purpose": "maskable",
            },
        ],
    }
    return JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )


@require_GET
@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    response = render(
        request,
        "pages/sw.js",
        {"version": shell_version(), "static_prefix": settings.STATIC_URL},
        content_type="text/javascript",
    )
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/offline.html")


# --------------------------------------------------------------------------- shaping for pages


def seat_names(game: Game) -> dict[int, str]:
    return {seat: player.display_name for seat, player in enumerate(game.seats)}


def suit_symbol(letter: str | None) -> str:
    suit = SUITS.get(letter or "")
    return suit.symbol if suit else ""


@dataclass
class SheetRow:
    """One line of the score-sheet as the page shows it."""

    hand: Hand
    number: int
    dealer: str
    caller: str
    calling_team: int | None
    trump: str
    trump_letter: str
    trump_name: str
    outcome: str
    outcome_label: str
    points: tuple[int, int]
    running: tuple[int, int]
    notes: list[str] = field(default_factory=list)
    corrected: bool = False
    #: Each dispute with the engine's reason naming the players (as the sheet shows it).
    dispute_lines: list[tuple[MisplayDispute, str]] = field(default_factory=list)


def sheet_rows(game: Game, hands: Sequence[Hand]) -> list[SheetRow]:
    """The score-sheet lines of ``hands`` (with their disputes prefetched)."""
    names = seat_names(game)
    teams = (game.team_a.name, game.team_b.name)
    rows = []
    for hand in hands:
        notes = []
        for team, points in enumerate((hand.run_points_a, hand.run_points_b)):
            if points:
                who = (
                    names[hand.runs_counted_by] if hand.runs_counted_by is not None else teams[team]
                )
                notes.append(_("runs %(points)s (%(who)s)") % {"points": points, "who": who})
        if hand.bella_seat is not None:
            notes.append(_("bella (%(who)s)") % {"who": names[hand.bella_seat]})
        misplay_by = hand.result.get("misplay_by") if isinstance(hand.result, dict) else None
        if misplay_by is not None:
            notes.append(_("misplay called by %(who)s") % {"who": names[misplay_by]})
        thrown = hand.entry.get("thrown_in_by") if isinstance(hand.entry, dict) else None
        if thrown is not None:
            notes.append(_("thrown in by %(who)s") % {"who": names[thrown]})
        rows.append(
            SheetRow(
                hand=hand,
                number=hand.number,
                dealer=names[hand.dealer],
                caller=names[hand.caller] if hand.caller is not None else "",
                calling_team=None if hand.caller is None else hand.caller % 2,
                trump=suit_symbol(hand.trump) or ("" if hand.caller is None else _("no trump")),
                trump_letter=hand.trump,
                trump_name=hand.get_trump_display(),
                outcome=hand.outcome,
                outcome_label=str(OUTCOME_LABELS.get(hand.outcome, hand.outcome)),
                points=(hand.points_a, hand.points_b),
                running=(hand.running_a, hand.running_b),
                notes=notes,
                corrected=hand.version > 1,
                dispute_lines=[
                    (dispute, dispute.reason_naming(list(names.values())))
                    for dispute in hand.disputes.all()
                ],
            )
        )
    return rows


def chart_svg(game: Game, rows: Sequence[SheetRow]) -> SafeString:
    hands = [ChartHand(r.number, r.running, r.outcome, r.calling_team) for r in rows]
    svg = running_score_svg(
        hands,
        target=int(game.engine_ruleset.target),
        team_names=(game.team_a.name, game.team_b.name),
        translate=_,
    )
    return mark_safe(svg)  # noqa: S308 - built by scoring.charts, which escapes every text


def qr_svg(url: str, label: str) -> SafeString:
    """A QR code for ``url`` as inline SVG, an image named ``label`` for screen readers."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=4, border=2, dark="#1b1b1b", light="#ffffff")
    named = svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1)
    return mark_safe(named)  # noqa: S308 - segno's own markup of a URL we built, label escaped


def _status_text(game: Game) -> str:
    if game.status == Game.Status.FINISHED and game.winning_team is not None:
        return _("%(team)s won") % {"team": game.winning_team.name}
    if game.status == Game.Status.ABANDONED:
        return _("Ended early")
    tie = _tie_text(game)
    return tie or _("In progress")


def _tie_text(game: Game) -> str:
    """What the sheet says of a running game tied over the target (both teams reached it in the
    same hand with the same total): the game goes on, and says why; "" otherwise."""
    target = game.engine_ruleset.target
    if game.status != Game.Status.IN_PROGRESS or not game.score_a == game.score_b >= target:
        return ""
    return _(
        "Tied at %(score)s, over %(target)s: the game is not over, another hand is played."
    ) % {"score": game.score_a, "target": target}


def _result_text(game: Game) -> str:
    """The final result of a game that is over, as its sheet states it."""
    a, b = game.team_a.name, game.team_b.name
    if game.status == Game.Status.FINISHED and game.winning_team is not None:
        return _("%(team)s won, %(a)s %(sa)s, %(b)s %(sb)s.") % {
            "team": game.winning_team.name,
            "a": a,
            "sa": game.score_a,
            "b": b,
            "sb": game.score_b,
        }
    return _("Ended early with no winner, %(a)s %(sa)s, %(b)s %(sb)s.") % {
        "a": a,
        "sa": game.score_a,
        "b": b,
        "sb": game.score_b,
    }


def game_context(game: Game, hands: Sequence[Hand]) -> dict[str, Any]:
    """What every page showing a game's sheet needs."""
    names = seat_names(game)
    rows = sheet_rows(game, hands)
    rules = game.engine_ruleset
    forced = game.forced_seat
    return {
        "game": game,
        "rows": rows,
        "seat_names": names,
        "seats": [
            {
                "seat": s,
                "name": names[s],
                "team": s % 2,
                "team_name": game.team_of_side("team_a" if s % 2 == 0 else "team_b").name,
            }
            for s in range(4)
        ],
        "teams": (game.team_a, game.team_b),
        "next_dealer_name": names.get(game.next_dealer) if game.next_dealer is not None else "",
        "forced_name": names.get(forced) if forced is not None else "",
        "status_text": _status_text(game),
        "tie_text": _tie_text(game),
        "ruleset_lines": rules.describe(),
        "target": rules.target,
        "chart": chart_svg(game, rows) if rows else "",
        "pending_disputes": any(
            d.status == "pending" for r in rows for d, _reason in r.dispute_lines
        ),
    }


def _game_or_404(request: HttpRequest, pk: int) -> tuple[Game, list[Hand]]:
    """The game with its seats, teams and counting hands (with their disputes); a private game
    is not found by anyone but its scorekeepers and directors."""
    try:
        game = selectors.game_detail(pk)
    except NotFound:
        game = None
    if game is None or not services.user_can_see(request.user, game):
        raise Http404(_("There is no game %(pk)s.") % {"pk": pk})
    return game, list(game.hands.all())


def _put_errors(form: Any, error: Exception) -> None:
    """Put a service or engine refusal next to the field it names."""
    if isinstance(error, EngineError):
        form.add_error(form_field_of(error.field, form.fields), str(error))
        return
    if isinstance(error, ApplicationError):
        placed = False
        for key, reasons in error.fields.items():
            target = form_field_of(key, form.fields)
            for reason in reasons:
                form.add_error(target, reason)
                placed = True
        if not placed:
            form.add_error(None, error.message)


def _user(request: HttpRequest) -> Any:
    """The signed-in user, or None."""
    return request.user if request.user.is_authenticated else None


def forbidden(
    request: HttpRequest, message: str, back_url: str, back_label: str = ""
) -> HttpResponse:
    """A page of the site (status 403) saying why this account may not do this, with a link
    back to the page it came from (the game, the tournament)."""
    context = {"message": message, "back": back_url, "back_label": back_label or _("Back")}
    return render(request, "403.html", context, status=403)


def abilities(request: HttpRequest, game: Game, *, can_write: bool) -> dict[str, Any]:
    """What the pages offer this account on ``game`` beside entering hands, so no link leads to
    a refusal: correcting and disputing its hands (``can_change_hands``) and reopening it
    (``can_reopen``). A running game asks nothing more than ``can_write``."""
    if game.status == Game.Status.IN_PROGRESS:
        return {"can_change_hands": can_write, "can_reopen": False}
    if not can_write or not services.user_can_direct(request.user, game):
        return {"can_change_hands": False, "can_reopen": False}
    final = services.result_final_why(game)
    return {
        "can_change_hands": game.status == Game.Status.FINISHED and not final,
        "can_reopen": not final,
    }


def _refuse_unless_keeper(request: HttpRequest, game: Game) -> HttpResponse | None:
    if not services.user_can_keep_score(request.user, game):
        return forbidden(
            request,
            _("Only this game's scorekeepers and directors can do this."),
            reverse("scoring:game-pad", args=[game.pk]),
            _("Back to the game"),
        )
    return None


# --------------------------------------------------------------------------- score-pad


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
        "urls": {
            "hands": reverse("api:game-hand-list", kwargs={"game_pk": game.pk}),
            "preview": reverse("scoring:game-preview", args=[game.pk]),
            "sheet": reverse("scoring:game-pad-sheet", args=[game.pk]),
        },
        "words": {
            "notSent": _("Not yet sent"),
            "refused": _("Refused by the server"),
            "discard": _("Discard"),
            "hand": _("Hand"),
            "previewOffline": _(
                "No signal: the hand is checked when it is sent. It is kept on this phone."
            ),
            "previewWaiting": _(
                "Hands on this phone are not yet sent: this one is checked when it is sent."
            ),
            "edit": _("Put back in the form"),
            "waiting": _("%(count)s hand(s) not yet sent"),
            "wins": _("%(team)s wins the game"),
        },
    }


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
            {"seat": s, "name": seat_names(game)[s], "card": card}
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

    ``?version=N``: 204 when the game is still at version N (nothing to redraw).
    """
    game, hands = _game_or_404(request, pk)
    seen = request.GET.get("version", "")
    if seen.isdigit() and int(seen) == game.version:
        return HttpResponse(status=204)
    context = game_context(game, hands)
    context["can_write"] = services.user_can_keep_score(request.user, game)
    context.update(abilities(request, game, can_write=context["can_write"]))
    response = render(request, "scoring/_live.html", context)
    response["X-Game-Version"] = str(game.version)
    return response


def _preview_payload(game: Game, hand: Hand, before: tuple[int, int]) -> dict[str, Any]:
    return {
        "ok": True,
        "outcome": hand.outcome,
        "outcome_label": str(OUTCOME_LABELS.get(hand.outcome, hand.outcome)),
        "card_points": [hand.card_points_a, hand.card_points_b],
        "points": [hand.points_a, hand.points_b],
        "before": list(before),
        "totals": [game.score_a, game.score_b],
        "over": game.status == Game.Status.FINISHED,
        "winner": game.winning_team.name if game.winning_team else None,
        "dealer": hand.dealer,
    }


class _DryRun(Exception):
    """Raised to roll back a preview after reading what the service would store."""

    def __init__(self, payload: dict[str, Any]) -> None:
        super().__init__("preview")
        self.payload = payload


@require_POST
def game_preview(request: HttpRequest, pk: int) -> JsonResponse:
    """What saving this hand would give: the engine's outcome and the new score.

    The entry goes through the very service that stores hands, inside a transaction that is
    always rolled back, so the preview can never disagree with the real thing.
    """
    game, _hands = _game_or_404(request, pk)
    refused = _refuse_unless_keeper(request, game)
    if refused is not None:
        return JsonResponse({"message": _("Not allowed."), "code": "permission_denied"}, status=403)
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        return JsonResponse(
            {"message": _("The entry is not JSON."), "code": "bad_json"}, status=400
        )
    entry = body.get("entry") if isinstance(body, dict) else None
    if not isinstance(entry, dict):
        return JsonResponse(
            {"message": _("Give the hand as an entry."), "code": "bad_json"}, status=400
        )
    before = (game.score_a, game.score_b)
    try:
        with transaction.atomic():
            hand = services.hand_record(
                game=game,
                entry_kind="summary",
                entry=entry,
                by=_user(request),
            )
            raise _DryRun(_preview_payload(game, hand, before))
    except _DryRun as done:
        return JsonResponse(done.payload)
    except EngineError as exc:
        fields = {exc.field or "entry": [str(exc)]}
        return JsonResponse(
            {"ok": False, "message": str(exc), "code": exc.code, "fields": fields}, status=400
        )
    except ApplicationError as exc:
        return JsonResponse(
            {"ok": False, "message": exc.message, "code": exc.code, "fields": exc.fields},
            status=exc.status,
        )


@require_POST
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


@require_POST
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


@login_required
def game_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    """A director puts a game that is over back in play, to undo or correct the hand that ended
    it: say what that does, and reopen it on confirmation."""
    game, hands = _game_or_404(request, pk)
    if not services.user_can_direct(request.user, game):
        return forbidden(
            request,
            _("Only a director can reopen a game."),
            reverse("scoring:game-pad", args=[game.pk]),
            _("Back to the game"),
        )
    form = GameActForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            services.game_reopen(
                game=game, by=_user(request), expected_version=form.cleaned_data["version"]
            )
        except (EngineError, ApplicationError) as exc:
            _put_errors(form, exc)
        else:
            return redirect("scoring:game-pad", pk=pk)
    context = game_context(game, hands)
    context.update(
        {
            "form": form,
            "result_text": _result_text(game) if game.is_over else "",
            "owner_page": services.game_owner_page(game),
        }
    )
    return render(request, "scoring/reopen.html", context, status=400 if form.errors else 200)


@require_POST
@login_required
def game_next(request: HttpRequest, pk: int) -> HttpResponse:
    """Start the next game between the same teams, in the same seats, at the same table."""
    game, _hands = _game_or_404(request, pk)
    refused = _refuse_unless_keeper(request, game)
    if refused is not None:
        return refused
    if not game.is_over:
        return _pad_with_error(request, pk, _("Finish or end this game before starting the next."))
    if services.game_owner_page(game):
        message = _("This game is played for a match: start its next game from the match.")
        return _pad_with_error(request, pk, message)
    try:
        new = services.game_create(
            team_a=game.team_a,
            team_b=game.team_b,
            seats=game.seats,
            ruleset=game.ruleset,
            ruleset_preset=game.ruleset_preset,
            table=game.table,
            created_by=_user(request),
            scorekeepers=list(game.scorekeepers.all()),
            public=game.public,
        )
    except (EngineError, ApplicationError) as exc:
        return _pad_with_error(request, pk, str(exc))
    return redirect("scoring:game-pad", pk=new.pk)


def _hand_of(hands: Sequence[Hand], number: int) -> Hand:
    for hand in hands:
        if hand.number == number:
            return hand
    raise Http404(_("There is no hand %(number)s in this game.") % {"number": number})


def _refuse_hand_change(request: HttpRequest, game: Game) -> HttpResponse | None:
    """The refusal, said once, of a page that would change a hand this account may not change
    (a finished game's hands are its directors' to change)."""
    refused = _refuse_unless_keeper(request, game)
    if refused is not None or not game.is_over:
        return refused
    why = services.hand_change_refused_why(request.user, game)
    if why:
        return forbidden(
            request,
            why[0].upper() + why[1:] + ".",
            reverse("scoring:game-pad", args=[game.pk]),
            _("Back to the game"),
        )
    return None


def _end_of(game: Game) -> str:
    """A game's end as a token: its status and winner (the confirmation of a correction that
    changes it names the end it was shown)."""
    return f"{game.status}:{game.winner}"


def _end_change_text(before: Game, after: Game) -> str:
    """What a correction changes in the game's end, in words, or "" when it changes nothing
    there (only the scores)."""
    if _end_of(before) == _end_of(after):
        return ""
    scores = {
        "a": after.team_a.name,
        "sa": after.score_a,
        "b": after.team_b.name,
        "sb": after.score_b,
        "target": after.engine_ruleset.target,
    }
    was = before.winning_team.name if before.winning_team is not None else ""
    if after.status == Game.Status.FINISHED and after.winning_team is not None:
        winner = after.winning_team.name
        if was:
            return _(
                "%(winner)s would win the game instead of %(was)s: %(a)s %(sa)s, %(b)s %(sb)s."
            ) % {"winner": winner, "was": was, **scores}
        return _("This hand would end the game: %(winner)s wins, %(a)s %(sa)s, %(b)s %(sb)s.") % {
            "winner": winner,
            **scores,
        }
    return _(
        "%(was)s would no longer have won: at %(a)s %(sa)s, %(b)s %(sb)s the game is not over "
        "(playing to %(target)s), so it goes back in play and hands are entered again."
    ) % {"was": was, **scores}


@login_required
def hand_correct(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Correct a hand. "See the new score first" shows what saving would give (a dry run of the very
    service that saves it); a correction that would change the game's end (a finished game back
    in play, another winner, a game ended) is saved only once that change was shown and
    confirmed."""
    game, hands = _game_or_404(request, pk)
    refused = _refuse_hand_change(request, game)
    if refused is not None:
        return refused
    hand = _hand_of(hands, number)
    preview: services.CorrectionPreview | None = None
    end_change = confirm_error = ""
    if request.method == "POST":
        form = _hand_form(game, request.POST, form_class=CorrectHandForm)
        if form.is_valid():
            entry, reason = form.to_entry(), form.cleaned_data["reason"]
            version = form.cleaned_data["version"]
            try:
                preview = services.hand_correct_preview(
                    hand=hand,
                    entry=entry,
                    reason=reason,
                    by=_user(request),
                    expected_version=version,
                    entry_kind="summary",
                )
                end_change = _end_change_text(game, preview.game)
                confirmed = request.POST.get("confirm_end") == _end_of(preview.game)
                saving = "preview" not in request.POST
                if saving and end_change and not confirmed:
                    confirm_error = _(
                        "This correction changes the end of the game: tick the box to confirm."
                    )
                elif saving:
                    services.hand_correct(
                        hand=hand,
                        entry=entry,
                        reason=reason,
                        by=_user(request),
                        expected_version=version,
                        entry_kind="summary",
                    )
                    return redirect("scoring:game-pad", pk=pk)
            except (EngineError, ApplicationError) as exc:
                preview, end_change = None, ""
                _put_errors(form, exc)
    else:
        counted = (hand.run_points_a, hand.run_points_b)
        initial = (
            HandForm.initial_from_entry(hand.entry, counted) if hand.entry_kind == "summary" else {}
        )
        initial["version"] = hand.version
        form = _hand_form(game, initial=initial, form_class=CorrectHandForm)
    context = game_context(game, hands)
    context.update(
        {
            "form": form,
            "hand": hand,
            "row": next(r for r in context["rows"] if r.number == number),
            "tricks_entry": hand.entry_kind != "summary",
            "preview": preview,
            "preview_outcome": (
                str(OUTCOME_LABELS.get(preview.hand.outcome, preview.hand.outcome))
                if preview
                else ""
            ),
            "end_change": end_change,
            "end_token": _end_of(preview.game) if preview else "",
            "confirm_error": confirm_error,
        }
    )
    status = 400 if form.errors or confirm_error else 200
    return render(request, "scoring/correct.html", context, status=status)


@login_required
def hand_dispute(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game, hands = _game_or_404(request, pk)
    refused = _refuse_hand_change(request, game)
    if refused is not None:
        return refused
    hand = _hand_of(hands, number)
    form = DisputeForm(
        request.POST if request.method == "POST" else None,
        seat_names=seat_names(game),
        needs_tricks=services.dispute_needs_evidence(hand),
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.dispute_open(
                hand=hand,
                called_by=data["called_by"],
                accused=data["accused"],
                trick=data["trick"],
                proof_card=data["proof_card"] or None,
                evidence=form.evidence(caller=hand.caller, trump=hand.trump or None),
                by=_user(request),
            )
        except (EngineError, ApplicationError) as exc:
            _put_errors(form, exc)
        else:
            return redirect(reverse("scoring:game-pad", args=[pk]) + f"#hand-{number}")
    context = game_context(game, hands)
    context.update({"form": form, "hand": hand})
    return render(request, "scoring/dispute.html", context, status=400 if form.errors else 200)


@require_POST
@login_required
def dispute_rule(request: HttpRequest, pk: int) -> HttpResponse:
    """A director upholds or overrules the engine's verdict."""
    try:
        dispute = selectors.dispute_detail(pk)
    except NotFound:
        raise Http404(_("There is no such dispute.")) from None
    if not services.user_can_see(request.user, dispute.hand.game):
        raise Http404(_("There is no such dispute."))
    if not services.user_can_direct(request.user, dispute.hand.game):
        return forbidden(
            request,
            _("Only a director of this game rules on its disputes."),
            reverse("scoring:game-pad", args=[dispute.hand.game_id]),
            _("Back to the game"),
        )
    form = DisputeRulingForm(request.POST)
    next_url = request.POST.get("next") or reverse("scoring:game-pad", args=[dispute.hand.game_id])
    if form.is_valid():
        try:
            services.dispute_rule(
                dispute=dispute,
                ruling=form.cleaned_data["ruling"],
                note=form.cleaned_data["note"],
                by=_user(request),
            )
        except (EngineError, ApplicationError) as exc:
            return render(
                request,
                "scoring/message.html",
                {"title": _("The ruling was refused"), "message": str(exc), "back": next_url},
                status=400,
            )
    if not next_url.startswith("/"):
        next_url = "/"
    return redirect(next_url)


# --------------------------------------------------------------------------- casual game


def _player(name: str) -> Any:
    """The player of this name (with no community), new if there is none."""
    try:
        return services.player_create(display_name=name)
    except Conflict as exc:
        if exc.code != "player_exists":
            raise
        found = services.player_named(name)  # matched as the name is stored (normalised)
        if found is None:
            raise
        return found


def _team(one: Any, two: Any) -> Any:
    return services.team_find(player_one=one, player_two=two) or services.team_create(
        player_one=one, player_two=two
    )


@login_required
def game_new(request: HttpRequest) -> HttpResponse:
    """A casual game between two teams: four names and the rules."""
    form = CasualGameForm(request.POST if request.method == "POST" else None, presets=PRESET_NAMES)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                a1, a2 = _player(data["a_one"]), _player(data["a_two"])
                b1, b2 = _player(data["b_one"]), _player(data["b_two"])
                game = services.game_create(
                    team_a=_team(a1, a2),
                    team_b=_team(b1, b2),
                    seats=(a1, b1, a2, b2),
                    ruleset_preset=data["ruleset_preset"],
                    table=data["table"],
                    created_by=_user(request),
                    public=data["public"],
                )
        except (EngineError, ApplicationError) as exc:
            _put_errors(form, exc)
        else:
            return redirect("scoring:game-pad", pk=game.pk)
    return render(request, "scoring/game_new.html", {"form": form})


# --------------------------------------------------------------------------- public pages


@require_GET
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game, hands = _game_or_404(request, pk)
    context = game_context(game, hands)
    context["can_write"] = services.user_can_keep_score(request.user, game)
    context.update(abilities(request, game, can_write=context["can_write"]))
    context["owner_page"] = services.game_owner_page(game)  # its match, for anyone following it
    return render(request, "scoring/game_detail.html", context)


@require_GET
def game_print(request: HttpRequest, pk: int) -> HttpResponse:
    """A printable score-sheet. A running game's is for the table: the hands so far, empty lines
    for the next and a QR code that opens its score-pad. A game that is over gets its record:
    the result, every hand with its points, runs and bella, and the rules it was played by."""
    game, hands = _game_or_404(request, pk)
    context = game_context(game, hands)
    if game.is_over:
        context.update({"result_text": _result_text(game), "blank_lines": range(0)})
    else:
        url = request.build_absolute_uri(reverse("scoring:game-pad", args=[pk]))
        context.update(
            {
                "qr": qr_svg(url, _("QR code that opens this game's score-pad")),
                "pad_url": url,
                "blank_lines": range(len(hands) + 1, max(len(hands) + 1, 17)),
            }
        )
    return render(request, "scoring/print.html", context)
