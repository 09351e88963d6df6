"""Players and teams: found by name or pair, and created once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction

from scoring.models import Player, Team
from scoring.services.names import _name_checked, name_normalised, name_refused_why
from tarabish_site.api.errors import Conflict, ValidationFailed

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def player_named(display_name: str, community: str = "") -> Player | None:
    """The player of this name in this community, whatever the case each was typed in: "w ann"
    of "sydney", typed on a phone, is W Ann of Sydney, not a second player. Names are
    compared as :func:`name_normalised` stores them."""
    return (
        Player.objects.filter(
            display_name__iexact=name_normalised(display_name),
            community__iexact=name_normalised(community),
        )
        .order_by("pk")
        .first()
    )


@transaction.atomic
def player_create(*, display_name: str, community: str = "", user: User | None = None) -> Player:
    """A new player; the name (normalised, :func:`name_normalised`) must be new in its
    community (in any case)."""
    name = _name_checked(display_name, "display_name", "a display name", 100)
    community = name_normalised(community)
    why = name_refused_why(community)
    if why:
        raise ValidationFailed(f"a community {why}", fields={"community": [f"a community {why}"]})
    if len(community) > 100:
        raise ValidationFailed(
            "a community is at most 100 characters",
            fields={"community": ["a community is at most 100 characters"]},
        )
    existing = player_named(name, community)
    if existing is not None:
        message = f'there is already a player "{existing}" (player {existing.pk})'
        raise Conflict(message, code="player_exists", fields={"display_name": [message]})
    if user is not None and Player.objects.filter(user=user).exists():
        message = "this user account is already linked to a player"
        raise Conflict(message, code="user_has_player", fields={"user": [message]})
    return Player.objects.create(display_name=name, community=community, user=user)


def team_find(*, player_one: Player, player_two: Player) -> Team | None:
    """The team of this pair (in either order), if there is one."""
    for team in Team.objects.filter(
        player_one__in=(player_one, player_two), player_two__in=(player_one, player_two)
    ):
        return team
    return None


@transaction.atomic
def team_create(*, player_one: Player, player_two: Player, name: str = "") -> Team:
    """A partnership of two players. A pair is one team, whatever the order."""
    if player_one.pk == player_two.pk:
        message = "a team is two different players"
        raise ValidationFailed(message, fields={"player_two": [message]})
    existing = team_find(player_one=player_one, player_two=player_two)
    if existing is not None:
        message = (
            f'{player_one} and {player_two} are already team "{existing}" (team {existing.pk})'
        )
        raise Conflict(message, code="team_exists", fields={"player_two": [message]})
    name = (name or "").strip() or f"{player_one.display_name} & {player_two.display_name}"
    if len(name) > 120:
        raise ValidationFailed(
            "a team name is at most 120 characters",
            fields={"name": ["a team name is at most 120 characters"]},
        )
    try:
        with transaction.atomic():
            return Team.objects.create(name=name, player_one=player_one, player_two=player_two)
    except IntegrityError:
        message = f"{player_one} and {player_two} are already a team"
        raise Conflict(message, code="team_exists", fields={"player_two": [message]}) from None
