"""The demo: every outcome, produced by the simulator, loaded once however often it runs."""

from __future__ import annotations

import pytest

from scoring.demo import demo_load, demo_summary
from scoring.models import Game, Hand, HandRevision, MisplayDispute, Player, Team

pytestmark = pytest.mark.django_db


def _counts() -> tuple[int, ...]:
    return tuple(
        m.objects.count() for m in (Player, Team, Game, Hand, HandRevision, MisplayDispute)
    )


@pytest.mark.parametrize("seed", [7, None])  # None: the seed `make run` uses
def test_demo_covers_every_outcome_and_loads_once(
    only_this_receiver: list[int], seed: int | None
) -> None:
    games = demo_load() if seed is None else demo_load(seed=seed)
    summary = demo_summary()
    for outcome in (
        "made",
        "bait",
        "half_bait",
        "void",
        "thrown_in",
        "misplay_proven",
        "misplay_not_proven",
    ):
        assert summary[f"outcome {outcome}"] >= 1, outcome
    statuses = {g.status for g in Game.objects.all()}
    assert statuses == {"finished", "in_progress", "abandoned"}
    assert set(Hand.objects.values_list("entry_kind", flat=True)) == {"summary", "tricks"}
    assert Hand.objects.filter(runs_counted_by__isnull=False, bella_seat__isnull=False).exists()
    assert set(MisplayDispute.objects.values_list("status", flat=True)) == {
        "proven",
        "not_proven",
    }
    before = _counts()
    again = demo_load() if seed is None else demo_load(seed=seed)
    assert _counts() == before
    assert [g.pk for g in again] == [g.pk for g in games]
    assert Player.objects.filter(community="Chéticamp").count() == 2
