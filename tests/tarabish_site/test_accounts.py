"""Every account signs in on the pages (not only staff), and signs out; guessing is limited."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scoring.models import Game
from tests.scoring.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_scorekeeper_signs_in_on_the_pages_and_lands_on_the_pad(client: Client) -> None:
    keeper = get_user_model().objects.create_user("keeper", password="a long pass phrase")
    game: Game = GameFactory.create(created_by=keeper)
    pad = reverse("scoring:game-pad", args=[game.pk])
    watching = client.get(pad).content.decode()
    sign_in = f"{reverse('login')}?next={pad}"
    assert f'href="{sign_in}"' in watching

    assert client.get(reverse("login"), {"next": pad}).status_code == 200
    wrong = client.post(reverse("login"), {"username": "keeper", "password": "wrong", "next": pad})
    assert wrong.status_code == 200
    assert "Please enter a correct username and password" in wrong.content.decode()

    signed_in = client.post(
        reverse("login"), {"username": "keeper", "password": "a long pass phrase", "next": pad}
    )
    assert signed_in.status_code == 302
    assert signed_in["Location"] == pad
    text = client.get(pad).content.decode()
    assert "You are watching this game" not in text
    assert "Sign out" in text

    out = client.post(reverse("logout"))
    assert out.status_code == 302
    assert "You are watching this game" in client.get(pad).content.decode()


def test_guessing_passwords_on_the_pages_is_limited(client: Client, settings: object) -> None:
    cache.clear()
    UserFactory(username="keeper")
    for _ in range(10):  # the login rate of the test settings
        client.post(reverse("login"), {"username": "keeper", "password": "guess"})
    refused = client.post(reverse("login"), {"username": "keeper", "password": "guess"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert "Too many attempts to sign in" in refused.content.decode()
