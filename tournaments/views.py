"""Public and director pages of tournaments: the tournament, its stages (bracket drawn as SVG,
standings with their tie-breakers), matches, the hall's big screen, the director's day, and
player and team pages.

Reads go through :mod:`tournaments.selectors` (and :mod:`scoring.selectors`), writes through
the services; what is here shapes the data for the templates.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring import selectors as scoring_selectors
from scoring.charts import RatingPoint, rating_history_svg
from scoring.engine import EngineError
from scoring.models import Game
from scoring.views.common import forbidden, qr_svg
from tarabish_site.api.errors import ApplicationError, Conflict, PreconditionFailed
from tournaments import selectors, services
from tournaments.charts import MatchExtra, bracket_svg
from tournaments.models import Match, Stage, Standing, Tournament
from tournaments.services.standings import tiebreakers_for

ELIMINATION = (Stage.Kind.SINGLE_ELIM, Stage.Kind.DOUBLE_ELIM)
SCREEN_REFRESH_SECONDS = 15
#: Matches listed under "now playing and up next" on the tournament page.
NOW_PLAYING_ROWS = 24
SCREEN_PLAYING_ROWS = 16
TIEBREAKER_LABELS = {
    "match_wins": gettext_lazy("Match wins"),
    "game_wins": gettext_lazy("Game wins"),
    "points_for": gettext_lazy("Points for"),
    "points_against": gettext_lazy("Points against (fewer is better)"),
    "points_difference": gettext_lazy("Points difference"),
    "baits_forced": gettext_lazy("Baits forced"),
    "baits_suffered": gettext_lazy("Baits suffered (fewer is better)"),
    "head_to_head": gettext_lazy("Head-to-head among the tied teams"),
    "buchholz": gettext_lazy("Buchholz"),
    "median_buchholz": gettext_lazy("Median-Buchholz"),
    "seed": gettext_lazy("Seed"),
}
ROUND_WORDS = {
    "Bye": gettext_lazy("Bye"),
    "Seed": gettext_lazy("Seed"),
    "Winner": gettext_lazy("Winner"),
    "Loser": gettext_lazy("Loser"),
    "Table": gettext_lazy("Table"),
    "forfeit": gettext_lazy("forfeit"),
    "Bracket": gettext_lazy("Bracket"),
    "Final": gettext_lazy("Final"),
    "Semi-finals": gettext_lazy("Semi-finals"),
    "Quarter-finals": gettext_lazy("Quarter-finals"),
    "Winners final": gettext_lazy("Winners final"),
    "Winners semi-finals": gettext_lazy("Winners semi-finals"),
    "Winners quarter-finals": gettext_lazy("Winners quarter-finals"),
    "Losers final": gettext_lazy("Losers final"),
    "Grand final": gettext_lazy("Grand final"),
    "Grand final reset": gettext_lazy("Grand final reset"),
    "Third place": gettext_lazy("Third place"),
}
NUMBERED_ROUNDS = (
    (re.compile(r"^Losers round (\d+)$"), gettext_lazy("Losers round %(number)s")),
    (re.compile(r"^Winners round (\d+)$"), gettext_lazy("Winners round %(number)s")),
    (re.compile(r"^Round (\d+)$"), gettext_lazy("Round %(number)s")),
)


def bracket_words() -> Callable[[str], str]:
    """Words inside the bracket drawing (round names included), in the page's language;
    translated once per page."""
    words = {key: str(value) for key, value in ROUND_WORDS.items()}
    numbered = [(pattern, str(words_)) for pattern, words_ in NUMBERED_ROUNDS]

    def translate(text: str) -> str:
        if text in words:
            return words[text]
        for pattern, template in numbered:
            found = pattern.match(text)
            if found:
                return template % {"number": found.group(1)}
        return text

    return translate


def _tournament_or_404(request: HttpRequest, slug: str) -> Tournament:
    tournament = selectors.tournaments_visible(request.user).filter(slug=slug).first()
    if tournament is None:
        raise Http404(_("There is no such tournament."))
    return tournament


def _stage_of(stages: Sequence[Stage], stage_id: int | str | None) -> Stage | None:
    """The stage asked for, else the running one, else the last one started, else the first."""
    if stage_id not in (None, ""):
        for stage in stages:
            if str(stage.pk) == str(stage_id):
                return stage
        raise Http404(_("There is no such stage."))
    running = [s for s in stages if s.status == Stage.Status.RUNNING]
    if running:
        return running[0]
    started = [s for s in stages if s.status != Stage.Status.PENDING]
    if started:
        return started[-1]
    return stages[0] if stages else None


def _highlight(request: HttpRequest) -> int | None:
    value = request.GET.get("team", "")
    return int(value) if value.isdigit() else None


# ------------------------------------------------------------------------------ stage shaping


@dataclass
class StandingsTable:
    """One pool's table as the page shows it."""

    title: str
    rows: list[Standing]


