"""A match's page, its score-pad link, its next game (or one played on paper, recorded by
its totals), and the director's acts on it (forfeit, confirm a held reset, keep the result),
each after a confirmation."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import conditional_page, require_GET

from scoring.engine import EngineError
from scoring.models import Game
from scoring.views.common import _put_errors, forbidden, post_else_back
from tarabish_site.api.errors import ApplicationError, Conflict, NotAllowed, PreconditionFailed
from tournaments import selectors, services
from tournaments.forms import QuickResultForm, ResultReportForm, TotalsCorrectionForm
from tournaments.models import Match, ResultReport
from tournaments.views.common import _match_or_404


def _refused_at_match(request: HttpRequest, pk: int, message: str) -> HttpResponse:
    """The 403 page of an act on match ``pk`` its user may not do, leading back to the match."""
    return forbidden(
        request, message, reverse("tournaments:match-detail", args=[pk]), _("Back to the match")
    )


def _rename_fields(exc: ApplicationError, field_of: Mapping[str, str]) -> None:
    """Name a service's refused fields as the page's form names them."""
    exc.fields = {field_of.get(k, k): v for k, v in (exc.fields or {}).items()}


@require_GET
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _match_page(request, _match_or_404(request, pk))


@conditional_page  # ETag on what it sends; 304 to a poll that has it already
@require_GET
@cache_control(no_cache=True, private=True)  # asked again each time, with its ETag
def match_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The part of the match's page that moves (its score and games), which the page fetches
    again when told the match or one of its running games changed."""
    match = _match_or_404(request, pk)
    context = {"match": match, "links": selectors.match_game_rows(match)}
    return render(request, "tournaments/_match_live.html", context)


def _match_page(
    request: HttpRequest,
    match: Match,
    *,
    error: str = "",
    status: int = 200,
    quick_form: QuickResultForm | None = None,
    totals_form: TotalsCorrectionForm | None = None,
    report_form: ResultReportForm | None = None,
    dispute_error: str = "",
) -> HttpResponse:
    """The match's page; ``error`` says why a director's action on it was refused, and
    ``quick_form`` (``totals_form``) is a quick result (a correction of one) refused, with its
    errors by its fields."""
    links = selectors.match_game_rows(match)
    tournament = match.stage.tournament
    can_direct = selectors.tournament_directed_by(tournament, request.user)
    keeps = not can_direct and selectors.match_kept_by(match, request.user)
    can_start = can_direct or keeps
    playing = any(row.link.game.status == Game.Status.IN_PROGRESS for row in links)
    can_quick = (
        (can_direct or (keeps and tournament.quick_results_by_scorekeepers))
        and not playing
        and match.state in (Match.State.READY, Match.State.IN_PROGRESS)
        and tournament.status != tournament.Status.FINISHED
    )
    if can_direct and tournament.status != tournament.Status.FINISHED:
        totals_form = totals_form or _totals_form(match)
    if totals_form is not None and not totals_form.fields["game"].choices:  # type: ignore[attr-defined]
        totals_form = None  # no game of it was recorded by its totals
    reports = selectors.match_result_reports(match.pk)
    open_report = next((r for r in reports if r.is_open), None)
    side = (
        services.match_side_of(match, request.user)
        if tournament.results_confirmed_by_both
        else None
    )
    can_report = (
        side is not None
        and open_report is None
        and all(row.link.discarded for row in links)  # no game counted yet
        and match.state in (Match.State.READY, Match.State.IN_PROGRESS)
        and tournament.status != tournament.Status.FINISHED
    )
    if can_report and report_form is None:
        report_form = _report_form(match)
    if can_quick and quick_form is None:
        quick_form = _quick_form(match)
    elif not can_quick and quick_form is not None and quick_form.errors:
        # the form is no longer offered (the match moved on): its refusal goes on top
        error = error or " ".join(str(e) for errors in quick_form.errors.values() for e in errors)
    return render(
        request,
        "tournaments/match.html",
        {
            "match": match,
            "tournament": tournament,
            "links": links,
            "can_direct": can_direct,
            "can_start": can_start,
            "actions": selectors.match_director_actions(match) if can_direct else None,
            "action_error": error,
            "playing": playing,
            "quick_form": quick_form if can_quick else None,
            "totals_form": totals_form if can_direct else None,
            "caller_rule": can_quick and tournament.ruleset.get("both_over") == "caller",
            "report_form": report_form if can_report else None,
            "reports": reports,
            "open_report": open_report,
            "report_acts": _report_acts(open_report, side, can_direct=can_direct),
            "dispute_error": dispute_error,
        },
        status=status,
    )


