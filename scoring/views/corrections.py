"""Changing what was played: a director reopens a game, a hand is corrected (after a preview,
and a confirmation when the game's end changes), a misplay is disputed and ruled on."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import selectors, services
from scoring.engine import EngineError
from scoring.forms import CorrectHandForm, DisputeForm, DisputeRulingForm, GameActForm, HandForm
from scoring.models import Game, Hand
from scoring.views.common import (
    OUTCOME_LABELS,
    _game_or_404,
    _put_errors,
    _refuse_unless_keeper,
    _result_text,
    _user,
    forbidden,
    game_context,
    seat_names,
)
from scoring.views.pad import _hand_form
from tarabish_site.api.errors import ApplicationError, NotFound


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
