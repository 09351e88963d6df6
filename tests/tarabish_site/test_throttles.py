"""Writes and log-ins are rate limited; reads are not; the token endpoint works."""

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

from tarabish_site.api.throttles import WritesThrottle


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.mark.django_db
@pytest.mark.urls("tests.tarabish_site.plumbing_urls")
def test_writes_are_limited_per_user_and_reads_are_not(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(api_settings.DEFAULT_THROTTLE_RATES, "writes", "2/minute")
    api = APIClient()
    api.force_authenticate(User.objects.create_user("busy"))
    assert [api.post("/groups/", {"name": n}).status_code for n in "ab"] == [201, 201]
    refused = api.post("/groups/", {"name": "c"})
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert int(refused.headers["Retry-After"]) > 0
    assert all(api.get("/groups/").status_code == 200 for _ in range(5))

    other = APIClient()
    other.force_authenticate(User.objects.create_user("calm"))
    assert other.post("/groups/", {"name": "d"}).status_code == 201


@pytest.mark.django_db
@pytest.mark.urls("tests.tarabish_site.plumbing_urls")
def test_the_write_limit_starts_again_with_the_next_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(api_settings.DEFAULT_THROTTLE_RATES, "writes", "2/minute")
    clock = [600.0]  # the start of a one-minute window
    monkeypatch.setattr(WritesThrottle, "timer", lambda self: clock[0])
    api = APIClient()
    api.force_authenticate(User.objects.create_user("busy"))
    assert [api.post("/groups/", {"name": n}).status_code for n in "ab"] == [201, 201]
    clock[0] = 645.0
    refused = api.post("/groups/", {"name": "c"})
    assert (refused.status_code, refused.headers["Retry-After"]) == (429, "15")
    clock[0] = 660.0
    assert api.post("/groups/", {"name": "c"}).status_code == 201


@pytest.mark.django_db
def test_the_token_endpoint_gives_a_new_token_each_device() -> None:
    User.objects.create_user("keeper", password="a long passphrase")
    api = APIClient()
    response = api.post(
        "/api/v1/auth/token/", {"username": "keeper", "password": "a long passphrase"}
    )
    assert response.status_code == 200
    token = response.json()["token"]
    assert len(token) == 64
    again = api.post("/api/v1/auth/token/", {"username": "keeper", "password": "a long passphrase"})
    assert again.json()["token"] != token


@pytest.mark.django_db
def test_wrong_credentials_are_a_400_in_the_error_shape() -> None:
    User.objects.create_user("keeper", password="a long passphrase")
    response = APIClient().post("/api/v1/auth/token/", {"username": "keeper", "password": "no"})
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"message", "code", "fields"}
    assert "non_field_errors" in body["fields"]


@pytest.mark.django_db
def test_log_in_attempts_are_limited_per_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(api_settings.DEFAULT_THROTTLE_RATES, "login", "3/minute")
    api = APIClient()
    statuses = [
        api.post("/api/v1/auth/token/", {"username": f"guess{i}", "password": "x"}).status_code
        for i in range(4)
    ]
    assert statuses == [400, 400, 400, 429]


@pytest.mark.django_db
def test_a_made_up_forwarded_address_does_not_escape_the_log_in_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no proxy in front (the default), each attempt's own X-Forwarded-For is not the
    client's address; behind one proxy, the address it wrote last is."""
    monkeypatch.setitem(api_settings.DEFAULT_THROTTLE_RATES, "login", "3/minute")
    api = APIClient()

    def attempt(i: int, forwarded: str) -> int:
        body = {"username": f"guess{i}", "password": "x"}
        return api.post("/api/v1/auth/token/", body, HTTP_X_FORWARDED_FOR=forwarded).status_code

    assert [attempt(i, f"10.0.0.{i}") for i in range(4)] == [400, 400, 400, 429]
    cache.clear()
    monkeypatch.setattr(api_settings, "NUM_PROXIES", 1)
    assert [attempt(i, f"10.0.0.{i}, 192.0.2.7") for i in range(4)] == [400, 400, 400, 429]
    assert attempt(9, "10.0.0.9, 192.0.2.8") == 400  # another client behind the proxy