def _quick_form(match: Match, data: Any = None) -> QuickResultForm:
    return QuickResultForm(data, home=match.home_name, away=match.away_name, prefix="quick")


def _totals_form(match: Match, data: Any = None) -> TotalsCorrectionForm:
    """The correction of the match's games recorded by their totals (and still counted)."""
    games = tuple(
        link.number
        for link in match.match_games.all()
        if link.game.totals_only and not link.discarded
    )
    form = TotalsCorrectionForm(
        data, home=match.home_name, away=match.away_name, games=games, prefix="totals"
    )
    form.fields["version"].initial = match.version
    if len(games) == 1:
        form.fields["game"].initial = games[0]
    return form


#: Where a refusal naming a field of the service lands on the quick result's form.
_QUICK_FIELD_OF = {"seats": "winner", "game": "winner", "match": "winner"}


@post_else_back("tournaments:match-detail")
@login_required
def match_quick_result(request: HttpRequest, pk: int) -> HttpResponse:
    """A director (or the table's scorekeeper, if the tournament allows) records the match's
    next game, played on paper, by its final totals: the match takes its result at once."""
    match = _match_or_404(request, pk)
    form = _quick_form(match, request.POST)
    status = 400
    if form.is_valid():
        data = form.cleaned_data
        side = data["winner"]
        winner = {"home": match.home_id, "away": match.away_id}.get(side) if side else None
        try:
            link = services.match_game_record_totals(
                match_id=match.pk,
                actor=request.user,
                home_points=data["home_points"],
                away_points=data["away_points"],
                winner_id=winner,
            )
        except NotAllowed as exc:
            return _refused_at_match(request, pk, exc.message)
        except (EngineError, ApplicationError) as exc:
            if isinstance(exc, ApplicationError):
                _rename_fields(exc, _QUICK_FIELD_OF)
            _put_errors(form, exc)
            status = getattr(exc, "status", 400)
        else:
            game = link.game
            messages.success(
                request,
                _("Game %(number)s recorded by its totals: %(home)s %(a)s, %(away)s %(b)s.")
                % {
                    "number": link.number,
                    "home": match.home_name,
                    "away": match.away_name,
                    "a": game.score_a,
                    "b": game.score_b,
                },
            )
            return redirect("tournaments:match-detail", pk=pk)
    fresh = _match_or_404(request, pk)
    return _match_page(request, fresh, quick_form=form, status=status)


def _report_acts(report: ResultReport | None, side: str | None, *, can_direct: bool) -> set[str]:
    """What the viewer may do with the match's open report: confirm, dispute, withdraw."""
    if report is None:
        return set()
    acts = set()
    pending = report.status == ResultReport.Status.PENDING
    if can_direct:
        acts.add("confirm")
    if pending and side is not None and side != report.side:
        acts |= {"confirm", "dispute"}
    if pending and side == report.side:
        acts.add("withdraw")
    return acts


def _report_form(match: Match, data: Any = None) -> ResultReportForm:
    return ResultReportForm(
        data,
        games=match.games_planned,
        home=match.home_name,
        away=match.away_name,
        prefix="report",
    )


@post_else_back("tournaments:match-detail")
@login_required
def match_report(request: HttpRequest, pk: int) -> HttpResponse:
    """A player of one of the match's teams reports its result; it waits for the other team
    (or a director) to confirm it."""
    match = _match_or_404(request, pk)
    form = _report_form(match, request.POST)
    status = 400
    if form.is_valid():
        games = [
            services.ReportedGame(home_points=home, away_points=away)
            for home, away in form.cleaned_data["games"]
        ]
        try:
            services.result_report_create(match_id=match.pk, actor=request.user, games=games)
        except NotAllowed as exc:
            return _refused_at_match(request, pk, exc.message)
        except ApplicationError as exc:
            # a refusal of one game's totals lands on the first game's fields
            exc.fields = {
                {"home_points": "game1_home", "away_points": "game1_away"}.get(k, "game1_home"): v
                for k, v in (exc.fields or {}).items()
            }
            if not exc.fields:
                exc.fields = {"game1_home": [exc.message]}
            _put_errors(form, exc)
            status = getattr(exc, "status", 400)
        else:
            messages.success(
                request, _("Result reported: it counts once the other team confirms it.")
            )
            return redirect("tournaments:match-detail", pk=pk)
    fresh = _match_or_404(request, pk)
    return _match_page(request, fresh, report_form=form, status=status)


