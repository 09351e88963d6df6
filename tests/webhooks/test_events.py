"""The events a director's disputes and a tournament's end send, and the outbox sent by a real
Celery worker (``make test-services``)."""

from __future__ import annotations

import random

import pytest
from pytest_django import DjangoCaptureOnCommitCallbacks

from scoring import services as scoring_services
from scoring.engine import preset, simulate_hand
from scoring.models import MisplayDispute
from tarabish_site import events
from tests.helpers import wait_for
from tests.scoring.factories import record_hand
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import win_match
from tests.webhooks.helpers import running_match, subscribe
from tests.webhooks.receiver import running_receiver
from tournaments.models import Entry, Match
from tournaments.services import match_game_start, stage_start, tournament_finish
from webhooks import signing
from webhooks.models import Delivery


@pytest.mark.django_db
def test_a_ruling_on_a_dispute_is_sent(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = running_match()
    tournament = match.stage.tournament
    game = match_game_start(match_id=match.pk, actor=None, first_dealer=0).game
    simulated = simulate_hand(preset("cape-breton-standard"), random.Random(11), dealer=0)
    record = simulated.record.to_json()
    hand = record_hand(
        game,
        {key: record[key] for key in ("caller", "trump", "tricks", "hands", "runs")},
        entry_kind="tricks",
    )
    with django_capture_on_commit_callbacks(execute=True):
        dispute = scoring_services.dispute_open(hand=hand, called_by=0, accused=1, trick=1)
    dispute.refresh_from_db()
    with running_receiver() as receiver:
        subscription = subscribe(tournament, receiver.url, events.DISPUTE_RULED)
        with django_capture_on_commit_callbacks(execute=True):
            scoring_services.dispute_rule(
                dispute=dispute,
                ruling=MisplayDispute.Ruling.UPHELD,
                by=tournament.organiser,
            )
    [request] = receiver.requests
    signing.verify(subscription.secret, request.headers["Tarabish-Signature"], request.body)
    data = request.payload["data"]
    assert (data["game"], data["hand"], data["dispute"]) == (game.pk, 1, dispute.pk)
    assert data["ruling"] == "upheld"


@pytest.mark.django_db
def test_a_casual_game_sends_nothing() -> None:
    match = running_match()
    subscribe(match.stage.tournament, "http://127.0.0.1:9/", events.HAND_ENTERED)
    from tests.scoring.factories import GameFactory

    record_hand(GameFactory.create())
    assert not Delivery.objects.exists()
    game = match_game_start(match_id=match.pk, actor=None, first_dealer=0).game
    record_hand(game)
    assert Delivery.objects.get().data["game"] == game.pk


@pytest.mark.django_db
def test_a_tournament_finished_is_sent_with_its_final_places(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    tournament = tournament_ready(2)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    final = Match.objects.get(stage=stage)
    with django_capture_on_commit_callbacks(execute=True):
        win_match(final, "away")
    with running_receiver() as receiver:
        subscribe(tournament, receiver.url, events.TOURNAMENT_FINISHED)
        with django_capture_on_commit_callbacks(execute=True):
            tournament_finish(tournament_id=tournament.pk, actor=tournament.organiser)
    [request] = receiver.requests
    places = request.payload["data"]["places"]
    assert [row["place"] for row in places] == [1, 2]
    assert places[0]["entry"] == final.away_id
    assert {row["entry"] for row in places} == set(
        Entry.objects.filter(tournament=tournament).values_list("pk", flat=True)
    )


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_delivers_after_the_commit(celery_worker: str) -> None:
    match = running_match()
    with running_receiver(500, 200) as receiver:
        subscription = subscribe(match.stage.tournament, receiver.url, events.MATCH_STARTED)
        match_game_start(match_id=match.pk, actor=None, first_dealer=0)
        assert wait_for(lambda: len(receiver.requests) == 1, timeout=30)
        delivery = Delivery.objects.get()
        assert wait_for(lambda: Delivery.objects.get().attempts == 1, timeout=10)
        # The first answer was a failure: the sweep tries again once the backoff has run.
        from webhooks.tasks import deliveries_send_due

        Delivery.objects.update(next_attempt_at=delivery.created_at)
        deliveries_send_due.delay()
        assert wait_for(lambda: Delivery.objects.get().state == "delivered", timeout=30)
    for request in receiver.requests:
        signing.verify(subscription.secret, request.headers["Tarabish-Signature"], request.body)
    assert {r.payload["id"] for r in receiver.requests} == {str(delivery.pk)}