def tiebreaker_labels(stage: Stage) -> list[str]:
    return [str(TIEBREAKER_LABELS.get(t, t)) for t in tiebreakers_for(stage)]


def standings_tables(stage: Stage) -> list[StandingsTable]:
    tables = []
    for pool in selectors.stage_standings(stage):
        title = pool.pool.name if pool.pool is not None else stage.name
        tables.append(StandingsTable(title, pool.rows))
    return tables


def match_extras(document: Mapping[str, Any]) -> dict[str, MatchExtra]:
    """Per bracket match: its page, its score once started, its table, live or not."""
    extras = {}
    # one reverse() for every match: the pattern has a single number in it
    url_of = reverse("tournaments:match-detail", args=[987654321]).replace("987654321", "{}")
    for side in document["sides"]:
        for rnd in side["rounds"]:
            for item in rnd["matches"]:
                started = item.get("state") in (Match.State.IN_PROGRESS, Match.State.COMPLETE)
                forfeit = bool(item.get("forfeit"))
                score = item.get("score") or [0, 0]
                extras[item["key"]] = MatchExtra(
                    url=url_of.format(int(item["id"]))
                    if item.get("id") and item.get("status") != "void"
                    else None,
                    scores=(str(score[0]), str(score[1])) if started and not forfeit else None,
                    table=str(item["table"]) if item.get("table") else "",
                    live=item.get("state") == Match.State.IN_PROGRESS,
                    forfeit=forfeit,
                )
    return extras


def bracket_of(stage: Stage, highlight: int | None) -> tuple[SafeString, list[tuple[int, str]]]:
    """The stage's bracket as SVG, and the (entry, name) pairs a reader can follow."""
    document = selectors.stage_bracket_document(stage)
    svg = bracket_svg(
        document,
        names={},
        extras=match_extras(document),
        highlight=highlight,
        translate=bracket_words(),
    )
    followable = sorted(
        {
            (slot["entry"], slot.get("name") or str(slot["entry"]))
            for side in document["sides"]
            for rnd in side["rounds"]
            for item in rnd["matches"]
            for slot in item["slots"]
            if slot.get("entry") is not None
        },
        key=lambda pair: pair[1],
    )
    return mark_safe(svg), followable  # noqa: S308 - tournaments.charts escapes every text


def stage_context(stage: Stage, highlight: int | None) -> dict[str, Any]:
    """Bracket or standings (or both) of one stage."""
    context: dict[str, Any] = {"stage": stage, "highlight": highlight}
    if stage.kind in ELIMINATION and stage.status != Stage.Status.PENDING:
        context["bracket"], context["followable"] = bracket_of(stage, highlight)
    else:
        context["tables"] = standings_tables(stage)
        context["tiebreakers"] = tiebreaker_labels(stage)
        context["swiss"] = stage.kind == Stage.Kind.SWISS
    return context


