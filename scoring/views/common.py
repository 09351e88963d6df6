"""What every page of a game shares: the game found (or not, when private), its sheet shaped
for the templates (names of seats, labels, chart), refusals placed beside their field, and
what the pages offer this account."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

import segno
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import selectors, services
from scoring.charts import ChartHand, running_score_svg
from scoring.engine import EngineError, Suit
from scoring.forms import form_field_of
from scoring.models import Game, Hand, MisplayDispute
from scoring.wording import ruleset_lines
from tarabish_site.api.errors import ApplicationError, NotFound

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
        "ruleset_lines": ruleset_lines(rules),
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


View = Callable[..., HttpResponse]


def post_else_back(page: str) -> Callable[[View], View]:
    """A view that acts on POST, and answers GET (a reload of the page a refusal was shown
    on, a link followed) by sending the browser to ``page`` (a URL name taking the view's
    ``pk``), never 405: a refused act leaves no dead address behind."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, pk: int, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in ("GET", "HEAD"):
                return redirect(page, pk=pk)
            if request.method != "POST":
                return HttpResponseNotAllowed(["GET", "POST"])
            return view(request, pk, *args, **kwargs)

        return wrapped

    return decorate


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
    if game.totals_only or not can_write or not services.user_can_direct(request.user, game):
        # a game recorded by its totals has no hands to change or play on from
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
