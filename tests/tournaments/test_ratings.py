# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr"
"""Ratings follow the results: a changed result is re-rated in its place, once; the players
rated are those who played."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.scoring.factories import PlayerFactory
from tests.tournaments.factories import (
    EntryFactory,
    TournamentFactory,
    add_stage,
    tournament_ready,
)
from tests.tournaments.helpers import win_game, win_match
from tournaments.models import Match, PlayerRating, RatingChange, Tournament
from tournaments.services import (
    checkin_process,
    entry_substitute_add,
    match_forfeit,
    match_sync,
    ratings_update_for_match,
    stage_start,
    tournament_update,
)

pytestmark = pytest.mark.django_db


def ratings() -> dict[int, tuple[float, float, int]]:
    return {
        r.player_id: (round(r.mu, 9), round(r.sigma, 9), r.matches)
        for r in PlayerRating.objects.all()
    }


def replayed(order: list[int]) -> dict[int, tuple[float, float, int]]:
    """The ratings rated from nothing over ``order``, as they stand now (for comparison)."""
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    for match_id in order:
        ratings_update_for_match(match_id=match_id)
    return ratings()


def played_round_robin(capture: Any) -> list[Match]:
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    matches = list(Match.objects.filter(stage=stage).order_by("round_id", "number"))
    with capture(execute=True):
        for match in matches:
            win_match(match, "home")
    return [Match.objects.get(pk=m.pk) for m in matches]


def test_a_result_changed_later_is_re_rated_in_its_place(
    django_capture_on_commit_callbacks: Any,
) -> None:
    matches = played_round_robin(django_capture_on_commit_callbacks)
    order = [m.pk for m in matches]
    assert RatingChange.objects.count() == 4 * len(matches)
    first = matches[0]
    Match.objects.filter(pk=first.pk).update(winner=first.away_id)
    assert ratings_update_for_match(match_id=first.pk)
    after = ratings()
    assert not ratings_update_for_match(match_id=first.pk)  # twice changes nothing
    assert ratings() == after
    assert set(RatingChange.objects.filter(match=first).values_list("result", flat=True)) == {
        "win",
        "loss",
    }
    winners = {first.away.team.player_one_id, first.away.team.player_two_id}
    assert (
        set(
            RatingChange.objects.filter(match=first, result="win").values_list(
                "player_id", flat=True
            )
        )
        == winners
    )
    assert after == replayed(order)


def test_a_forfeit_over_a_played_result_takes_its_rating_back(
    django_capture_on_commit_callbacks: Any,
) -> None:
    matches = played_round_robin(django_capture_on_commit_callbacks)
    order = [m.pk for m in matches]
    middle = matches[2]
    with django_capture_on_commit_callbacks(execute=True):
        match_forfeit(
            match_id=middle.pk,
            actor=None,
            loser_id=middle.home_id,
            expected_version=middle.version,
            overturn_result=True,
        )
    assert not RatingChange.objects.filter(match=middle).exists()
    assert RatingChange.objects.count() == 4 * (len(matches) - 1)
    after = ratings()
    assert after == replayed(order)


def rated_winners(match: Match) -> list[int]:
    return list(
        RatingChange.objects.filter(match=match, result="win").values_list("player_id", flat=True)
    )


def _best_of_three_with_a_substitute(capture: Any, games_sat_in: int) -> tuple[Match, int]:
    """A best-of-three final the home side wins 2-0, a substitute sitting in for its first
    player in the first ``games_sat_in`` games."""
    tournament = tournament_ready(2, match_games=3, substitutes_allowed=True)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = Match.objects.select_related("home__team", "away__team").get(stage=stage)
    sub = PlayerFactory()
    entry_substitute_add(entry_id=match.home_id, actor=None, player_id=sub.pk)
    home, away = match.home.team, match.away.team
    with capture(execute=True):
        for number in range(2):
            seat_0 = sub.pk if number < games_sat_in else home.player_one_id
            seats = [seat_0, away.player_one_id, home.player_two_id, away.player_two_id]
            win_game(match, "home", seats=seats)
            match_sync(match_id=match.pk)
    match.refresh_from_db()
    assert match.state == Match.State.COMPLETE
    return match, sub.pk


def test_a_substitute_who_played_the_match_is_rated_in_place_of_the_player(
    django_capture_on_commit_callbacks: Any,
) -> None:
    match, sub = _best_of_three_with_a_substitute(django_capture_on_commit_callbacks, 2)
    home = match.home.team
    winners = set(rated_winners(match))
    assert winners == {sub, home.player_two_id}
    assert not PlayerRating.objects.filter(player_id=home.player_one_id).exists()
    assert not ratings_update_for_match(match_id=match.pk)  # already as it should be


def test_a_substitute_for_half_the_match_leaves_the_registered_player_rated(
    django_capture_on_commit_callbacks: Any,
) -> None:
    match, sub = _best_of_three_with_a_substitute(django_capture_on_commit_callbacks, 1)
    home = match.home.team
    winners = set(rated_winners(match))
    assert winners == {home.player_one_id, home.player_two_id}
    assert not RatingChange.objects.filter(player_id=sub).exists()


def private_match_between(capture: Any, matches: list[Match], after: int) -> Match:
    """A private tournament's final between the first match's two teams, won by the away
    team, finished between ``matches[after]`` and the match after it."""
    home, away = matches[0].home.team, matches[0].away.team
    tournament = TournamentFactory(status=Tournament.Status.CHECK_IN, public=False)
    for team in (home, away):
        EntryFactory(tournament=tournament, team=team, checked_in=True)
    checkin_process(tournament_id=tournament.pk, actor=tournament.organiser)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    with capture(execute=True):
        final = win_match(Match.objects.get(stage=stage), "away")
    first, then = matches[after].finished_at, matches[after + 1].finished_at
    assert first is not None
    assert then is not None
    between = first + (then - first) / 2
    Match.objects.filter(pk=final.pk).update(finished_at=between)
    return Match.objects.select_related("stage__tournament").get(pk=final.pk)


def figures_shown(player: int) -> dict[str, Any]:
    """What anyone signed out sees of a player's rating: on the API, /ratings/ and the player
    page."""
    anyone = APIClient()
    answer = anyone.get(f"/api/v1/ratings/{player}/").json()
    listed = {r["player"]: r["matches"] for r in anyone.get("/api/v1/ratings/").json()["results"]}
    page = Client().get(reverse("tournaments:player-detail", args=[player])).content.decode()
    table = Client().get(reverse("tournaments:rating-list")).context["ranked"]
    return {
        "api_matches": answer["current"]["matches"],
        "api_history": len(answer["history"]),
        "api_last": round(answer["history"][-1]["ordinal_after"], 6),
        "api_now": round(answer["current"]["ordinal"], 6),
        "listed": listed[player],
        "table": next(r.matches for _, r in table if r.player_id == player),
        "page": page.count("/matches/"),
        "page_says": f"after {answer['current']['matches']} rated matches" in page,
    }


def test_only_public_tournaments_rate_and_a_change_of_visibility_rates_in_place(
    django_capture_on_commit_callbacks: Any,
) -> None:
    matches = played_round_robin(django_capture_on_commit_callbacks)
    public_order = [m.pk for m in matches]
    before = ratings()
    final = private_match_between(django_capture_on_commit_callbacks, matches, after=1)
    tournament = final.stage.tournament
    assert final.state == Match.State.COMPLETE
    assert not RatingChange.objects.filter(match=final).exists()  # rates nobody
    assert ratings() == before
    player = matches[0].home.team.player_one_id
    shown = figures_shown(player)
    played = RatingChange.objects.filter(player_id=player).count()
    assert shown == {
        "api_matches": played,
        "api_history": played,
        "api_last": shown["api_now"],
        "api_now": shown["api_now"],
        "listed": played,
        "table": played,
        "page": played,
        "page_says": True,
    }

    with django_capture_on_commit_callbacks(execute=True):
        tournament_update(
            tournament_id=tournament.pk,
            actor=tournament.organiser,
            expected_version=tournament.version,
            changes={"public": True},
        )
    in_place = [*public_order[:2], final.pk, *public_order[2:]]
    made_public = ratings()
    assert RatingChange.objects.filter(match=final).count() == 4
    history = list(
        RatingChange.objects.filter(player_id=player)
        .order_by("created_at", "id")
        .values_list("match_id", flat=True)
    )
    assert history == [m for m in in_place if m in set(history)]  # in its place in time
    shown = figures_shown(player)
    assert shown["api_matches"] == shown["api_history"] == shown["page"] == played + 1
    assert shown["listed"] == shown["table"] == played + 1
    assert shown["api_last"] == shown["api_now"]
    assert made_public == replayed(in_place)

    tournament.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        tournament_update(
            tournament_id=tournament.pk,
            actor=tournament.organiser,
            expected_version=tournament.version,
            changes={"public": False},
        )
    assert not RatingChange.objects.filter(match=final).exists()
    assert ratings() == before == replayed(public_order)
    assert figures_shown(player)["api_matches"] == played


def test_a_player_rated_only_in_a_tournament_made_private_has_no_rating(
    django_capture_on_commit_callbacks: Any,
) -> None:
    matches = played_round_robin(django_capture_on_commit_callbacks)
    tournament = matches[0].stage.tournament
    player = matches[0].home.team.player_one_id
    with django_capture_on_commit_callbacks(execute=True):
        tournament_update(
            tournament_id=tournament.pk,
            actor=tournament.organiser,
            expected_version=tournament.version,
            changes={"public": False},
        )
    assert not RatingChange.objects.exists()
    assert not PlayerRating.objects.exists()  # no rated match, no rating
    anyone, director = APIClient(), APIClient()
    director.force_authenticate(tournament.organiser)
    assert anyone.get(f"/api/v1/ratings/{player}/").status_code == 404
    assert director.get(f"/api/v1/ratings/{player}/").status_code == 404
    assert anyone.get("/api/v1/ratings/").json()["results"] == []
    page = Client().get(reverse("tournaments:player-detail", args=[player])).content.decode()
    assert "No rated matches yet." in page


def test_a_tournament_made_private_through_the_api_takes_its_ratings_out(
    django_capture_on_commit_callbacks: Any,
) -> None:
    matches = played_round_robin(django_capture_on_commit_callbacks)
    tournament = matches[0].stage.tournament
    player = matches[0].home.team.player_one_id
    url = f"/api/v1/ratings/{player}/"
    anyone, director = APIClient(), APIClient()
    director.force_authenticate(tournament.organiser)
    before = anyone.get(url).json()
    assert {h["tournament"] for h in before["history"]} == {tournament.slug}
    with django_capture_on_commit_callbacks(execute=True):
        private = director.patch(
            f"/api/v1/tournaments/{tournament.slug}/",
            {"public": False},
            format="json",
            HTTP_IF_MATCH=f'"{tournament.version}"',
        )
    assert private.status_code == 200
    assert anyone.get(url).status_code == 404  # rated by nothing anyone can see
    assert director.get(url).status_code == 404
    with django_capture_on_commit_callbacks(execute=True):
        public = director.patch(
            f"/api/v1/tournaments/{tournament.slug}/",
            {"public": True},
            format="json",
            HTTP_IF_MATCH=private["ETag"],
        )
    assert public.status_code == 200
    after = anyone.get(url).json()

    def figures(answer: dict[str, Any]) -> list[Any]:
        changes = [(h["match"], round(h["ordinal_after"], 9)) for h in answer["history"]]
        return [answer["current"]["matches"], round(answer["current"]["ordinal"], 9), changes]

    assert figures(after) == figures(before)  # rated again, in the same place


def test_player_and_team_pages_leave_out_a_private_tournament(
    django_capture_on_commit_callbacks: Any, client: Client
) -> None:
    matches = played_round_robin(django_capture_on_commit_callbacks)
    tournament = matches[0].stage.tournament
    team = matches[0].home.team
    pages = [
        reverse("tournaments:player-detail", args=[team.player_one_id]),
        reverse("tournaments:team-detail", args=[team.pk]),
    ]
    for page in pages:
        assert tournament.name in client.get(page).content.decode()
    Tournament.objects.filter(pk=tournament.pk).update(public=False)
    for page in pages:
        assert tournament.name not in client.get(page).content.decode()
    client.force_login(tournament.organiser)
    for page in pages:
        assert tournament.name in client.get(page).content.decode()
