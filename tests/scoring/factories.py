# mypy: disable-error-code="no-untyped-call,attr-defined"
"""Factories for the scoring models (shared by the API, pages and tournaments tests).

Games are created through :func:`scoring.services.game_create`, so their derived columns are
what the engine says; hands go through :func:`scoring.services.hand_record` (see
:func:`record_hand`), never straight into the table.
"""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model

from scoring import services
from scoring.models import Game, Hand, Player, Team


class UserFactory(factory.django.DjangoModelFactory[Any]):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"scorekeeper{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("tarabish-test")

    class Params:
        director = factory.Trait(is_staff=True)


class PlayerFactory(factory.django.DjangoModelFactory[Player]):
    class Meta:
        model = Player

    display_name = factory.Sequence(lambda n: f"Player {n}")
    community = factory.Iterator(["Glace Bay", "Sydney", "North Sydney", "Cheticamp", "Baddeck"])


class TeamFactory(factory.django.DjangoModelFactory[Team]):
    class Meta:
        model = Team

    player_one = factory.SubFactory(PlayerFactory)
    player_two = factory.SubFactory(PlayerFactory)
    name = factory.LazyAttribute(
        lambda t: f"{t.player_one.display_name} & {t.player_two.display_name}"
    )


class GameFactory(factory.django.DjangoModelFactory[Game]):
    """A game made by ``game_create``. ``first_dealer`` defaults to seat 0 (None: not chosen)."""

    class Meta:
        model = Game

    team_a = factory.SubFactory(TeamFactory)
    team_b = factory.SubFactory(TeamFactory)
    ruleset_preset = "cape-breton-standard"
    first_dealer: Any = 0
    table = factory.Sequence(lambda n: f"Table {n}")
    created_by = None

    @classmethod
    def _create(cls, model_class: type[Game], *args: Any, **kwargs: Any) -> Game:
        ruleset = kwargs.pop("ruleset", None)
        return services.game_create(
            team_a=kwargs.pop("team_a"),
            team_b=kwargs.pop("team_b"),
            seats=kwargs.pop("seats", None),
            ruleset=ruleset or None,
            ruleset_preset=kwargs.pop("ruleset_preset", None),
            first_dealer=kwargs.pop("first_dealer", None),
            table=kwargs.pop("table", ""),
            created_by=kwargs.pop("created_by", None),
            scorekeepers=kwargs.pop("scorekeepers", ()),
            public=kwargs.pop("public", True),
        )


def summary(
    caller: int | None,
    trump: str | None = "H",
    card_points: Any = (92, 70),
    **more: Any,
) -> dict[str, Any]:
    """A summary entry (card points per team, engine team 0 = team A first)."""
    entry: dict[str, Any] = {"caller": caller, "trump": trump}
    if card_points is not None:
        entry["card_points"] = (
            list(card_points) if isinstance(card_points, list | tuple) else card_points
        )
    entry.update(more)
    return entry


def record_hand(game: Game, entry: dict[str, Any] | None = None, **kwargs: Any) -> Hand:
    """Enter one summary hand (default: team A calls hearts and makes it, 92-70)."""
    return services.hand_record(
        game=game,
        entry_kind=kwargs.pop("entry_kind", Hand.EntryKind.SUMMARY),
        entry=entry if entry is not None else summary(caller=0),
        by=kwargs.pop("by", None),
        number=kwargs.pop("number", None),
    )


def record_hands(game: Game, count: int, points: tuple[int, int] = (92, 70)) -> list[Hand]:
    """Enter ``count`` hands that seat 0 calls in hearts, each worth ``points`` to the teams."""
    return [record_hand(game, summary(caller=0, card_points=points)) for _ in range(count)]