def with_pages(matches: Sequence[Match]) -> list[Match]:
    """The matches, each with ``page_url`` set (one reverse() for them all: long schedules)."""
    url_of = reverse("tournaments:match-detail", args=[987654321]).replace("987654321", "{}")
    for match in matches:
        match.page_url = url_of.format(match.pk)  # type: ignore[attr-defined]
    return list(matches)


# ------------------------------------------------------------------------------ pages


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = selectors.tournament_list(request.user)
    return render(request, "tournaments/list.html", {"tournaments": tournaments})


@require_GET
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament_or_404(request, slug)
    overview = selectors.tournament_overview(tournament)
    stage = _stage_of(overview.stages, request.GET.get("stage"))
    shown, more = selectors.now_playing(tournament, NOW_PLAYING_ROWS)
    team_url = reverse("tournaments:team-detail", args=[987654321]).replace("987654321", "{}")
    context: dict[str, Any] = {
        "tournament": tournament,
        "overview": overview,
        "entries": [(entry, team_url.format(entry.team_id)) for entry in overview.entries],
        "schedule": with_pages(shown),
        "schedule_more": more,
        "can_direct": selectors.tournament_directed_by(tournament, request.user),
    }
    if stage is not None:
        context.update(stage_context(stage, _highlight(request)))
    return render(request, "tournaments/detail.html", context)


@require_GET
def schedule(request: HttpRequest, slug: str) -> HttpResponse:
    """Every match of the tournament with its round, table, result and state."""
    tournament = _tournament_or_404(request, slug)
    return render(
        request,
        "tournaments/schedule.html",
        {
            "tournament": tournament,
            "schedule": with_pages(selectors.tournament_schedule(tournament)),
        },
    )


