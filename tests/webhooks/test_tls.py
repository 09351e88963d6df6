"""Deliveries over HTTPS to a real TLS receiver (``http.server`` behind ``ssl``), its
certificate made for the test by an authority of its own: delivered when that authority is
trusted (``WEBHOOK_CA_BUNDLE``), a failed attempt (logged, tried again) when it is not, and
never sent without the certificate verified."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import override_settings
from pytest_django import DjangoCaptureOnCommitCallbacks

from tarabish_site import events
from tests.webhooks.certificates import Authority, make_authority
from tests.webhooks.helpers import running_match, subscribe
from tests.webhooks.receiver import running_receiver
from tournaments.services import match_game_start
from webhooks import client, services, signing
from webhooks.models import Delivery

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def authorities(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Authority]:
    directory = tmp_path_factory.mktemp("certificates")
    return {name: make_authority(directory, name) for name in ("trusted", "stranger")}


def test_a_receiver_over_https_gets_the_delivery_its_certificate_verified(
    authorities: dict[str, Authority],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    trusted = authorities["trusted"]
    match = running_match()
    with (
        override_settings(WEBHOOK_CA_BUNDLE=str(trusted.ca_file)),
        running_receiver(tls=trusted.server_context()) as receiver,
    ):
        assert receiver.url.startswith("https://127.0.0.1:")
        subscription = subscribe(match.stage.tournament, receiver.url, events.MATCH_STARTED)
        with django_capture_on_commit_callbacks(execute=True):
            match_game_start(match_id=match.pk, actor=None, first_dealer=0)
    (request,) = receiver.requests
    signing.verify(subscription.secret, request.headers["Tarabish-Signature"], request.body)
    assert request.payload["event"] == events.MATCH_STARTED
    delivery = Delivery.objects.get(subscription=subscription)
    assert (delivery.state, delivery.attempts, delivery.last_status) == ("delivered", 1, 200)


def test_an_untrusted_certificate_is_a_failed_attempt_and_nothing_is_sent(
    authorities: dict[str, Authority],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    """A receiver whose certificate no trusted authority signed gets nothing (the handshake
    is refused before a byte of the body is sent); the attempt is logged with the reason and
    tried again after the backoff, and goes through once its authority is trusted."""
    match = running_match()
    stranger = authorities["stranger"]
    with (
        override_settings(WEBHOOK_CA_BUNDLE=str(authorities["trusted"].ca_file)),
        running_receiver(tls=stranger.server_context()) as receiver,
    ):
        subscription = subscribe(match.stage.tournament, receiver.url, events.MATCH_STARTED)
        with django_capture_on_commit_callbacks(execute=True):
            match_game_start(match_id=match.pk, actor=None, first_dealer=0)
        delivery = Delivery.objects.get(subscription=subscription)
        assert (delivery.state, delivery.attempts, delivery.last_status) == ("pending", 1, None)
        (attempt,) = delivery.attempt_log.all()
        assert attempt.status_code is None
        assert "CERTIFICATE_VERIFY_FAILED" in attempt.error
        assert receiver.requests == []
        subscription.refresh_from_db()
        assert subscription.consecutive_failures == 1

        with override_settings(WEBHOOK_CA_BUNDLE=str(stranger.ca_file)):
            assert services.deliveries_send_due(now=delivery.next_attempt_at) == 1
    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts, delivery.last_status) == ("delivered", 2, 200)
    assert len(receiver.requests) == 1


def test_the_system_authorities_alone_do_not_trust_a_private_one(
    authorities: dict[str, Authority],
) -> None:
    """Without a bundle only the system's authorities are trusted; a bundle that cannot be
    read fails the attempt (saying why) rather than the worker."""
    with running_receiver(tls=authorities["trusted"].server_context()) as receiver:
        refused = client.post(
            receiver.url, b"{}", {}, connect_timeout=3, read_timeout=3, ca_bundle=""
        )
        missing = client.post(
            receiver.url,
            b"{}",
            {},
            connect_timeout=3,
            read_timeout=3,
            ca_bundle=str(Path(authorities["trusted"].ca_file).with_name("nothing.pem")),
        )
    assert (refused.ok, refused.status) == (False, None)
    assert "CERTIFICATE_VERIFY_FAILED" in refused.error
    assert (missing.ok, missing.status) == (False, None)
    assert "FileNotFoundError" in missing.error
    assert receiver.requests == []
