# mypy: disable-error-code="no-untyped-call"
"""The data migration that writes the top of the runs in stored results as a card."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.models import Hand, HandRevision
from tests.scoring.factories import GameFactory, record_hand, summary

tops = importlib.import_module("scoring.migrations.0012_run_tops_as_cards")

BEFORE = [("scoring", "0011_game_totals_revisions")]
AFTER = [("scoring", "0012_run_tops_as_cards")]

FIFTY_IN_CLUBS = [{"seat": 3, "kind": "fifty", "suit": "C", "top": "A"}]


def hand_stored_in_the_old_form() -> Hand:
    """A hand counting a fifty, its result and its first revision stored as they were
    written before a run's top was a card: ``"top": "A"``."""
    entry = summary(caller=0, trump="S", card_points=(100, 62), runs=FIFTY_IN_CLUBS)
    hand = record_hand(GameFactory.create(), entry)
    assert hand.result["runs_counted"] == [{"kind": "fifty", "suit": "C", "top": "AC"}]
    old = {**hand.result, "runs_counted": [{"kind": "fifty", "suit": "C", "top": "A"}]}
    Hand.objects.filter(pk=hand.pk).update(result=old)
    HandRevision.objects.create(
        hand=hand,
        version=1,
        action=HandRevision.Action.RECORDED,
        entry_kind=hand.entry_kind,
        entry=hand.entry,
        result=old,
    )
    return Hand.objects.get(pk=hand.pk)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("migrating")
def test_migrating_writes_the_tops_of_stored_results_as_cards() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    hand = hand_stored_in_the_old_form()
    plain = record_hand(hand.game)  # no runs: nothing to rewrite
    before = {h.pk: h.result for h in Hand.objects.all()}

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)

    hand.refresh_from_db()
    assert hand.result["runs_counted"] == [{"kind": "fifty", "suit": "C", "top": "AC"}]
    assert {k: v for k, v in hand.result.items() if k != "runs_counted"} == {
        k: v for k, v in before[hand.pk].items() if k != "runs_counted"
    }
    revision = HandRevision.objects.get(hand=hand)
    assert revision.result == hand.result
    assert revision.entry["runs"] == FIFTY_IN_CLUBS  # what was entered stays as entered
    plain.refresh_from_db()
    assert plain.result == before[plain.pk]


@pytest.mark.django_db
def test_the_rewrite_goes_in_batches_and_a_second_run_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hands = [hand_stored_in_the_old_form() for _ in range(3)]
    unreadable = {**hands[0].result, "runs_counted": [{"kind": "fifty", "suit": "C", "top": "Z"}]}
    Hand.objects.filter(pk=hands[0].pk).update(result=unreadable)
    monkeypatch.setattr(tops, "BATCH", 2)

    tops.forwards(apps, None)
    after = {h.pk: h.result for h in Hand.objects.order_by("pk")}
    tops.forwards(apps, None)

    assert {h.pk: h.result for h in Hand.objects.order_by("pk")} == after
    assert after[hands[0].pk] == unreadable  # a run the engine cannot read is left alone
    for hand in hands[1:]:
        assert after[hand.pk]["runs_counted"] == [{"kind": "fifty", "suit": "C", "top": "AC"}]
    assert {r.result["runs_counted"][0]["top"] for r in HandRevision.objects.all()} == {"AC"}
