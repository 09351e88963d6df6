# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr"
"""Tournament API input: CSV files as spreadsheets write them, names as people type them,
keys and rows that are not there, and a match whose game is still being played."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Game, Player
from tarabish_site.api.errors import Conflict
from tests.scoring.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import TournamentFactory, add_stage, tournament_ready
from tournaments.models import Match, Tournament
from tournaments.services import match_forfeit, stage_start

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def import_csv(text: str, slug: str = "csv") -> tuple[Tournament, Any]:
    tournament = TournamentFactory.create(slug=slug, status=Tournament.Status.REGISTRATION)
    response = client_for(tournament.organiser).post(
        f"/api/v1/tournaments/{slug}/entries/import/", {"csv": text}, format="json"
    )
    return tournament, response


# ------------------------------------------------------------------------------ CSV
def test_a_csv_with_lines_ending_in_cr_alone_is_imported() -> None:
    tournament, response = import_csv("team,player_one,player_two\rA,B,C\rD,E,F\r")
    assert response.status_code == 201, response.json()
    assert response.json()["rows"] == 2
    assert tournament.entries.count() == 2


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("x" * 200_000, 1),
        ("team,player_one,player_two\nA,B,C\nD,E," + "F" * 200_000 + "\n", 3),
    ],
)
def test_a_csv_the_csv_module_cannot_read_is_a_400_naming_the_line(text: str, line: int) -> None:
    tournament, response = import_csv(text)
    assert response.status_code == 400
    assert response.json()["code"] == "csv_unreadable"
    assert list(response.json()["fields"]) == [f"rows.{line}"]
    assert not tournament.entries.exists()


def test_a_team_name_over_120_characters_is_refused_naming_the_line() -> None:
    tournament, response = import_csv(
        f"team,player_one,player_two\nA,B,C\n{'T' * 121},E,F\n{'T' * 120},G,H\n"
    )
    assert response.status_code == 400
    assert response.json()["fields"] == {"rows.3.team": ["is longer than 120 characters."]}
    assert not tournament.entries.exists()


def test_a_csv_name_that_looks_like_a_player_is_that_player() -> None:
    walk = PlayerFactory.create(display_name="Walk B\u00e9a", community="Glace Bay")
    tournament, response = import_csv(
        "player_one,player_two,community\nWalk\u00a0Be\u0301a,  Ann   Rose ,Glace  Bay\n"
    )
    assert response.status_code == 201, response.json()
    team = tournament.entries.get().team
    assert team.player_one == walk
    assert team.player_two.display_name == "Ann Rose"
    assert Player.objects.count() == 2


def test_a_csv_name_with_nothing_visible_is_refused_naming_the_line() -> None:
    tournament, response = import_csv("player_one,player_two\nA,\u200b\n")
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["rows.2.player_two"]
    assert not tournament.entries.exists()


# ------------------------------------------------------------------------------ forfeits
def started_match() -> tuple[Tournament, Match, Game]:
    tournament = tournament_ready(2)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = Match.objects.get(stage=stage)
    client = client_for(tournament.organiser)
    started = client.post(f"/api/v1/matches/{match.pk}/games/", {"first_dealer": 0})
    assert started.status_code == 201
    return tournament, Match.objects.get(pk=match.pk), Game.objects.get()


def test_a_forfeit_while_a_game_of_the_match_is_being_played_is_409() -> None:
    tournament, match, game = started_match()
    response = client_for(tournament.organiser).post(
        f"/api/v1/matches/{match.pk}/forfeit/",
        {"loser": match.away_id},
        format="json",
        HTTP_IF_MATCH=f'"{match.version}"',
    )
    assert response.status_code == 409
    assert response.json()["code"] == "game_in_progress"
    after = Match.objects.get(pk=match.pk)
    assert (after.state, after.winner_id, after.forfeit) == (Match.State.IN_PROGRESS, None, False)
    assert Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS


def test_the_forfeit_service_refuses_it_for_every_caller() -> None:
    tournament, match, _game = started_match()
    with pytest.raises(Conflict) as refused:
        match_forfeit(
            match_id=match.pk,
            actor=tournament.organiser,
            loser_id=match.home_id,
            expected_version=match.version,
        )
    assert refused.value.code == "game_in_progress"


# ------------------------------------------------------------------------------ plain words
def test_creating_a_tournament_without_the_right_names_no_field_of_the_request() -> None:
    body = {"name": "Open", "starts_on": "2026-11-21"}
    response = client_for(UserFactory()).post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "director_only"
    assert response.json()["fields"] == {}


def test_a_key_a_tournament_does_not_take_is_refused_by_name() -> None:
    director = UserFactory(is_staff=True)
    body = {"name": "Open", "starts_on": "2026-11-21", "status": "finished"}
    response = client_for(director).post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_field"
    assert list(response.json()["fields"]) == ["status"]
    assert not Tournament.objects.exists()


def test_an_entry_that_does_not_exist_is_named() -> None:
    TournamentFactory(slug="cup")
    response = APIClient().get("/api/v1/tournaments/cup/entries/999/")
    assert response.status_code == 404
    assert response.json()["message"] == "there is no entry 999"
