"""A casual game started from four names: each player and each pair found, or made once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from scoring.models import Game, Player, Team
from scoring.services.games import game_create
from scoring.services.players import player_create, player_named, team_create, team_find
from tarabish_site.api.errors import Conflict

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def player_for_name(name: str) -> Player:
    """The player of this name (with no community), new if there is none. The name is
    matched as it is stored (:func:`~scoring.services.names.name_normalised`) and in any case,
    so "w ann" typed on a phone finds W Ann rather than make a second player."""
    try:
        return player_create(display_name=name)
    except Conflict as exc:
        if exc.code != "player_exists":
            raise
        found = player_named(name)
        if found is None:
            raise
        return found


def team_for_pair(one: Player, two: Player) -> Team:
    """The team of this pair (in either order), new if there is none."""
    return team_find(player_one=one, player_two=two) or team_create(player_one=one, player_two=two)


@transaction.atomic
def game_create_casual(
    *,
    team_a: tuple[str, str],
    team_b: tuple[str, str],
    ruleset_preset: str,
    table: str = "",
    created_by: User | None = None,
    public: bool = True,
) -> Game:
    """A game between two teams given by their players' names (each team's two sit
    opposite each other: team A's in seats 0 and 2), under a preset's rules. Players and
    teams are found or made, all in one transaction with the game: a refusal leaves none."""
    a1, a2 = player_for_name(team_a[0]), player_for_name(team_a[1])
    b1, b2 = player_for_name(team_b[0]), player_for_name(team_b[1])
    return game_create(
        team_a=team_for_pair(a1, a2),
        team_b=team_for_pair(b1, b2),
        seats=(a1, b1, a2, b2),
        ruleset_preset=ruleset_preset,
        table=table,
        created_by=created_by,
        public=public,
    )
