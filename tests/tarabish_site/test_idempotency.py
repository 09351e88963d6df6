"""Idempotent POSTs: one write per key, the stored response on retries, 422 and 409 otherwise."""

import threading
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from tarabish_site.api.idempotency import request_fingerprint
from tarabish_site.core.models import IdempotencyRecord
from tarabish_site.core.services import idempotency_records_expire
from tarabish_site.core.tasks import idempotency_records_expire_task
from tests.tarabish_site import plumbing_urls

pytestmark = [pytest.mark.urls("tests.tarabish_site.plumbing_urls")]


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def post(
    api: APIClient, body: dict[str, object], key: str | None, url: str = "/groups/"
) -> Any:  # the test client response
    headers = {"Idempotency-Key": key} if key is not None else {}
    return api.post(url, body, format="json", headers=headers)


@pytest.mark.django_db
def test_without_a_key_every_post_writes(api: APIClient) -> None:
    assert post(api, {"name": "a"}, None).status_code == 201
    assert post(api, {"name": "b"}, None).status_code == 201
    assert Group.objects.count() == 2
    assert not IdempotencyRecord.objects.exists()


@pytest.mark.django_db
def test_a_retry_with_the_same_key_and_body_gets_the_stored_response(api: APIClient) -> None:
    first = post(api, {"name": "table 4"}, "k-1")
    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first.headers

    again = post(api, {"name": "table 4"}, "k-1")
    assert again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Location"] == first.headers["Location"]
    assert again.headers["ETag"] == '"1"'
    assert Group.objects.count() == 1
    record = IdempotencyRecord.objects.get()
    assert (record.key, record.method, record.path, record.status_code) == (
        "k-1",
        "POST",
        "/groups/",
        201,
    )
    assert record.user is None


@pytest.mark.django_db
def test_key_order_in_the_body_does_not_matter() -> None:
    assert request_fingerprint({"a": 1, "b": [1, 2]}) == request_fingerprint({"b": [1, 2], "a": 1})
    assert request_fingerprint({"a": 1}) != request_fingerprint({"a": 2})


@pytest.mark.django_db
def test_the_same_key_with_another_body_is_refused_with_422(api: APIClient) -> None:
    post(api, {"name": "table 4"}, "k-1")
    response = post(api, {"name": "table 5"}, "k-1")
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "idempotency_key_reused"
    assert "different request" in body["message"]
    assert list(body["fields"]) == ["Idempotency-Key"]
    assert Group.objects.count() == 1


@pytest.mark.django_db
def test_the_same_key_on_another_path_is_refused_with_422(api: APIClient) -> None:
    post(api, {"name": "table 4"}, "k-1")
    response = post(api, {"name": "table 4"}, "k-1", url="/other-groups/")
    assert response.status_code == 422
    assert Group.objects.count() == 1


@pytest.mark.django_db
def test_keys_belong_to_their_user(api: APIClient) -> None:
    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob")
    api.force_authenticate(alice)
    assert post(api, {"name": "a"}, "same").status_code == 201
    api.force_authenticate(bob)
    second = post(api, {"name": "b"}, "same")
    assert second.status_code == 201
    assert "Idempotent-Replayed" not in second.headers
    assert Group.objects.count() == 2
    assert set(IdempotencyRecord.objects.values_list("user__username", flat=True)) == {
        "alice",
        "bob",
    }


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["", "has space", "x" * 256, "é"])
def test_an_unusable_key_is_a_400_naming_the_header(api: APIClient, key: str) -> None:
    response = post(api, {"name": "a"}, key)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "idempotency_key_invalid"
    assert list(body["fields"]) == ["Idempotency-Key"]
    assert not Group.objects.exists()


