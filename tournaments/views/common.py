"""What the tournament pages share: the tournament, stage or match found (or not, when
private), and a stage shaped for the templates (bracket drawn as SVG in the page's words,
standings with their tie-breakers)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import selectors
from tournaments.charts import MatchExtra, bracket_parts_within, bracket_svg
from tournaments.models import Entry, Match, Stage, Standing, Tournament
from tournaments.services.standings import tiebreakers_for
from tournaments.wording import bracket_words, round_words

ELIMINATION = (Stage.Kind.SINGLE_ELIM, Stage.Kind.DOUBLE_ELIM)


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
    "sonneborn_berger": gettext_lazy("Sonneborn-Berger"),
    "opponents_match_win": gettext_lazy("Opponents' match-win percentage"),
    "seed": gettext_lazy("Seed"),
}


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
        title = round_words(pool.pool.name) if pool.pool is not None else stage.name
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


def bracket_of(
    stage: Stage,
    highlight: int | None,
    *,
    document: Mapping[str, Any] | None = None,
) -> tuple[SafeString, list[tuple[int, str]]]:
    """The stage's bracket as SVG, and the (entry, name) pairs a reader can follow; from
    ``document`` when the caller has read it already."""
    if document is None:
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


def bracket_in_parts(
    document: Mapping[str, Any], width: int, height: int
) -> list[tuple[str, SafeString]]:
    """A bracket too big for ``width`` by ``height`` of its drawing's units, cut into parts
    that fit (:func:`tournaments.charts.bracket_parts_within`), each drawn, with its side;
    none when it fits whole."""
    words = bracket_words()
    parts = bracket_parts_within(document, width, height, {}, words)
    extras = match_extras(document) if parts else {}
    return [
        (
            part.side,
            mark_safe(  # noqa: S308 - tournaments.charts escapes every text
                bracket_svg(document, names={}, extras=extras, translate=words, keys=part.keys)
            ),
        )
        for part in parts
    ]


def stage_context(
    stage: Stage, highlight: int | None, *, document: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Bracket or standings (or both) of one stage (the bracket from ``document`` when the
    caller has read it already)."""
    context: dict[str, Any] = {"stage": stage, "highlight": highlight}
    if has_bracket(stage):
        context["bracket"], followable = bracket_of(stage, highlight, document=document)
        context["follow_options"] = follow_options(followable, highlight)
    else:
        context["tables"] = standings_tables(stage)
        context["tiebreakers"] = tiebreaker_labels(stage)
        context["swiss"] = stage.kind == Stage.Kind.SWISS
    return context


def has_bracket(stage: Stage) -> bool:
    """Whether the stage is drawn as a bracket (an elimination stage, once it started)."""
    return stage.kind in ELIMINATION and stage.status != Stage.Status.PENDING


# A tournament of a thousand teams lists each of them three times (its teams, the path to
# follow, its placings): written in one pass each here, where a template loop over them
# took a third of the page's time.
def team_url_of() -> Callable[[int], str]:
    """The page of a team by its id (one reverse() for every team)."""
    url = reverse("tournaments:team-detail", args=[987654321]).replace("987654321", "{}")
    return url.format


def entry_items(entries: Sequence[Entry]) -> SafeString:
    """The teams of a tournament as the items of its list: name (linked), seed, status."""
    team_url = team_url_of()
    seed_word = _("seed")
    active = Entry.Status.ACTIVE
    return format_html_join(
        "",
        '<li{}><a href="{}">{}</a>{}{}</li>',
        (
            (
                mark_safe("" if e.status == active else ' class="muted"'),  # noqa: S308
                team_url(e.team_id),
                e.display_name,
                format_html(' <span class="muted">({} {})</span>', seed_word, e.seed)
                if e.seed
                else "",
                "" if e.status == active else f" — {e.get_status_display()}",
            )
            for e in entries
        ),
    )


def placing_items(placements: Sequence[Entry], *, linked: bool = True) -> SafeString:
    """The final placings as the items of an ordered list, each team at its place."""
    team_url = team_url_of()
    if not linked:
        return format_html_join(
            "", '<li value="{}">{}</li>', ((e.final_place, e.display_name) for e in placements)
        )
    return format_html_join(
        "",
        '<li value="{}"><a href="{}">{}</a></li>',
        ((e.final_place, team_url(e.team_id), e.display_name) for e in placements),
    )


def follow_options(followable: Sequence[tuple[int, str]], highlight: int | None) -> SafeString:
    """The teams whose path the bracket can show, as the options of its select."""
    return format_html_join(
        "",
        '<option value="{}"{}>{}</option>',
        (
            (entry, mark_safe(" selected" if entry == highlight else ""), name)  # noqa: S308
            for entry, name in followable
        ),
    )


def with_pages(matches: Sequence[Match]) -> list[Match]:
    """The matches, each with ``page_url`` set (one reverse() for them all: long schedules)."""
    url_of = reverse("tournaments:match-detail", args=[987654321]).replace("987654321", "{}")
    for match in matches:
        match.page_url = url_of.format(match.pk)  # type: ignore[attr-defined]
    return list(matches)


def _match_or_404(request: HttpRequest, pk: int) -> Match:
    match = selectors.match_detail(pk)
    if match is None:
        raise Http404(_("There is no such match."))
    tournament = match.stage.tournament
    visible = selectors.tournaments_visible(request.user).filter(pk=tournament.pk).exists()
    if not visible:
        raise Http404(_("There is no such match."))
    return match
