"""Deliveries to a real HTTP receiver: written with their cause, signed, retried with backoff,
logged, redelivered, and a subscription disabled after failures in a row."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.test import override_settings
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from tarabish_site import events
from tests.faults.test_broker_down import broker_down
from tests.tournaments.helpers import win_match
from tests.webhooks.helpers import running_match, subscribe
from tests.webhooks.receiver import Received, running_receiver
from tournaments.models import Match
from tournaments.services import match_game_start
from webhooks import services, signing
from webhooks.models import Delivery, DeliveryAttempt, Subscription

pytestmark = pytest.mark.django_db


def _verified(secret: str, request: Received) -> Any:
    signing.verify(secret, request.headers["Tarabish-Signature"], request.body)
    return request.payload


def test_a_match_played_reaches_the_receiver_signed(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = running_match()
    tournament = match.stage.tournament
    with running_receiver() as receiver:
        subscription = subscribe(tournament, receiver.url)
        with django_capture_on_commit_callbacks(execute=True):
            win_match(match, "home")
    started = [_verified(subscription.secret, r) for r in receiver.of(events.MATCH_STARTED)]
    assert len(started) == 1
    payload = started[0]
    assert set(payload) == {"id", "event", "created", "tournament", "data"}
    assert payload["tournament"] == tournament.slug
    assert payload["data"]["match"] == match.pk
    assert payload["data"]["state"] == Match.State.IN_PROGRESS
    results = [_verified(subscription.secret, r) for r in receiver.of(events.MATCH_RESULT)]
    assert results[-1]["data"]["winner"] == match.home_id
    assert results[-1]["data"]["state"] == Match.State.COMPLETE
    hands = [_verified(subscription.secret, r) for r in receiver.of(events.HAND_ENTERED)]
    assert hands
    assert [h["data"]["hand"] for h in hands] == list(range(1, len(hands) + 1))
    assert hands[-1]["data"]["game_status"] != "in_progress"
    standings = [_verified(subscription.secret, r) for r in receiver.of(events.STANDINGS_CHANGED)]
    assert standings
    assert {row["entry"] for row in standings[-1]["data"]["standings"]} >= {
        match.home_id,
        match.away_id,
    }
    first = receiver.requests[0]
    assert first.path == "/hooks/tarabish?club=legion"
    assert first.headers["Content-Type"] == "application/json"
    assert first.headers["Tarabish-Delivery"] == first.payload["id"]
    # Every delivery is logged, delivered at its first attempt, its id the payload's.
    deliveries = Delivery.objects.filter(subscription=subscription)
    assert deliveries.count() == len(receiver.requests)
    assert set(deliveries.values_list("state", flat=True)) == {Delivery.State.DELIVERED}
    assert {str(d.pk) for d in deliveries} == {r.payload["id"] for r in receiver.requests}
    attempt = DeliveryAttempt.objects.filter(delivery__subscription=subscription).first()
    assert attempt is not None
    assert (attempt.status_code, attempt.response_body) == (200, "status 200")


def test_only_the_events_asked_for_are_recorded(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = running_match()
    with running_receiver() as receiver:
        subscribe(match.stage.tournament, receiver.url, events.MATCH_RESULT)
        with django_capture_on_commit_callbacks(execute=True):
            win_match(match, "away")
    assert {r.headers["Tarabish-Event"] for r in receiver.requests} == {events.MATCH_RESULT}


def test_the_event_is_written_in_its_cause_transaction_or_not_at_all() -> None:
    match = running_match()
    subscribe(match.stage.tournament, "http://127.0.0.1:9/hook", events.MATCH_STARTED)
    recorded = []

    def start_then_fail() -> None:
        with transaction.atomic():
            match_game_start(match_id=match.pk, actor=None, first_dealer=0)
            recorded.append(Delivery.objects.filter(event=events.MATCH_STARTED).count())
            raise RuntimeError("the cause fails after the event was recorded")

    with pytest.raises(RuntimeError):
        start_then_fail()
    assert recorded == [1]
    assert not Delivery.objects.exists()


def test_a_receiver_that_fails_then_recovers_gets_it_after_a_backoff(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = running_match()
    with running_receiver(500, 200) as receiver:
        subscription = subscribe(match.stage.tournament, receiver.url, events.MATCH_STARTED)
        before = timezone.now()
        with django_capture_on_commit_callbacks(execute=True):
            match_game_start(match_id=match.pk, actor=None, first_dealer=0)
        delivery = Delivery.objects.get(subscription=subscription)
        assert (delivery.state, delivery.attempts, delivery.last_status) == ("pending", 1, 500)
        wait = (delivery.next_attempt_at - before).total_seconds()
        assert 15 <= wait <= 31  # 30 s, with jitter down to half
        assert services.deliveries_send_due() == 0  # not due yet
        assert len(receiver.requests) == 1
        assert services.deliveries_send_due(now=delivery.next_attempt_at) == 1
    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts, delivery.last_status) == ("delivered", 2, 200)
    assert [r.payload["id"] for r in receiver.requests] == [str(delivery.pk)] * 2
    log = list(delivery.attempt_log.values_list("number", "status_code", "response_body"))
    assert log == [(1, 500, "status 500"), (2, 200, "status 200")]
    subscription.refresh_from_db()
    assert subscription.consecutive_failures == 0


def test_backoff_doubles_up_to_its_ceiling_with_jitter() -> None:
    class Top:
        def uniform(self, low: float, high: float) -> float:
            return high

    assert [services.backoff(n, Top()) for n in (1, 2, 3)] == [30.0, 60.0, 120.0]  # type: ignore[arg-type]
    assert services.backoff(30, Top()) == 3600.0  # type: ignore[arg-type]
    assert all(15 <= services.backoff(1) <= 30 for _ in range(50))


@override_settings(WEBHOOK_DISABLE_AFTER=3, WEBHOOK_MAX_ATTEMPTS=2)
def test_a_subscription_failing_again_and_again_is_disabled_then_enabled_again(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = running_match()
    tournament = match.stage.tournament
    with running_receiver(503) as receiver:
        subscription = subscribe(tournament, receiver.url, events.MATCH_STARTED)
        with django_capture_on_commit_callbacks(execute=True):
            match_game_start(match_id=match.pk, actor=None, first_dealer=0)
        first = Delivery.objects.get()
        services.deliveries_send_due(now=timezone.now() + timedelta(hours=1))
        first.refresh_from_db()
        assert (first.state, first.attempts) == (Delivery.State.FAILED, 2)  # gave up
        subscription.refresh_from_db()
        assert subscription.active
        other = Match.objects.filter(stage=match.stage, state=Match.State.READY).exclude(
            pk=match.pk
        )[0]
        with django_capture_on_commit_callbacks(execute=True):
            match_game_start(match_id=other.pk, actor=None, first_dealer=0)
        subscription.refresh_from_db()
        assert not subscription.active
        assert subscription.consecutive_failures == 3
        assert "3 deliveries failed in a row" in subscription.disabled_reason
        assert "HTTP 503" in subscription.disabled_reason
        waiting = Delivery.objects.get(state=Delivery.State.PENDING)
        sent = len(receiver.requests)
        # Disabled: nothing is sent, nothing new is recorded.
        assert services.deliveries_send_due(now=timezone.now() + timedelta(hours=1)) == 0
        third = Match.objects.filter(stage=match.stage, state=Match.State.READY)[0]
        with django_capture_on_commit_callbacks(execute=True):
            match_game_start(match_id=third.pk, actor=None, first_dealer=0)
        assert Delivery.objects.count() == 2
        assert len(receiver.requests) == sent
        receiver.statuses[:] = [200]
        with django_capture_on_commit_callbacks(execute=True):
            services.subscription_enable(
                tournament=tournament, subscription_id=subscription.pk, actor=tournament.organiser
            )
    waiting.refresh_from_db()
    subscription.refresh_from_db()
    assert waiting.state == Delivery.State.DELIVERED
    assert (subscription.active, subscription.consecutive_failures) == (True, 0)
    assert subscription.disabled_reason == ""


def test_a_delivery_is_redelivered_by_hand(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = running_match()
    tournament = match.stage.tournament
    with running_receiver() as receiver:
        subscription = subscribe(tournament, receiver.url, events.MATCH_STARTED)
        with django_capture_on_commit_callbacks(execute=True):
            match_game_start(match_id=match.pk, actor=None, first_dealer=0)
        delivery = Delivery.objects.get()
        assert delivery.state == Delivery.State.DELIVERED
        with django_capture_on_commit_callbacks(execute=True):
            services.delivery_redeliver(
                tournament=tournament,
                subscription_id=subscription.pk,
                delivery_id=delivery.pk,
                actor=tournament.organiser,
            )
    bodies = [r.body for r in receiver.requests]
    assert len(bodies) == 2
    assert bodies[0] == bodies[1]  # the same event, id and body, signed anew
    for request in receiver.requests:
        _verified(subscription.secret, request)
    assert list(delivery.attempt_log.values_list("number", "manual")) == [(1, False), (2, True)]


def test_a_redirect_is_not_followed(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = running_match()
    with running_receiver(302) as receiver:
        subscribe(match.stage.tournament, receiver.url, events.MATCH_STARTED)
        with django_capture_on_commit_callbacks(execute=True):
            match_game_start(match_id=match.pk, actor=None, first_dealer=0)
    delivery = Delivery.objects.get()
    assert (delivery.state, delivery.last_status) == (Delivery.State.PENDING, 302)
    assert len(receiver.requests) == 1


@override_settings(WEBHOOK_CONNECT_TIMEOUT=0.5, WEBHOOK_READ_TIMEOUT=0.5)
def test_no_receiver_listening_is_a_logged_failure(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = running_match()
    with running_receiver() as receiver:
        url = receiver.url
    subscribe(match.stage.tournament, url, events.MATCH_STARTED)  # nobody listens there now
    with django_capture_on_commit_callbacks(execute=True):
        match_game_start(match_id=match.pk, actor=None, first_dealer=0)
    attempt = DeliveryAttempt.objects.get()
    assert attempt.status_code is None
    assert "ConnectionRefusedError" in attempt.error


def test_an_address_refused_at_send_time_is_a_logged_failure(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = running_match()
    subscription = subscribe(match.stage.tournament, "http://127.0.0.1:9/", events.MATCH_STARTED)
    with (
        override_settings(WEBHOOK_ALLOWED_NETWORKS=[]),
        django_capture_on_commit_callbacks(execute=True),
    ):
        match_game_start(match_id=match.pk, actor=None, first_dealer=0)
    attempt = DeliveryAttempt.objects.get(delivery__subscription=subscription)
    assert attempt.error.startswith("refused: 127.0.0.1 resolves to 127.0.0.1, a loopback")


def test_the_outbox_outlives_a_dead_broker(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = running_match()
    with running_receiver() as receiver:
        subscription = subscribe(match.stage.tournament, receiver.url, events.MATCH_STARTED)
        with broker_down() as sent, django_capture_on_commit_callbacks(execute=True):
            match_game_start(match_id=match.pk, actor=None, first_dealer=0)
        assert sent.called  # the task was tried, and not sent
        assert receiver.requests == []
        delivery = Delivery.objects.get(subscription=subscription)
        assert delivery.state == Delivery.State.PENDING
        # The broker is back: the periodic sweep sends what waited.
        assert services.deliveries_send_due() == 1
    delivery.refresh_from_db()
    assert delivery.state == Delivery.State.DELIVERED
    assert len(receiver.requests) == 1


def test_an_inactive_subscription_records_nothing() -> None:
    match = running_match()
    subscription = subscribe(match.stage.tournament, "http://127.0.0.1:9/", events.MATCH_STARTED)
    Subscription.objects.filter(pk=subscription.pk).update(active=False)
    match_game_start(match_id=match.pk, actor=None, first_dealer=0)
    assert not Delivery.objects.exists()
