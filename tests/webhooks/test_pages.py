"""The director's webhooks pages: list and add (the secret shown once), a subscription's
deliveries with their attempts, send again, enable again, remove."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings
from pytest_django import DjangoCaptureOnCommitCallbacks

from tarabish_site import events
from tests.scoring.factories import UserFactory, record_hands
from tests.webhooks.helpers import running_match, subscribe
from tests.webhooks.receiver import running_receiver
from tournaments.models import Match
from tournaments.services import match_game_start
from webhooks.models import Delivery, Subscription

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _list(match: Match) -> str:
    return f"/tournaments/{match.stage.tournament.slug}/webhooks/"


def test_a_director_adds_a_webhook_and_sees_its_secret_once() -> None:
    match = running_match()
    director = signed_in(match.stage.tournament.organiser)
    page = director.get(_list(match))
    assert page.status_code == 200
    assert "No webhook yet." in page.content.decode()
    added = director.post(
        _list(match),
        {"url": "http://127.0.0.1:9/hook", "events": ["match.result", "standings.changed"]},
    )
    assert added.status_code == 200
    subscription = Subscription.objects.get()
    assert subscription.events == ["match.result", "standings.changed"]
    assert subscription.secret in added.content.decode()
    again = director.get(_list(match)).content.decode()
    assert "http://127.0.0.1:9/hook" in again
    assert subscription.secret not in again
    day = director.get(f"/tournaments/{match.stage.tournament.slug}/director/").content.decode()
    assert _list(match) in day


def test_the_events_are_described_in_the_pages_language() -> None:
    match = running_match()
    director = signed_in(match.stage.tournament.organiser)
    french = director.get(_list(match), HTTP_ACCEPT_LANGUAGE="fr-ca").content.decode()
    assert "le classement d&#x27;une phase a bougé" in french
    assert "a stage&#x27;s standings moved" not in french
    assert "a stage&#x27;s standings moved" in director.get(_list(match)).content.decode()


@override_settings(WEBHOOK_ALLOWED_NETWORKS=[])
def test_a_refused_url_is_said_next_to_its_field_and_the_form_kept() -> None:
    match = running_match()
    page = signed_in(match.stage.tournament.organiser).post(
        _list(match),
        {"url": "http://10.0.0.4/hook", "events": ["match.result"], "description": "board"},
    )
    assert page.status_code == 400
    html = page.content.decode()
    assert 'id="webhook-url-error">10.0.0.4 resolves to 10.0.0.4, a private address' in html
    assert 'value="board"' in html
    assert 'value="match.result" checked' in html
    assert not Subscription.objects.exists()
    none_chosen = signed_in(match.stage.tournament.organiser).post(
        _list(match), {"url": "https://93.184.215.14/"}
    )
    assert none_chosen.status_code == 400
    assert 'id="webhook-events-error">choose at least one event' in none_chosen.content.decode()


def test_only_directors_reach_the_pages() -> None:
    match = running_match()
    tournament = match.stage.tournament
    tournament.public = True
    tournament.save()
    subscription = subscribe(tournament, "http://127.0.0.1:9/")
    stranger = signed_in(UserFactory())
    assert stranger.get(_list(match)).status_code == 403
    assert stranger.get(f"{_list(match)}{subscription.pk}/").status_code == 403
    assert stranger.post(f"{_list(match)}{subscription.pk}/delete/").status_code == 403
    assert Subscription.objects.exists()
    anonymous = Client().get(_list(match))
    assert anonymous.status_code == 302
    assert "/accounts/sign-in/" in anonymous["Location"]


@override_settings(WEBHOOK_DISABLE_AFTER=1)
def test_deliveries_are_shown_sent_again_and_a_disabled_webhook_enabled(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = running_match()
    tournament = match.stage.tournament
    director = signed_in(tournament.organiser)
    with running_receiver(503) as receiver:
        subscription = subscribe(tournament, receiver.url, events.MATCH_STARTED)
        with django_capture_on_commit_callbacks(execute=True):
            match_game_start(match_id=match.pk, actor=None, first_dealer=0)
        page = director.get(f"{_list(match)}{subscription.pk}/").content.decode()
        assert "Disabled: 1 deliveries failed in a row, the last: HTTP 503" in page
        assert "HTTP 503" in page
        receiver.statuses[:] = [200]
        with django_capture_on_commit_callbacks(execute=True):
            enabled = director.post(f"{_list(match)}{subscription.pk}/enable/")
        assert enabled.status_code == 302
        delivery = Delivery.objects.get()
        assert delivery.state == Delivery.State.DELIVERED
        with django_capture_on_commit_callbacks(execute=True):
            again = director.post(
                f"{_list(match)}{subscription.pk}/deliveries/{delivery.pk}/redeliver/"
            )
        assert again.status_code == 302
    page = director.get(f"{_list(match)}{subscription.pk}/").content.decode()
    assert "The delivery is being sent again." in page
    assert "sent again by hand" in page
    assert len(receiver.requests) == 3
    assert (
        director.post(f"{_list(match)}{subscription.pk}/deliveries/nope/redeliver/").status_code
        == 404
    )
    removed = director.post(f"{_list(match)}{subscription.pk}/delete/")
    assert removed["Location"] == _list(match)
    assert not Subscription.objects.exists()


def test_a_webhook_page_takes_a_fixed_number_of_queries(django_assert_max_num_queries: Any) -> None:
    match = running_match()
    tournament = match.stage.tournament
    subscription = subscribe(tournament, "http://127.0.0.1:9/", events.HAND_ENTERED)
    game = match_game_start(match_id=match.pk, actor=None, first_dealer=0).game
    director = signed_in(tournament.organiser)
    record_hands(game, 1)
    url = f"{_list(match)}{subscription.pk}/"
    with django_assert_max_num_queries(12) as few:
        assert director.get(url).status_code == 200
    record_hands(game, 3)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert director.get(url).content.decode().count('id="delivery-') == 4
