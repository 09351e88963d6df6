"""Games started for a match take their visibility from the tournament."""

import pytest

from scoring.models import Game
from tests.scoring.factories import GameFactory
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import ready_matches
from tournaments.services import match_game_start, stage_start, tournament_update

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("public", [True, False])
def test_a_match_game_is_as_public_as_its_tournament(public: bool) -> None:
    tournament = tournament_ready(4)
    tournament.public = public
    tournament.save(update_fields=["public"])
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = ready_matches(stage.pk)[0]
    game = match_game_start(match_id=match.pk, actor=None, first_dealer=0).game
    assert game.public is public


def test_the_games_follow_when_the_tournament_changes_its_mind() -> None:
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = ready_matches(stage.pk)[0]
    game = match_game_start(match_id=match.pk, actor=None, first_dealer=0).game
    casual = GameFactory.create()
    tournament.refresh_from_db()
    tournament_update(
        tournament_id=tournament.pk,
        actor=tournament.organiser,
        expected_version=tournament.version,
        changes={"public": False},
    )
    stored = Game.objects.get(pk=game.pk)
    assert (stored.public, stored.version) == (False, game.version + 1)
    assert Game.objects.get(pk=casual.pk).public is True


def test_a_match_game_is_not_made_public_or_private_on_its_own() -> None:
    from rest_framework.test import APIClient

    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = ready_matches(stage.pk)[0]
    game = match_game_start(match_id=match.pk, actor=tournament.organiser, first_dealer=0).game
    client = APIClient()
    client.force_authenticate(tournament.organiser)
    refused = client.patch(
        f"/api/v1/games/{game.pk}/",
        {"public": False},
        format="json",
        headers={"If-Match": f'"{game.version}"'},
    )
    assert refused.status_code == 409
    assert refused.json()["code"] == "game_owned"
    assert list(refused.json()["fields"]) == ["public"]
    assert Game.objects.get(pk=game.pk).public is True