@post_else_back("tournaments:match-detail")
@login_required
def report_act(request: HttpRequest, pk: int, report_id: int, act: str) -> HttpResponse:
    """Confirm, dispute (with a reason) or withdraw a reported result, from its match's page."""
    match = _match_or_404(request, pk)
    if not ResultReport.objects.filter(pk=report_id, match=match).exists():
        raise Http404
    done = {
        "confirm": _("Result confirmed: it counts now."),
        "dispute": _("Result disputed: a director decides."),
        "withdraw": _("Reported result withdrawn."),
    }
    try:
        if act == "confirm":
            services.result_report_confirm(report_id=report_id, actor=request.user)
        elif act == "dispute":
            services.result_report_dispute(
                report_id=report_id, actor=request.user, reason=request.POST.get("reason", "")
            )
        elif act == "withdraw":
            services.result_report_withdraw(report_id=report_id, actor=request.user)
        else:
            raise Http404
    except NotAllowed as exc:
        return _refused_at_match(request, match.pk, exc.message)
    except ApplicationError as exc:
        reason = (exc.fields or {}).get("reason")
        fresh = _match_or_404(request, match.pk)
        return _match_page(
            request,
            fresh,
            error="" if reason else exc.message,
            dispute_error=" ".join(reason) if reason else "",
            status=getattr(exc, "status", 400),
        )
    messages.success(request, done[act])
    return redirect("tournaments:match-detail", pk=match.pk)


#: Where a refusal naming a field of the service lands on the correction's form.
_TOTALS_FIELD_OF = {"match": "game", "winner": "winner", "totals": "home_points"}


@post_else_back("tournaments:match-detail")
@login_required
def match_totals_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """A director corrects a game of the match recorded by its final totals: the match
    follows, or holds the change (naming the later matches it would re-open) until a
    director confirms it."""
    match = _match_or_404(request, pk)
    form = _totals_form(match, request.POST)
    status = 400
    if form.is_valid():
        data = form.cleaned_data
        side = data["winner"]
        winner = {"home": match.home_id, "away": match.away_id}.get(side) if side else None
        try:
            corrected = services.match_game_correct_totals(
                match_id=match.pk,
                number=data["game"],
                actor=request.user,
                home_points=data["home_points"],
                away_points=data["away_points"],
                reason=data["reason"],
                winner_id=winner,
                expected_version=data["version"],
            )
        except NotAllowed as exc:
            return _refused_at_match(request, pk, exc.message)
        except (EngineError, ApplicationError) as exc:
            if isinstance(exc, ApplicationError):
                _rename_fields(exc, _TOTALS_FIELD_OF)
            _put_errors(form, exc)
            status = getattr(exc, "status", 400)
        else:
            names = {
                "number": data["game"],
                "home": match.home_name,
                "away": match.away_name,
                "a": data["home_points"],
                "b": data["away_points"],
            }
            if corrected.held_reason:
                done = _(
                    "Game %(number)s corrected: %(home)s %(a)s, %(away)s %(b)s. The match "
                    "keeps its result until a director confirms the change."
                )
            else:
                done = _("Game %(number)s corrected: %(home)s %(a)s, %(away)s %(b)s.")
            messages.success(request, done % names)
            return redirect("tournaments:match-detail", pk=pk)
    fresh = _match_or_404(request, pk)
    return _match_page(request, fresh, totals_form=form, status=status)


@dataclass(frozen=True)
class MatchAct:
    """A director's act on a match as its confirmation asks about it: what it does, the
    button that does it, the form's fields sent again with the confirmation, and what the
    match page says once it is done."""

    title: str
    consequence: str
    button: str
    fields: dict[str, str]
    done: str
    warning: str = ""


class ActRefused(Exception):
    """The act's form says something the page cannot act on (a field missing or wrong)."""


