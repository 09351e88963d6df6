"""The webhooks API: directors only, the one error shape, the secret shown once, If-Match on
changes, deliveries and their redelivery."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder
from django.test import override_settings
from pytest_django import DjangoCaptureOnCommitCallbacks
from rest_framework.test import APIClient

from tarabish_site import events
from tarabish_site.core.models import IdempotencyRecord
from tests.scoring.factories import UserFactory
from tests.webhooks.helpers import running_match
from tests.webhooks.receiver import running_receiver
from tournaments.models import Match
from tournaments.services import match_game_start
from webhooks import signing
from webhooks.models import Delivery, Subscription

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(get_user_model().objects.get(pk=user.pk))
    return client


def _url(match: Match, rest: str = "") -> str:
    return f"/api/v1/tournaments/{match.stage.tournament.slug}/webhooks/{rest}"


def test_a_director_subscribes_and_sees_the_secret_once(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = running_match()
    director = client_for(match.stage.tournament.organiser)
    with running_receiver() as receiver:
        made = director.post(
            _url(match),
            {"url": receiver.url, "events": ["match.result", "match.started"]},
            format="json",
        )
        assert made.status_code == 201, made.json()
        body = made.json()
        secret = body["secret"]
        assert secret.startswith("whsec_")
        assert body["events"] == ["match.started", "match.result"]  # in the documented order
        assert made["Location"] == _url(match, f"{body['id']}/")
        assert made["ETag"] == '"1"'
        shown = director.get(made["Location"])
        assert shown.status_code == 200
        assert "secret" not in shown.json()
        assert all("secret" not in row for row in director.get(_url(match)).json()["results"])
        with django_capture_on_commit_callbacks(execute=True):
            match_game_start(match_id=match.pk, actor=None, first_dealer=0)
    [request] = receiver.requests
    signing.verify(secret, request.headers["Tarabish-Signature"], request.body)
    deliveries = director.get(_url(match, f"{body['id']}/deliveries/")).json()["results"]
    assert [d["event"] for d in deliveries] == ["match.started"]
    assert deliveries[0]["payload"] == request.payload
    assert deliveries[0]["attempt_log"][0]["status_code"] == 200


def test_only_directors_see_or_touch_webhooks() -> None:
    match = running_match()
    tournament = match.stage.tournament
    tournament.public = True
    tournament.save()
    stranger = client_for(UserFactory())
    refused = stranger.get(_url(match))
    assert refused.status_code == 403
    assert set(refused.json()) == {"message", "code", "fields"}
    made = stranger.post(
        _url(match), {"url": "http://127.0.0.1:9/", "events": ["match.result"]}, format="json"
    )
    assert made.status_code == 403
    assert APIClient().get(_url(match)).status_code == 401
    tournament.public = False
    tournament.save()
    assert stranger.get(_url(match)).status_code == 404  # a private tournament it cannot see
    assert not Subscription.objects.exists()


@override_settings(WEBHOOK_ALLOWED_NETWORKS=[])
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"url": "http://10.0.0.8/hook", "events": ["match.result"]}, "url"),
        ({"url": "http://169.254.169.254/", "events": ["match.result"]}, "url"),
        ({"url": "ftp://example.org/", "events": ["match.result"]}, "url"),
        ({"url": "https://93.184.215.14/", "events": []}, "events"),
        ({"url": "https://93.184.215.14/", "events": ["game.won"]}, "events.0"),
        ({"url": "https://93.184.215.14/", "events": ["match.result"], "secret": "x"}, "secret"),
        ({"events": ["match.result"]}, "url"),
    ],
)
def test_a_bad_subscription_is_a_400_naming_the_field(body: dict[str, Any], field: str) -> None:
    match = running_match()
    refused = client_for(match.stage.tournament.organiser).post(_url(match), body, format="json")
    assert refused.status_code == 400
    assert field in refused.json()["fields"], refused.json()
    assert not Subscription.objects.exists()


def test_a_change_needs_the_version_read() -> None:
    match = running_match()
    director = client_for(match.stage.tournament.organiser)
    made = director.post(
        _url(match), {"url": "http://127.0.0.1:9/", "events": ["match.result"]}, format="json"
    )
    url = made["Location"]
    assert director.patch(url, {"description": "club board"}, format="json").status_code == 428
    changed = director.patch(
        url, {"description": "club board"}, format="json", headers={"If-Match": '"1"'}
    )
    assert changed.status_code == 200
    assert changed.json()["description"] == "club board"
    assert changed["ETag"] == '"2"'
    stale = director.patch(url, {"active": False}, format="json", headers={"If-Match": '"1"'})
    assert stale.status_code == 412
    off = director.patch(url, {"active": False}, format="json", headers={"If-Match": '"2"'})
    assert off.json()["active"] is False
    assert off.json()["disabled_reason"] == "disabled by a director"
    on = director.post(f"{url}enable/")
    assert on.status_code == 200
    assert on.json()["active"] is True
    assert director.delete(url).status_code == 204
    assert director.get(url).status_code == 404
    assert not Subscription.objects.exists()


@override_settings(WEBHOOK_ALLOWED_NETWORKS=[])
def test_a_url_changed_to_an_inner_address_is_refused() -> None:
    match = running_match()
    director = client_for(match.stage.tournament.organiser)
    with override_settings(WEBHOOK_ALLOWED_NETWORKS=["127.0.0.0/8"]):
        made = director.post(
            _url(match), {"url": "http://127.0.0.1:9/", "events": ["match.result"]}, format="json"
        )
    refused = director.patch(
        made["Location"],
        {"url": "http://192.168.1.20/"},
        format="json",
        headers={"If-Match": '"1"'},
    )
    assert refused.status_code == 400
    assert list(refused.json()["fields"]) == ["url"]


def test_a_delivery_is_sent_again_on_request(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = running_match()
    director = client_for(match.stage.tournament.organiser)
    with running_receiver(500) as receiver:
        made = director.post(
            _url(match), {"url": receiver.url, "events": [events.MATCH_STARTED]}, format="json"
        ).json()
        with django_capture_on_commit_callbacks(execute=True):
            match_game_start(match_id=match.pk, actor=None, first_dealer=0)
        delivery = Delivery.objects.get()
        assert delivery.state == Delivery.State.PENDING
        receiver.statuses[:] = [200]
        with django_capture_on_commit_callbacks(execute=True):
            again = director.post(_url(match, f"{made['id']}/deliveries/{delivery.pk}/redeliver/"))
        assert again.status_code == 202
    delivery.refresh_from_db()
    assert delivery.state == Delivery.State.DELIVERED
    assert len(receiver.requests) == 2
    log = director.get(_url(match, f"{made['id']}/deliveries/")).json()["results"][0]
    assert [(a["status_code"], a["manual"]) for a in log["attempt_log"]] == [
        (500, False),
        (200, True),
    ]
    missing = director.post(
        _url(match, f"{made['id']}/deliveries/00000000-0000-0000-0000-000000000000/redeliver/")
    )
    assert missing.status_code == 404


def test_reading_deliveries_takes_a_fixed_number_of_queries(
    django_assert_max_num_queries: Any,
) -> None:
    match = running_match()
    director = client_for(match.stage.tournament.organiser)
    made = director.post(
        _url(match), {"url": "http://127.0.0.1:9/", "events": ["hand.entered"]}, format="json"
    ).json()
    game = match_game_start(match_id=match.pk, actor=None, first_dealer=0).game
    from tests.scoring.factories import record_hands

    record_hands(game, 1)
    with django_assert_max_num_queries(8) as few:
        assert len(director.get(_url(match, f"{made['id']}/deliveries/")).json()["results"]) == 1
    record_hands(game, 3)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert len(director.get(_url(match, f"{made['id']}/deliveries/")).json()["results"]) == 4


def test_the_idempotency_store_keeps_no_secret_and_a_retry_gets_the_same_answer() -> None:
    """The answer that makes a subscription carries its secret; the copy kept for its
    ``Idempotency-Key`` does not (it is read again from the subscription on a retry), and once
    the subscription is removed a retry is told so rather than given a secret."""
    match = running_match()
    director = client_for(match.stage.tournament.organiser)
    body = {"url": "http://127.0.0.1:9/hook", "events": ["match.result"]}
    headers = {"Idempotency-Key": "subscribe-hall-board"}
    made = director.post(_url(match), body, format="json", headers=headers)
    assert made.status_code == 201, made.json()
    secret = made.json()["secret"]
    record = IdempotencyRecord.objects.get(key="subscribe-hall-board")
    stored = json.dumps(
        [getattr(record, field.attname) for field in IdempotencyRecord._meta.concrete_fields],
        cls=DjangoJSONEncoder,
    )
    assert secret not in stored
    kept = record.response_body
    assert isinstance(kept, dict)
    assert "secret" not in kept
    assert kept["id"] == made.json()["id"]

    again = director.post(_url(match), body, format="json", headers=headers)
    assert again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == made.json()
    assert (again["Location"], again["ETag"]) == (made["Location"], made["ETag"])
    assert Subscription.objects.count() == 1

    assert director.delete(made["Location"]).status_code == 204
    gone = director.post(_url(match), body, format="json", headers=headers)
    assert gone.status_code == 404
    assert gone.json()["code"] == "not_found"
    assert secret not in gone.content.decode()
    assert not Subscription.objects.exists()
