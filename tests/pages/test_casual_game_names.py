"""A casual game's four names find the players already there, typed as people type them."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game, Player
from tests.scoring.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_names_that_look_the_same_are_the_players_already_there(client: Client) -> None:
    ann = PlayerFactory.create(display_name="Ann Bea", community="")
    client.force_login(UserFactory.create())
    data = {
        "a_one": "ann\u00a0bea",
        "a_two": "Bob",
        "b_one": "Cy",
        "b_two": "Di",
        "ruleset_preset": "cape-breton-standard",
    }
    response = client.post(reverse("scoring:game-new"), data)
    assert response.status_code == 302
    assert Game.objects.get().seats[0] == ann
    assert Player.objects.filter(display_name__iexact="ann bea").count() == 1