def _team(entry: Any) -> str:
    return entry.display_name if entry is not None else _("to be decided")


def _forfeit_act(match: Match, data: Mapping[str, str]) -> MatchAct:
    side = data.get("loser", "")
    if side not in ("home", "away"):
        raise ActRefused(_("Which team forfeits: choose one of the two teams."))
    loser, winner = (match.home, match.away) if side == "home" else (match.away, match.home)
    names = {"winner": _team(winner), "loser": _team(loser)}
    reset = data.get("confirm_reset") == "yes"
    fields = {"loser": side, **({"confirm_reset": "yes"} if reset else {})}
    return MatchAct(
        title=_("Forfeit: %(loser)s") % names,
        consequence=_(
            "%(loser)s forfeits: %(winner)s wins the match. Games of this match no longer "
            "decide it."
        )
        % names,
        button=_("Forfeit and re-open those matches") if reset else _("Confirm the forfeit"),
        fields=fields,
        done=_("%(winner)s won the match by forfeit.") % names,
    )


def _reset_act(match: Match, data: Mapping[str, str]) -> MatchAct:
    blocking = services.match_reset_blocked_by(match)
    if blocking is not None:
        # said before anything is done: which game must end, and an offer to end it here
        game = blocking.game
        names = {
            "game": blocking.number,
            "match": blocking.match.key,
            "a": game.team_a.name,
            "b": game.team_b.name,
            "score_a": game.score_a,
            "score_b": game.score_b,
        }
        return MatchAct(
            title=_("Confirm the changed result"),
            consequence=_(
                "Game %(game)s of %(match)s (%(a)s %(score_a)s, %(b)s %(score_b)s) is still "
                "being played, and this change re-opens %(match)s: the game must end first. "
                "Confirming here ends it early and confirms the change in one step: the match "
                "takes the result its games now give, later matches that depended on it "
                "re-open, and the games already played in them no longer count."
            )
            % names,
            button=_("End game %(game)s of %(match)s and confirm the change") % names,
            fields={"end_game": str(game.pk)},
            done=_("Game %(game)s of %(match)s ended; the changed result stands.") % names,
            warning=match.held_reason,
        )
    return MatchAct(
        title=_("Confirm the changed result"),
        consequence=_(
            "The match takes the result its games now give. Later matches that depended on "
            "it re-open, and the games already played in them no longer count."
        ),
        button=_("Confirm the change"),
        fields={},
        done=_("The changed result stands; later matches re-opened."),
        warning=match.held_reason,
    )


def _keep_act(match: Match, data: Mapping[str, str]) -> MatchAct:
    return MatchAct(
        title=_("Keep the result as it stands"),
        consequence=_(
            "The match keeps the result it shows (%(home)s %(home_games)s, %(away)s "
            "%(away_games)s) and the note that it waits for a director goes. Later matches "
            "are left as they are."
        )
        % {
            "home": _team(match.home),
            "away": _team(match.away),
            "home_games": match.home_games,
            "away_games": match.away_games,
        },
        button=_("Keep the result"),
        fields={},
        done=_("The result stands as it was."),
        warning=match.held_reason,
    )


def _director_act(
    request: HttpRequest,
    pk: int,
    describe: Callable[[Match, Mapping[str, str]], MatchAct],
    perform: Callable[[Match, Mapping[str, str], int], object],
) -> HttpResponse:
    """A director's act on a match, through its service: first a page asking to confirm,
    then, confirmed, the act; a refusal is shown on the match's page, named."""
    match = _match_or_404(request, pk)
    back = reverse("tournaments:match-detail", args=[pk])
    if not selectors.tournament_directed_by(match.stage.tournament, request.user):
        return _refused_at_match(request, pk, _("Only this tournament's directors can do this."))
    version = request.POST.get("version", "")
    try:
        if not version.isdigit():
            raise ActRefused(_("The form did not say which version of the match it was for."))
        act = describe(match, request.POST)
    except ActRefused as exc:
        return _match_page(request, match, error=str(exc), status=400)
    if request.POST.get("confirmed") != "yes":
        return _confirm_page(request, match, act, version, request.path)
    try:
        perform(match, request.POST, int(version))
    except PreconditionFailed:
        changed = _("This match changed while you were deciding: here it is as it is now.")
        return _match_page(request, _match_or_404(request, pk), error=changed, status=412)
    except Conflict as exc:
        if exc.code == "dependents_played" and "confirm_reset" not in act.fields:
            again = describe(match, {**request.POST.dict(), "confirm_reset": "yes"})
            act = replace(again, warning=exc.message)
            return _confirm_page(request, match, act, version, request.path, status=409)
        return _match_page(request, _match_or_404(request, pk), error=exc.message, status=409)
    except (EngineError, ApplicationError) as exc:
        message = exc.message if isinstance(exc, ApplicationError) else str(exc)
        status = getattr(exc, "status", 400)
        return _match_page(request, _match_or_404(request, pk), error=message, status=status)
    messages.success(request, act.done)
    return redirect(back)


