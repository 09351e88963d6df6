"""The tournaments demo: finished and running tournaments of every format, loaded once."""

from __future__ import annotations

import functools
import io
import logging
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from scoring.models import Game, Hand
from tests.scoring.factories import UserFactory
from tournaments.demo import (
    FINISHED_SLUG,
    KNOCKOUT_SLUG,
    RUNNING_SLUG,
    SWISS_SLUG,
    demo_load,
)
from tournaments.models import Entry, Match, MatchGame, Stage, Standing, Tournament

pytestmark = pytest.mark.django_db


def _load(director: object) -> list[Tournament]:
    """The demo at a small size: quick, and every part of it there."""
    return demo_load(director=director, finished=(8, 2), running=(9, 2), swiss=(7, 3), cup=4)


def test_demo_holds_a_finished_and_a_running_tournament_and_loads_once() -> None:
    director = UserFactory(is_staff=True, is_superuser=True)
    made = _load(director)
    assert [t.slug for t in made] == [FINISHED_SLUG, RUNNING_SLUG, SWISS_SLUG, KNOCKOUT_SLUG]
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
    assert _load(director) == []
    assert (Tournament.objects.count(), Match.objects.count(), MatchGame.objects.count()) == counts


def test_demo_shows_a_swiss_tournament_and_a_single_elimination_cup() -> None:
    director = UserFactory(is_staff=True, is_superuser=True)
    _load(director)

    swiss = Tournament.objects.get(slug=SWISS_SLUG)
    assert (swiss.public, swiss.status) == (True, Tournament.Status.RUNNING)
    (stage,) = swiss.stages.all()
    assert (stage.kind, stage.status, stage.swiss_rounds) == ("swiss", "running", 3)
    assert stage.rounds.count() == 3
    matches = Match.objects.filter(stage=stage, bye=False)
    last = matches.filter(round__number=3)
    assert matches.exclude(round__number=3).exclude(state=Match.State.COMPLETE).count() == 0
    assert last.filter(state=Match.State.COMPLETE).exists()
    assert last.filter(state=Match.State.READY).exists()
    assert Match.objects.filter(stage=stage, bye=True).count() == 3  # an odd field
    assert "buchholz" in stage.tiebreakers_in_effect
    table = Standing.objects.filter(stage=stage)
    assert table.count() == 7
    assert table.filter(buchholz__gt=0).exists()
    assert MatchGame.objects.filter(match__stage=stage, game__hands__isnull=False).exists()

    cup = Tournament.objects.get(slug=KNOCKOUT_SLUG)
    assert (cup.public, cup.status) == (True, Tournament.Status.FINISHED)
    (bracket,) = cup.stages.all()
    assert (bracket.kind, bracket.status, bracket.third_place) == ("single_elim", "finished", True)
    assert not Match.objects.filter(stage=bracket).exclude(state=Match.State.COMPLETE).exists()
    assert Match.objects.filter(stage=bracket, key="3P", state=Match.State.COMPLETE).exists()
    places = cup.entries.order_by("final_place").values_list("final_place", flat=True)
    assert list(places) == [1, 2, 3, 4]


def test_the_demo_is_dated_like_an_autumn_of_tournaments() -> None:
    director = UserFactory(is_staff=True, is_superuser=True)
    _load(director)
    today = timezone.localdate()
    for tournament in Tournament.objects.all():
        games = Game.objects.filter(match_link__match__stage__tournament=tournament)
        if tournament.status == Tournament.Status.RUNNING:
            assert tournament.starts_on == today, tournament.name  # running: today, never later
        else:
            assert tournament.starts_on < today, tournament.name
        days = {timezone.localtime(game.created_at).date() for game in games}
        assert days == {tournament.starts_on}, tournament.name  # played on its own day
        hands = Hand.objects.filter(game__in=games)
        assert {timezone.localtime(h.created_at).date() for h in hands} == {tournament.starts_on}


def test_the_demo_prints_the_sign_in_last_and_no_task_lines(caplog: Any, monkeypatch: Any) -> None:
    from tournaments import demo

    small = functools.partial(demo.demo_load, finished=(4, 1), running=(5, 1), swiss=(5, 2), cup=4)
    monkeypatch.setattr(demo, "demo_load", small)
    out = io.StringIO()
    with caplog.at_level(logging.INFO):
        call_command("demo", stdout=out)
    assert out.getvalue().strip().splitlines()[-1].startswith("Demo ready. Director:")
    assert not [r for r in caplog.records if r.name == "tarabish.task" and r.levelno < 30]
    assert not [r for r in caplog.records if r.name.startswith("kombu")]
