"""Ratings, players and teams: the rated players, the strongest first, and each player's and
team's games, matches and rating history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring import selectors as scoring_selectors
from scoring.charts import RatingPoint, rating_history_svg
from scoring.models import Game
from tournaments import selectors
from tournaments.models import Match


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
