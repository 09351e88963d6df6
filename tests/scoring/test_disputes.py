"""Misplay disputes: judged by the engine in a task after commit, ruled by a director."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import IntegrityError, transaction

from scoring import services
from scoring.engine import EngineError, Ruleset, simulate_hand
from scoring.models import Game, Hand, MisplayDispute
from tarabish_site.api.errors import Conflict, NotAllowed, ValidationFailed
from tests.scoring.factories import GameFactory, UserFactory, record_hand, summary

pytestmark = pytest.mark.django_db

# Hearts trump, dealt by seat 3: the king of hearts is led, seat 1 plays the 6 of hearts and
# later the 9 of hearts, so at trick 1 seat 1 did not beat the king when it could.
EVIDENCE = {
    "dealer": 3,
    "caller": 0,
    "trump": "H",
    "tricks": [["KH", "6H", "7H", "8H"], ["AS", "9H", "10S", "6S"]],
}


def _hand() -> Hand:
    game = GameFactory.create(first_dealer=3)
    return record_hand(game, summary(caller=0, card_points=(92, 70)))


def _open(hand: Hand, capture: Any, **kwargs: Any) -> MisplayDispute:
    args: dict[str, Any] = {"called_by": 0, "accused": 1, "trick": 1, "evidence": EVIDENCE}
    args.update(kwargs)
    with capture(execute=True):
        dispute = services.dispute_open(hand=hand, **args)
    dispute.refresh_from_db()
    return dispute


def test_proven_misplay_gives_the_calling_team_the_whole_hand(
    django_capture_on_commit_callbacks: Any, only_this_receiver: list[int]
) -> None:
    hand = _hand()
    dispute = _open(hand, django_capture_on_commit_callbacks)
    assert dispute.status == "proven"
    assert dispute.verdict is not None
    assert dispute.verdict["offending_card"] == "6H"
    assert dispute.verdict["proof_card"] == "9H"
    # the dispute's trick and its stored verdict count tricks from 1, as people do
    assert (dispute.trick, dispute.verdict["trick"], dispute.verdict["proof_trick"]) == (1, 1, 2)
    assert "did not beat" in dispute.reason
    hand.refresh_from_db()
    assert (hand.outcome, hand.points_a, hand.points_b, hand.version) == (
        "misplay_proven",
        162,
        0,
        2,
    )
    assert hand.entry == summary(caller=0, card_points=(92, 70))  # the entry is untouched
    assert (hand.result["misplay_by"], hand.result["misplay_accused"]) == (0, 1)
    assert [r.action for r in hand.revisions.order_by("version")] == ["recorded", "dispute"]
    game = Game.objects.get(pk=hand.game_id)
    assert (game.score_a, game.score_b) == (162, 0)
    assert only_this_receiver == [game.pk]  # the verdict changed the result


def test_not_proven_gives_the_other_team_the_whole_hand(
    django_capture_on_commit_callbacks: Any, only_this_receiver: list[int]
) -> None:
    hand = _hand()
    dispute = _open(hand, django_capture_on_commit_callbacks, accused=3)
    assert dispute.status == "not_proven"
    hand.refresh_from_db()
    assert (hand.outcome, hand.points_a, hand.points_b) == ("misplay_not_proven", 0, 162)


def test_an_impossible_record_is_rejected_and_the_hand_stays(
    django_capture_on_commit_callbacks: Any, only_this_receiver: list[int]
) -> None:
    hand = _hand()
    bad = {**EVIDENCE, "tricks": [["KH", "6H", "7H", "8H"], ["AS", "KH", "10S", "6S"]]}
    dispute = _open(hand, django_capture_on_commit_callbacks, evidence=bad)
    assert dispute.status == "record_rejected"
    assert "played twice" in dispute.reason
    assert dispute.verdict is not None
    assert dispute.verdict["code"]
    hand.refresh_from_db()
    assert (hand.outcome, hand.version) == ("made", 1)
    with pytest.raises(ValidationFailed) as err:
        services.dispute_rule(dispute=dispute, ruling="overruled", note="x")
    assert err.value.code == "record_rejected"


def test_director_overrules_and_both_stay_visible(
    django_capture_on_commit_callbacks: Any, only_this_receiver: list[int]
) -> None:
    hand = _hand()
    dispute = _open(hand, django_capture_on_commit_callbacks)
    keeper = UserFactory.create()
    hand.game.scorekeepers.add(keeper)
    with pytest.raises(NotAllowed) as refused:
        services.dispute_rule(dispute=dispute, ruling="overruled", note="no", by=keeper)
    assert refused.value.message == "only a director may rule on a misplay dispute"
    dispute.refresh_from_db()
    assert dispute.ruling == "none"
    director = UserFactory.create(director=True)
    with pytest.raises(ValidationFailed) as err:
        services.dispute_rule(dispute=dispute, ruling="overruled", by=director)
    assert "note" in err.value.fields
    services.dispute_rule(
        dispute=dispute, ruling="overruled", note="the 9 was in the kitty", by=director
    )
    assert (dispute.status, dispute.ruling, dispute.ruled_by) == ("proven", "overruled", director)
    assert dispute.decision is False
    hand.refresh_from_db()
    assert (hand.outcome, hand.points_a, hand.points_b) == ("misplay_not_proven", 0, 162)
    services.dispute_rule(dispute=dispute, ruling="upheld", by=director)
    hand.refresh_from_db()
    assert (hand.outcome, hand.points_a) == ("misplay_proven", 162)
    assert [r.action for r in hand.revisions.order_by("version")] == [
        "recorded",
        "dispute",
        "dispute",
        "dispute",
    ]
    with pytest.raises(ValidationFailed):
        services.dispute_rule(dispute=dispute, ruling="maybe", by=director)


def test_adjudication_is_idempotent(
    django_capture_on_commit_callbacks: Any, only_this_receiver: list[int]
) -> None:
    hand = _hand()
    dispute = _open(hand, django_capture_on_commit_callbacks)
    game_version = Game.objects.get(pk=hand.game_id).version
    again = services.dispute_adjudicate(dispute_id=dispute.pk)
    assert (again.version, again.status) == (dispute.version, "proven")
    assert Game.objects.get(pk=hand.game_id).version == game_version
    rerun = services.dispute_adjudicate(dispute_id=dispute.pk, rerun=True)
    assert (rerun.version, rerun.status) == (dispute.version + 1, "proven")
    hand.refresh_from_db()
    assert hand.version == 2  # the result did not change, so no new hand version


def test_the_task_waits_for_the_commit() -> None:
    hand = _hand()
    dispute = services.dispute_open(hand=hand, called_by=0, accused=1, trick=1, evidence=EVIDENCE)
    dispute.refresh_from_db()
    assert dispute.status == "pending"  # nothing committed, nothing judged yet
    with pytest.raises(ValidationFailed) as err:
        services.dispute_rule(dispute=dispute, ruling="upheld")
    assert err.value.code == "dispute_pending"
    with pytest.raises(Conflict):
        services.dispute_open(hand=hand, called_by=2, accused=1, trick=1, evidence=EVIDENCE)


def test_dispute_input_is_checked() -> None:
    hand = _hand()
    with pytest.raises(ValidationFailed) as err:
        services.dispute_open(hand=hand, called_by=0, accused=2, trick=1, evidence=EVIDENCE)
    assert err.value.code == "accused_partner"
    with pytest.raises(ValidationFailed) as err:
        services.dispute_open(hand=hand, called_by=0, accused=1, trick=10, evidence=EVIDENCE)
    assert "trick" in err.value.fields
    with pytest.raises(ValidationFailed) as err:
        services.dispute_open(hand=hand, called_by=0, accused=1, trick=1)
    assert err.value.code == "evidence_required"
    with pytest.raises(EngineError) as bad:
        services.dispute_open(
            hand=hand, called_by=0, accused=1, trick=1, evidence={**EVIDENCE, "tricks": [["ZZ"]]}
        )
    assert bad.value.field == "evidence.tricks.0.0"
    with pytest.raises(EngineError) as bad:
        services.dispute_open(
            hand=hand, called_by=0, accused=1, trick=1, evidence={**EVIDENCE, "dealer": 0}
        )
    assert bad.value.field == "evidence.dealer"
    with pytest.raises(ValidationFailed) as err:
        services.dispute_open(
            hand=hand, called_by=0, accused=1, trick=1, evidence={**EVIDENCE, "trump": "S"}
        )
    assert err.value.fields == {
        "evidence.trump": [
            "this trick record is of another hand: in it the trump is spades, hand 1 says hearts"
        ]
    }
    with pytest.raises(ValidationFailed) as err:
        services.dispute_open(
            hand=hand, called_by=0, accused=1, trick=1, evidence={**EVIDENCE, "caller": 1}
        )
    assert err.value.message == (
        "this trick record is of another hand: in it seat 1 called, hand 1 says seat 0"
    )
    assert not MisplayDispute.objects.exists()


@pytest.mark.parametrize(
    ("called_by", "accused", "allowed"), [(0, 1, True), (3, 0, True), (0, 2, False), (1, 1, False)]
)
def test_the_database_keeps_a_misplay_call_on_an_opponent(
    called_by: int, accused: int, allowed: bool
) -> None:
    hand = _hand()

    def create() -> MisplayDispute:
        return MisplayDispute.objects.create(
            hand=hand, called_by=called_by, accused=accused, trick=1, evidence=EVIDENCE
        )

    if allowed:
        assert create().pk
    else:
        with pytest.raises(IntegrityError), transaction.atomic():
            create()


def test_a_tricks_hand_is_its_own_evidence(
    django_capture_on_commit_callbacks: Any, only_this_receiver: list[int]
) -> None:
    game = GameFactory.create(first_dealer=2)
    sim = simulate_hand(Ruleset(), random.Random(3), dealer=2)
    hand = record_hand(game, sim.record.to_json(), entry_kind="tricks")
    accused = 1 if sim.record.caller in (0, 2) else 0
    called_by = (accused + 1) % 4
    dispute = _open(
        hand,
        django_capture_on_commit_callbacks,
        called_by=called_by,
        accused=accused,
        trick=4,
        evidence=None,
    )
    # The simulator plays by the rules, so the record proves nothing.
    assert dispute.status == "not_proven"
    hand.refresh_from_db()
    assert hand.outcome == "misplay_not_proven"
    winner = 1 - called_by % 2
    assert (hand.points_a, hand.points_b)[winner] == hand.hand_total
