# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr"
"""A stage may play another match format than the tournament's."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tarabish_site.api.errors import ValidationFailed
from tests.tournaments.factories import add_stage, tournament_ready
from tournaments.models import Match
from tournaments.services import stage_start

pytestmark = pytest.mark.django_db


def test_a_knockout_plays_best_of_three_after_single_game_pools() -> None:
    tournament = tournament_ready(4, match_games=1)
    pools = add_stage(tournament, "round_robin")
    knockout = add_stage(tournament, "single_elim", match_format="best_of", match_games=3)
    assert (knockout.match_format, knockout.match_games) == ("best_of", 3)
    stage_start(stage_id=pools.pk, actor=tournament.organiser)
    assert set(Match.objects.filter(stage=pools).values_list("format", "games_planned")) == {
        ("best_of", 1)
    }
    fixed = add_stage(tournament, "swiss", match_format="fixed", match_games=2)
    assert fixed.effective_match_games == 2
    assert fixed.effective_match_format == "fixed"


def test_a_stage_format_is_checked_like_the_tournament_s() -> None:
    tournament = tournament_ready(4)
    with pytest.raises(ValidationFailed) as info:
        add_stage(tournament, "single_elim", match_format="best_of", match_games=4)
    assert list(info.value.fields) == ["match_games"]


def test_a_stage_s_format_is_given_through_the_api() -> None:
    tournament = tournament_ready(4)
    client = APIClient()
    client.force_authenticate(tournament.organiser)
    response = client.post(
        f"/api/v1/tournaments/{tournament.slug}/stages/",
        {"kind": "single_elim", "match_format": "fixed", "match_games": 2},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert (response.json()["match_format"], response.json()["match_games"]) == ("fixed", 2)
    stage_id = response.json()["id"]
    stage_start(stage_id=stage_id, actor=tournament.organiser)
    assert set(Match.objects.filter(stage_id=stage_id).values_list("format", "games_planned")) == {
        ("fixed", 2)
    }


def test_a_stage_shows_the_tie_breakers_in_effect() -> None:
    tournament = tournament_ready(4)
    swiss = add_stage(tournament, "swiss")
    client = APIClient()
    body = client.get(f"/api/v1/tournaments/{tournament.slug}/stages/{swiss.pk}/").json()
    assert body["tiebreakers"] == []
    assert "buchholz" in body["tiebreakers_in_effect"]
    assert body["tiebreakers_in_effect"][-1] == "seed"
    chosen = add_stage(tournament, "single_elim", tiebreakers=["points_difference", "seed"])
    body = client.get(f"/api/v1/tournaments/{tournament.slug}/stages/{chosen.pk}/").json()
    assert body["tiebreakers_in_effect"] == ["points_difference", "seed"]
