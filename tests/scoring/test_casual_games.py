"""A casual game from four names: the players and pairs already there are found, new ones made
once, and a refused game leaves nothing behind."""

import pytest

from scoring import services
from scoring.models import Game, Player, Team
from tarabish_site.api.errors import ValidationFailed
from tests.scoring.factories import PlayerFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db

STANDARD = "cape-breton-standard"


def test_four_new_names_make_four_players_two_teams_and_the_game() -> None:
    keeper = UserFactory.create()
    game = services.game_create_casual(
        team_a=("Ann", "Bea"),
        team_b=("Cy", "Di"),
        ruleset_preset=STANDARD,
        table="7",
        created_by=keeper,
        public=False,
    )
    assert [p.display_name for p in game.seats] == ["Ann", "Cy", "Bea", "Di"]
    assert (game.team_a.name, game.team_b.name) == ("Ann & Bea", "Cy & Di")
    assert (game.table, game.public, game.created_by) == ("7", False, keeper)
    assert (Player.objects.count(), Team.objects.count()) == (4, 2)


def test_players_and_pairs_already_there_are_found_as_typed() -> None:
    ann = PlayerFactory.create(display_name="Ann MacNeil", community="")
    bea = PlayerFactory.create(display_name="Bea", community="")
    pair = TeamFactory.create(player_one=bea, player_two=ann)
    game = services.game_create_casual(
        team_a=("ann  macneil", "BEA"), team_b=("Cy", "Di"), ruleset_preset=STANDARD
    )
    assert game.team_a == pair
    assert game.seats[0] == ann
    assert (Player.objects.count(), Team.objects.count()) == (4, 2)


def test_a_refused_game_leaves_no_player_or_team() -> None:
    with pytest.raises(ValidationFailed) as refused:
        services.game_create_casual(
            team_a=("Ann", "Bea"), team_b=("Ann", "Di"), ruleset_preset=STANDARD
        )
    assert refused.value.fields
    assert (Player.objects.count(), Team.objects.count(), Game.objects.count()) == (0, 0, 0)


def test_a_name_found_or_made() -> None:
    first = services.player_for_name("w ann")
    assert first.display_name == "w ann"
    assert services.player_for_name("W ANN") == first
    two = services.player_for_name("Bo")
    team = services.team_for_pair(first, two)
    assert services.team_for_pair(two, first) == team