@require_GET
def stage_live(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """The bracket or standings of a stage alone, for pages that refresh themselves."""
    tournament = _tournament_or_404(request, slug)
    stage = _stage_of(list(tournament.stages.order_by("order")), stage_id)
    assert stage is not None  # noqa: S101 - _stage_of raised 404 otherwise
    context = {"tournament": tournament, **stage_context(stage, _highlight(request))}
    return render(request, "tournaments/_stage.html", context)


@require_GET
def big_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """For the projector in the hall: standings, bracket and what is being played now."""
    tournament = _tournament_or_404(request, slug)
    every = request.GET.get("every", "")
    seconds = max(2, min(int(every), 600)) if every.isdigit() else SCREEN_REFRESH_SECONDS
    return render(
        request,
        "tournaments/screen.html",
        {
            "tournament": tournament,
            "refresh_seconds": seconds,
            **_screen_context(request, tournament),
        },
    )


@require_GET
def big_screen_live(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament_or_404(request, slug)
    return render(
        request,
        "tournaments/_screen.html",
        {"tournament": tournament, **_screen_context(request, tournament)},
    )


def _screen_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    stages = list(tournament.stages.order_by("order"))
    stage = _stage_of(stages, request.GET.get("stage"))
    playing, more = selectors.now_playing(tournament, SCREEN_PLAYING_ROWS)
    context: dict[str, Any] = {"playing": playing, "playing_more": more, "screen_stage": stage}
    if stage is not None:
        context.update(stage_context(stage, None))
        if stage.kind in ELIMINATION:
            # beside the bracket, the standings of the stage before it (the pools)
            earlier = [s for s in stages if s.order < stage.order and s.kind not in ELIMINATION]
            if earlier:
                context["tables"] = standings_tables(earlier[-1])
                context["tiebreakers"] = tiebreaker_labels(earlier[-1])
                context["swiss"] = earlier[-1].kind == Stage.Kind.SWISS
    return context


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
    return _day_page(request, tournament)


def _day_page(
    request: HttpRequest, tournament: Tournament, *, error: str = "", status: int = 200
) -> HttpResponse:
    day = selectors.director_day(tournament)
    return render(
        request,
        "tournaments/director.html",
        {"tournament": tournament, "day": day, "action_error": error},
        status=status,
    )


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
        return _day_page(request, tournament, error=moved, status=409)
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
        return _day_page(request, fresh, error=exc.message, status=exc.status)
    messages.success(request, act.done)
    return redirect("tournaments:director-day", slug=tournament.slug)


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


def _match_or_404(request: HttpRequest, pk: int) -> Match:
    match = selectors.match_detail(pk)
    if match is None:
        raise Http404(_("There is no such match."))
    tournament = match.stage.tournament
    visible = selectors.tournaments_visible(request.user).filter(pk=tournament.pk).exists()
    if not visible:
        raise Http404(_("There is no such match."))
    return match


@require_GET
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _match_page(request, _match_or_404(request, pk))


def _match_page(
    request: HttpRequest, match: Match, *, error: str = "", status: int = 200
) -> HttpResponse:
    """The match's page; ``error`` says why a director's action on it was refused."""
    links = selectors.match_game_rows(match)
    tournament = match.stage.tournament
    can_direct = selectors.tournament_directed_by(tournament, request.user)
    return render(
        request,
        "tournaments/match.html",
        {
            "match": match,
            "tournament": tournament,
            "links": links,
            "can_direct": can_direct,
            "actions": selectors.match_director_actions(match) if can_direct else None,
            "action_error": error,
            "playing": any(row.link.game.status == Game.Status.IN_PROGRESS for row in links),
        },
        status=status,
    )


# ------------------------------------------------------------------------------ director's acts


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
    return entry.team.name if entry is not None else _("to be decided")


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
        return forbidden(
            request,
            _("Only this tournament's directors can do this."),
            back,
            _("Back to the match"),
        )
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


@require_POST
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


@require_POST
@login_required
def match_reset_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """A director confirms the result change a match holds: later matches re-open."""

    def perform(match: Match, data: Mapping[str, str], version: int) -> object:
        return services.match_reset_confirm(
            match_id=match.pk, actor=request.user, expected_version=version
        )

    return _director_act(request, pk, _reset_act, perform)


@require_POST
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


@require_POST
@login_required
def match_game_start(request: HttpRequest, pk: int) -> HttpResponse:
    """A director starts the match's next game; its score-pad opens."""
    match = _match_or_404(request, pk)
    try:
        link = services.match_game_start(match_id=match.pk, actor=request.user)
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
    pad = reverse("scoring:game-pad", args=[link.game_id])
    return redirect(f"{pad}?{urlencode({'then': reverse('tournaments:match-detail', args=[pk])})}")


def table_code_label(match: Match) -> str:
    """What a table sheet's QR code is, said to a screen reader."""
    if match.table:
        return _("QR code that opens the score-pad of table %(table)s") % {"table": match.table}
    return _("QR code that opens this match's score-pad")


@require_GET
def match_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The printable sheet for the match's table, with a QR code of its score-pad."""
    match = _match_or_404(request, pk)
    url = request.build_absolute_uri(reverse("tournaments:match-pad", args=[pk]))
    return render(
        request,
        "tournaments/match_sheet.html",
        {
            "match": match,
            "tournament": match.stage.tournament,
            "qr": qr_svg(url, table_code_label(match)),
            "pad_url": url,
            "blank_lines": range(1, 17),
        },
    )


@require_GET
def round_sheets(request: HttpRequest, slug: str) -> HttpResponse:
    """Every table's sheet for the matches ready or being played, one per printed page."""
    tournament = _tournament_or_404(request, slug)
    matches = selectors.tournament_schedule(
        tournament, states=[Match.State.READY, Match.State.IN_PROGRESS]
    )
    pad_urls = [
        request.build_absolute_uri(reverse("tournaments:match-pad", args=[match.pk]))
        for match in matches
    ]
    sheets = [
        {"match": match, "qr": qr_svg(url, table_code_label(match)), "pad_url": url}
        for match, url in zip(matches, pad_urls, strict=True)
    ]
    return render(
        request,
        "tournaments/round_sheets.html",
        {"tournament": tournament, "sheets": sheets, "blank_lines": range(1, 17)},
    )


# ------------------------------------------------------------------------------ players, teams


def rating_chart(history: selectors.RatingHistory) -> SafeString | str:
    if not history.changes:
        return ""
    points = [
        RatingPoint(
            date_format(timezone.localtime(change.created_at), "SHORT_DATE_FORMAT"),
            change.ordinal_after,
        )
        for change in history.changes
    ]
    if history.changes:
        first = history.changes[0]
        start = first.mu_before - 3 * first.sigma_before
        points.insert(0, RatingPoint(_("start"), start))
    svg = rating_history_svg(points, translate=_)
    return mark_safe(svg)  # noqa: S308 - scoring.charts escapes every text


def game_lines(games: Sequence[Game], team_ids: set[int]) -> list[dict[str, Any]]:
    """A player's or team's games: the opponents, the score from their side, won or lost."""
    lines = []
    for game in games:
        ours_a = game.team_a_id in team_ids
        us, them = (game.team_a, game.team_b) if ours_a else (game.team_b, game.team_a)
        score = (game.score_a, game.score_b) if ours_a else (game.score_b, game.score_a)
        won = None
        if game.status == Game.Status.FINISHED:
            won = (game.winner == "team_a") == ours_a
        lines.append({"game": game, "us": us, "them": them, "score": score, "won": won})
    return lines


def match_lines(matches: Sequence[Match], team_id: int) -> list[dict[str, Any]]:
    lines = []
    for match in matches:
        home = match.home is not None and match.home.team_id == team_id
        us, them = (match.home, match.away) if home else (match.away, match.home)
        games = (
            (match.home_games, match.away_games) if home else (match.away_games, match.home_games)
        )
        won = match.winner_id is not None and us is not None and match.winner_id == us.pk
        lines.append({"match": match, "them": them, "games": games, "won": won})
    return lines


RECENT = 30


RATINGS_PER_PAGE = 50


@require_GET
def rating_list(request: HttpRequest) -> HttpResponse:
    """Every rated player, the strongest first, a page at a time."""
    page = Paginator(selectors.rating_table(), RATINGS_PER_PAGE).get_page(request.GET.get("page"))
    ranked = list(enumerate(page.object_list, start=page.start_index()))
    return render(request, "tournaments/ratings.html", {"page": page, "ranked": ranked})


@require_GET
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = scoring_selectors.player_list().filter(pk=pk).first()
    if player is None:
        raise Http404(_("There is no such player."))
    teams = list(scoring_selectors.team_list(player=pk))
    listed = scoring_selectors.game_list(player=pk)
    games = list(scoring_selectors.visible_to(listed, request.user)[:RECENT])
    history = selectors.player_rating_history(pk, request.user)
    return render(
        request,
        "tournaments/player.html",
        {
            "player": player,
            "teams": teams,
            "games": game_lines(games, {t.pk for t in teams}),
            "rating": history.current,
            "changes": list(reversed(history.changes)),
            "rating_chart": rating_chart(history),
        },
    )


@require_GET
def team_detail(request: HttpRequest, pk: int) -> HttpResponse:
    team = scoring_selectors.team_list().filter(pk=pk).first()
    if team is None:
        raise Http404(_("There is no such team."))
    listed = scoring_selectors.game_list(team=pk)
    games = list(scoring_selectors.visible_to(listed, request.user)[:RECENT])
    return render(
        request,
        "tournaments/team.html",
        {
            "team": team,
            "games": game_lines(games, {team.pk}),
            "matches": match_lines(selectors.team_results(pk, request.user), pk),
            "entries": list(selectors.team_entries(pk, request.user)),
        },
    )
