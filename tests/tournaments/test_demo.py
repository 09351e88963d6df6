"""The tournaments demo: a finished and a running tournament, loaded once however often."""

from __future__ import annotations

import pytest

from tests.scoring.factories import UserFactory
from tournaments.demo import FINISHED_SLUG, RUNNING_SLUG, demo_load
from tournaments.models import Entry, Match, MatchGame, Stage, Standing, Tournament

pytestmark = pytest.mark.django_db


def test_demo_holds_a_finished_and_a_running_tournament_and_loads_once() -> None:
    director = UserFactory(is_staff=True, is_superuser=True)
    made = demo_load(director=director, finished=(8, 2), running=(9, 2))
    assert [t.slug for t in made] == [FINISHED_SLUG, RUNNING_SLUG]
    finished = Tournament.objects.get(slug=FINISHED_SLUG)
    running = Tournament.objects.get(slug=RUNNING_SLUG)
    assert finished.status == Tournament.Status.FINISHED
    assert running.status == Tournament.Status.RUNNING
    assert finished.entries.filter(final_place=1).count() == 1
    assert [s.kind for s in finished.stages.order_by("order")] == ["round_robin", "double_elim"]
    pools, knockout = running.stages.order_by("order")
    assert pools.status == Stage.Status.FINISHED
    assert knockout.status == Stage.Status.RUNNING
    assert running.entries.filter(status=Entry.Status.INACTIVE).count() == 1
    assert Match.objects.filter(stage=knockout, state=Match.State.IN_PROGRESS).count() == 1
    assert Standing.objects.filter(stage=pools).count() == 8
    counts = (Tournament.objects.count(), Match.objects.count(), MatchGame.objects.count())
    assert demo_load(director=director, finished=(8, 2), running=(9, 2)) == []
    assert (Tournament.objects.count(), Match.objects.count(), MatchGame.objects.count()) == counts
