"""Fixtures of the scoring API tests: accounts, a game ready for hands, an API client."""

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.core.cache import cache
from rest_framework.test import APIClient

from scoring.models import Game
from tests.scoring.factories import GameFactory, UserFactory


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Iterator[None]:
    """Throttle counts live in the cache: each test starts with none."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def keeper(db: None) -> Any:
    return UserFactory.create(username="keeper")


@pytest.fixture
def stranger(db: None) -> Any:
    return UserFactory.create(username="stranger")


@pytest.fixture
def director(db: None) -> Any:
    """A director by permission (not staff), as a tournament would appoint one."""
    user = UserFactory.create(username="director")
    user.user_permissions.add(Permission.objects.get(codename="direct_games"))
    return user


@pytest.fixture
def game(keeper: Any) -> Game:
    """A running game, first dealer seat 0, scored by ``keeper``."""
    return GameFactory.create(created_by=keeper, table="Table 4")


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


@pytest.fixture
def api(keeper: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(keeper)
    return client


def current(game: Any) -> dict[str, str]:
    """``If-Match`` with the game's ETag as it is now in the database."""
    from scoring.models import Game

    return {"If-Match": f'"{Game.objects.get(pk=game.pk).version}"'}


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client