@pytest.mark.django_db
def test_a_failed_request_leaves_nothing_and_the_key_can_be_used_again(api: APIClient) -> None:
    failed = post(api, {"name": "a", "fail_after_write": True}, "k-1")
    assert failed.status_code == 400
    assert failed.json()["fields"] == {"fail_after_write": ["no"]}
    assert not Group.objects.exists()
    assert not IdempotencyRecord.objects.exists()

    answered = post(api, {"name": "a", "answer_400_after_write": True}, "k-1")
    assert answered.status_code == 400
    assert not Group.objects.exists()
    assert not IdempotencyRecord.objects.exists()

    fixed = post(api, {"name": "a"}, "k-1")
    assert fixed.status_code == 201
    assert Group.objects.count() == 1


@pytest.mark.django_db
def test_a_replay_writes_nothing(api: APIClient, django_assert_max_num_queries: Any) -> None:
    post(api, {"name": "a"}, "k-1")
    with django_assert_max_num_queries(3):  # savepoint, lock and look-up, release
        assert post(api, {"name": "a"}, "k-1").status_code == 201


@pytest.mark.django_db
def test_old_records_expire() -> None:
    old = IdempotencyRecord.objects.create(
        key="old", method="POST", path="/x/", fingerprint="0" * 64, status_code=201
    )
    IdempotencyRecord.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(hours=49)
    )
    IdempotencyRecord.objects.create(
        key="new", method="POST", path="/x/", fingerprint="0" * 64, status_code=201
    )
    assert idempotency_records_expire() == 1
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["new"]
    assert idempotency_records_expire(older_than=timedelta(0)) == 1
    assert idempotency_records_expire_task.delay().get() == 0


# ---------------------------------------------------------------- PostgreSQL, real concurrency


def _in_thread(results: list[Any], fn: Callable[[], Any]) -> threading.Thread:
    def run() -> None:
        try:
            results.append(fn())
        finally:
            connection.close()

    return threading.Thread(target=run)


@pytest.fixture
def hold() -> Iterator[dict[str, threading.Event]]:
    plumbing_urls.HOLD.update(entered=threading.Event(), release=threading.Event())
    yield plumbing_urls.HOLD
    plumbing_urls.HOLD["release"].set()
    plumbing_urls.HOLD.clear()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_ten_concurrent_retries_with_one_key_write_once() -> None:
    user = User.objects.create_user("scorekeeper")
    start = threading.Barrier(10)
    results: list[tuple[int, dict[str, Any]]] = []

    def send() -> tuple[int, dict[str, Any]]:
        client = APIClient()
        client.force_authenticate(user)
        start.wait()
        response = post(client, {"name": "one table"}, "retry-key")
        return response.status_code, response.json()

    threads = [_in_thread(results, send) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert len(results) == 10
    assert Group.objects.count() == 1
    assert IdempotencyRecord.objects.count() == 1
    statuses = [status for status, _ in results]
    assert set(statuses) <= {201, 409}
    created = [body for status, body in results if status == 201]
    assert created
    assert all(body == created[0] for body in created)
    for status, body in results:
        if status == 409:
            assert body["code"] == "idempotency_key_in_flight"


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_retry_while_the_first_request_runs_gets_409_then_the_response(
    hold: dict[str, threading.Event],
) -> None:
    results: list[int] = []
    first = _in_thread(results, lambda: post(APIClient(), {"name": "slow"}, "k").status_code)
    first.start()
    assert hold["entered"].wait(timeout=30)

    in_flight = post(APIClient(), {"name": "slow"}, "k")
    assert in_flight.status_code == 409
    assert in_flight.json()["code"] == "idempotency_key_in_flight"
    assert list(in_flight.json()["fields"]) == ["Idempotency-Key"]
    assert not IdempotencyRecord.objects.exists()  # nothing is visible before the commit

    hold["release"].set()
    first.join(timeout=30)
    assert results == [201]
    replay = post(APIClient(), {"name": "slow"}, "k")
    assert replay.status_code == 201
    assert replay.headers["Idempotent-Replayed"] == "true"
    assert Group.objects.count() == 1


def test_celery_beat_expires_old_records_every_hour() -> None:
    from django.conf import settings

    entry = settings.CELERY_BEAT_SCHEDULE["idempotency-records-expire"]
    assert entry["task"] == idempotency_records_expire_task.name
    assert entry["schedule"] == 3600.0
