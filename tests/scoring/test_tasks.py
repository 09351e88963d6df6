"""The dispute task: thin, idempotent, and served by a real worker under make test-services."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import services, tasks
from scoring.models import Game, Hand, MisplayDispute
from tests.helpers import wait_for
from tests.scoring.factories import GameFactory, record_hand, summary
from tests.scoring.test_disputes import EVIDENCE


def _dispute() -> MisplayDispute:
    game = GameFactory.create(first_dealer=3)
    hand = record_hand(game, summary(caller=0, card_points=(92, 70)))
    return services.dispute_open(hand=hand, called_by=0, accused=1, trick=1, evidence=EVIDENCE)


@pytest.mark.django_db
def test_the_task_judges_once(only_this_receiver: list[int]) -> None:
    dispute = _dispute()
    tasks.dispute_adjudicate.delay(dispute.pk)
    dispute.refresh_from_db()
    assert (dispute.status, dispute.version) == ("proven", 2)
    tasks.dispute_adjudicate.delay(dispute.pk)
    dispute.refresh_from_db()
    assert dispute.version == 2
    assert Hand.objects.get(pk=dispute.hand_id).revisions.count() == 2


def test_the_task_declares_retries_and_time_limits() -> None:
    task: Any = tasks.dispute_adjudicate
    assert task.max_retries == 5
    assert task.autoretry_for
    assert (task.soft_time_limit, task.time_limit) == (30, 60)
    assert task.acks_late


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_dispute_is_resolved_by_the_real_worker(celery_worker: str) -> None:
    dispute = _dispute()  # committed: the task is sent to the broker after commit
    assert wait_for(
        lambda: MisplayDispute.objects.get(pk=dispute.pk).status != "pending", timeout=60
    ), "the worker did not judge the dispute"
    dispute.refresh_from_db()
    assert dispute.status == "proven"
    hand = Hand.objects.get(pk=dispute.hand_id)
    assert (hand.outcome, hand.points_a, hand.points_b) == ("misplay_proven", 162, 0)
    game = Game.objects.get(pk=hand.game_id)
    assert (game.score_a, game.score_b) == (162, 0)
