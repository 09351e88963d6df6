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
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import win_game, win_match
from tournaments.models import Match, PlayerRating, RatingChange, Tournament
from tournaments.services import (
    entry_substitute_add,
    match_forfeit,
    match_sync,
    ratings_update_for_match,
    stage_start,
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


def test_a_private_tournament_leaves_the_rating_history_of_anyone_but_its_directors(
    django_capture_on_commit_callbacks: Any,
) -> None:
    matches = played_round_robin(django_capture_on_commit_callbacks)
    tournament = matches[0].stage.tournament
    player = matches[0].home.team.player_one_id
    url = f"/api/v1/ratings/{player}/"
    anyone, director = APIClient(), APIClient()
    director.force_authenticate(tournament.organiser)
    before = anyone.get(url).json()["history"]
    assert {h["tournament"] for h in before} == {tournament.slug}
    private = director.patch(
        f"/api/v1/tournaments/{tournament.slug}/",
        {"public": False},
        format="json",
        HTTP_IF_MATCH=f'"{tournament.version}"',
    )
    assert private.status_code == 200
    after = anyone.get(url).json()
    assert after["history"] == []
    assert after["current"]["matches"] == len(before)  # the rating itself stays whole
    assert director.get(url).json()["history"] == before


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