def _confirm_page(
    request: HttpRequest,
    match: Match,
    act: MatchAct,
    version: str,
    action: str,
    *,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "tournaments/match_confirm.html",
        {
            "match": match,
            "tournament": match.stage.tournament,
            "act": act,
            "version": version,
            "action": action,
        },
        status=status,
    )


@post_else_back("tournaments:match-detail")
@login_required
def match_forfeit(request: HttpRequest, pk: int) -> HttpResponse:
    """A director awards the match to the other team: the team chosen forfeits."""

    def perform(match: Match, data: Mapping[str, str], version: int) -> object:
        loser = match.home_id if data["loser"] == "home" else match.away_id
        return services.match_forfeit(
            match_id=match.pk,
            actor=request.user,
            loser_id=loser or 0,
            expected_version=version,
            confirm_reset=data.get("confirm_reset") == "yes",
        )

    return _director_act(request, pk, _forfeit_act, perform)


@post_else_back("tournaments:match-detail")
@login_required
def match_reset_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """A director confirms the result change a match holds: later matches re-open."""

    def perform(match: Match, data: Mapping[str, str], version: int) -> object:
        end_game = data.get("end_game", "")
        return services.match_reset_confirm(
            match_id=match.pk,
            actor=request.user,
            expected_version=version,
            end_game_id=int(end_game) if end_game.isdigit() else None,
        )

    return _director_act(request, pk, _reset_act, perform)


@post_else_back("tournaments:match-detail")
@login_required
def match_hold_clear(request: HttpRequest, pk: int) -> HttpResponse:
    """A director keeps the result a match shows and dismisses the change it holds."""

    def perform(match: Match, data: Mapping[str, str], version: int) -> object:
        return services.match_hold_clear(match_id=match.pk, actor=request.user)

    return _director_act(request, pk, _keep_act, perform)


@require_GET
def match_pad(request: HttpRequest, pk: int) -> HttpResponse:
    """What a table's QR code opens: the score-pad of the match's game being played."""
    match = _match_or_404(request, pk)
    links = [link for link in match.match_games.all() if not link.discarded]
    for link in reversed(links):
        if link.game.status == Game.Status.IN_PROGRESS:
            # the pad sends its "what next" to the match (its next game counts for the match)
            pad = reverse("scoring:game-pad", args=[link.game_id])
            return redirect(
                f"{pad}?{urlencode({'then': reverse('tournaments:match-detail', args=[pk])})}"
            )
    return redirect("tournaments:match-detail", pk=pk)


@post_else_back("tournaments:match-detail")
@login_required
def match_game_start(request: HttpRequest, pk: int) -> HttpResponse:
    """A director, or the scorekeeper of the match's table, starts the match's next game; its
    score-pad opens, or, played online (``online``), its table."""
    match = _match_or_404(request, pk)
    online = request.POST.get("online") == "1"
    start = services.match_game_start_online if online else services.match_game_start
    try:
        link = start(match_id=match.pk, actor=request.user)
    except (EngineError, ApplicationError) as exc:
        message = exc.message if isinstance(exc, ApplicationError) else str(exc)
        return render(
            request,
            "scoring/message.html",
            {
                "title": _("The game could not start"),
                "message": message,
                "back": reverse("tournaments:match-detail", args=[pk]),
            },
            status=getattr(exc, "status", 400),
        )
    if online:
        table = link.game.online_tables.get()
        return redirect("play:table", pk=table.pk)
    pad = reverse("scoring:game-pad", args=[link.game_id])
    return redirect(f"{pad}?{urlencode({'then': reverse('tournaments:match-detail', args=[pk])})}")
