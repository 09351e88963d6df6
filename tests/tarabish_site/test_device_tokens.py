"""Device tokens: one a device, stored hashed, expiring unless used, listed and revoked by
their owner and by staff."""

import hashlib
from datetime import timedelta
from importlib import import_module
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from tarabish_site.core.models import DeviceToken
from tarabish_site.core.services import device_tokens_expire

pytestmark = pytest.mark.django_db
PASSWORD = "a long passphrase"


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Any:
    cache.clear()
    yield
    cache.clear()


def sign_in(username: str = "keeper", device: str = "Table 4 tablet") -> Any:
    body = {"username": username, "password": PASSWORD, "device": device}
    return APIClient().post("/api/v1/auth/token/", body, format="json")


def as_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


@pytest.fixture
def keeper() -> User:
    return User.objects.create_user("keeper", password=PASSWORD)


def test_signing_in_gives_a_token_stored_only_as_its_digest(keeper: User) -> None:
    response = sign_in()
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    body = response.json()
    assert body["device"] == "Table 4 tablet"
    assert body["user"] == "keeper"
    row = DeviceToken.objects.get()
    assert row.digest == hashlib.sha512(body["token"].encode()).hexdigest()
    assert body["token"] not in {row.digest, row.token_key}
    expiry = row.expiry
    assert expiry is not None
    assert timedelta(days=29) < expiry - timezone.now() <= timedelta(days=30)
    assert as_token(body["token"]).get("/api/v1/auth/tokens/").status_code == 200


def test_a_wrong_or_revoked_or_expired_token_is_refused(keeper: User) -> None:
    token = sign_in().json()["token"]
    assert as_token(token[:-1] + "x").get("/api/v1/auth/tokens/").status_code == 401
    DeviceToken.objects.update(expiry=timezone.now() - timedelta(seconds=1))
    assert as_token(token).get("/api/v1/auth/tokens/").status_code == 401
    assert device_tokens_expire() == 1
    assert not DeviceToken.objects.exists()


def test_using_a_token_moves_its_expiry_on(keeper: User) -> None:
    token = sign_in().json()["token"]
    soon = timezone.now() + timedelta(days=1)
    DeviceToken.objects.update(expiry=soon)
    assert as_token(token).get("/api/v1/auth/tokens/").status_code == 200
    expiry = DeviceToken.objects.get().expiry
    assert expiry is not None
    assert expiry > soon + timedelta(days=28)


def test_checking_a_token_is_one_query(keeper: User) -> None:
    token = sign_in().json()["token"]
    sign_in(device="Phone")  # another token of the same account is not read
    client = as_token(token)
    client.get("/api/v1/games/")  # the expiry moved on once
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/v1/games/").status_code == 200
    token_queries = [q for q in queries.captured_queries if "core_devicetoken" in q["sql"]]
    assert len(token_queries) == 1


def test_an_owner_lists_and_revokes_their_tokens_and_no_one_elses(keeper: User) -> None:
    User.objects.create_user("other", password=PASSWORD)
    mine = sign_in().json()
    phone = sign_in(device="Phone").json()
    theirs = sign_in("other").json()
    client = as_token(mine["token"])
    listed = client.get("/api/v1/auth/tokens/").json()["results"]
    assert sorted(t["device"] for t in listed) == ["Phone", "Table 4 tablet"]
    assert all("token" not in t for t in listed)
    assert client.delete(f"/api/v1/auth/tokens/{theirs['id']}/").status_code == 404
    assert client.delete(f"/api/v1/auth/tokens/{phone['id']}/").status_code == 204
    assert as_token(phone["token"]).get("/api/v1/auth/tokens/").status_code == 401
    assert as_token(theirs["token"]).get("/api/v1/auth/tokens/").status_code == 200


def test_staff_list_and_revoke_everyones_tokens(keeper: User) -> None:
    User.objects.create_user("boss", password=PASSWORD, is_staff=True)
    lost = sign_in(device="Lost phone").json()
    boss = as_token(sign_in("boss").json()["token"])
    assert {t["user"] for t in boss.get("/api/v1/auth/tokens/").json()["results"]} == {
        "keeper",
        "boss",
    }
    assert boss.delete(f"/api/v1/auth/tokens/{lost['id']}/").status_code == 204
    assert as_token(lost["token"]).get("/api/v1/auth/tokens/").status_code == 401


def test_a_throttled_sign_in_says_when_to_try_again(
    keeper: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "login", "2/minute")
    assert [sign_in().status_code for _ in range(2)] == [200, 200]
    refused = sign_in()  # the right password, but too soon
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    assert "seconds" in refused.json()["message"]


def test_a_key_from_before_device_tokens_keeps_working(keeper: User) -> None:
    """The migration turns each plain API key into a device token of the same value."""
    migration = import_module("tarabish_site.core.migrations.0004_device_tokens")
    key = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO authtoken_token (key, user_id, created) VALUES (%s, %s, %s)",
            [key, keeper.pk, timezone.now()],
        )
    from django.apps import apps

    migration.tokens_from_keys(apps, None)
    assert as_token(key).get("/api/v1/auth/tokens/").json()["results"][0]["device"] == (
        "API token from before device tokens"
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM authtoken_token")
        assert cursor.fetchone() == (0,)
