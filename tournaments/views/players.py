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
from scoring.models import Game, Team
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


GAME_TEAMS = (
    "team_a__player_one",
    "team_a__player_two",
    "team_b__player_one",
    "team_b__player_two",
    "match_link__match__stage",
)


def _community(team: Team) -> str:
    return selectors.team_community(team.player_one.community, team.player_two.community)


def _tournament_of(game: Game) -> int | None:
    link = getattr(game, "match_link", None)
    return link.match.stage.tournament_id if link is not None else None


def _tournaments_of(games: Sequence[Game]) -> set[int]:
    return {t for t in map(_tournament_of, games) if t is not None}


def game_lines(
    games: Sequence[Game],
    team_ids: set[int],
    names: dict[tuple[int, int], str],
    player_id: int | None = None,
) -> list[dict[str, Any]]:
    """A player's or team's games: the opponents, the score from their side, won or lost
    (``games`` with :data:`GAME_TEAMS` joined), and for a player's (``player_id``) the
    partner they played with. The teams of a tournament's game are named as that tournament
    tells them from their namesakes (``names``, by tournament and team); those of another
    game, where they share a name, by their community, else by a number."""
    lines = []
    for game in games:
        ours_a = game.team_a_id in team_ids
        us, them = (game.team_a, game.team_b) if ours_a else (game.team_b, game.team_a)
        score = (game.score_a, game.score_b) if ours_a else (game.score_b, game.score_a)
        won = None
        if game.status == Game.Status.FINISHED:
            won = (game.winner == "team_a") == ours_a
        tournament = _tournament_of(game)
        if tournament is not None:
            them_name = names.get((tournament, them.pk), them.name)
        else:  # told apart from the team it played, when both share a name
            _, them_name = selectors.names_told_apart(
                [(us.name, _community(us)), (them.name, _community(them))]
            )
        partner = None
        if player_id is not None:
            partner = us.player_two if us.player_one_id == player_id else us.player_one
        lines.append(
            {
                "game": game,
                "us": us,
                "them": them,
                "partner": partner,
                "them_name": them_name,
                "score": score,
                "won": won,
            }
        )
    return lines


def match_lines(
    matches: Sequence[Match], team_id: int, names: dict[tuple[int, int], str]
) -> list[dict[str, Any]]:
    """A team's matches: the opponent by its name in that tournament (``names``, by
    tournament and team), the games from the team's side, won or lost."""
    lines = []
    for match in matches:
        home = match.home is not None and match.home.team_id == team_id
        us, them = (match.home, match.away) if home else (match.away, match.home)
        games = (
            (match.home_games, match.away_games) if home else (match.away_games, match.home_games)
        )
        won = match.winner_id is not None and us is not None and match.winner_id == us.pk
        them_name = ""
        if them is not None:
            them_name = names.get((match.stage.tournament_id, them.team_id), them.team.name)
        lines.append(
            {"match": match, "them": them, "them_name": them_name, "games": games, "won": won}
        )
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
    listed = scoring_selectors.game_list(player=pk).select_related(*GAME_TEAMS)
    games = list(scoring_selectors.visible_to(listed, request.user)[:RECENT])
    history = selectors.player_rating_history(pk, request.user)
    names = selectors.team_display_names_in(_tournaments_of(games), teams=[t.pk for t in teams])
    return render(
        request,
        "tournaments/player.html",
        {
            "player": player,
            "teams": teams,
            "games": game_lines(games, {t.pk for t in teams}, names, player_id=pk),
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
    listed = scoring_selectors.game_list(team=pk).select_related(*GAME_TEAMS)
    games = list(scoring_selectors.visible_to(listed, request.user)[:RECENT])
    matches = selectors.team_results(pk, request.user)
    entries = list(selectors.team_entries(pk, request.user))
    # the team and its opponents as each tournament tells them from their namesakes
    names = selectors.team_display_names_in(_tournaments_of(games), teams=[team.pk])
    for entry in entries:
        entry.display_name = names.get((entry.tournament_id, team.pk), team.name)
    return render(
        request,
        "tournaments/team.html",
        {
            "team": team,
            "community": _community(team),
            "games": game_lines(games, {team.pk}, names),
            "matches": match_lines(matches, pk, names),
            "entries": entries,
        },
    )
