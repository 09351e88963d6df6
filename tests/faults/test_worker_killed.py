"""A worker killed mid-task strands nothing: the broker gives a task back once its visibility
timeout (sized to the tasks' time limits) passes, and long before that the periodic repairs
judge the disputes and rate the matches whose tasks were lost."""

import os
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import nullcontext
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from scoring import services, tasks
from scoring.models import MisplayDispute
from tarabish_site.celery import app as celery_app
from tests.faults.test_broker_down import broker_down
from tests.helpers import wait_for
from tests.scoring.factories import GameFactory, record_hand, summary
from tests.scoring.test_disputes import EVIDENCE
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import ready_matches, win_match
from tournaments.models import Match, PlayerRating, RatingChange
from tournaments.services import ratings_update_for_match, stage_start
from tournaments.tasks import ratings_repair, ratings_update

ROOT = Path(__file__).resolve().parents[2]


def test_a_task_comes_back_after_its_time_limit_and_well_within_the_hour() -> None:
    visibility = celery_app.conf.broker_transport_options["visibility_timeout"]
    limits = [
        task.time_limit or celery_app.conf.task_time_limit
        for name, task in celery_app.tasks.items()
        if not name.startswith("celery.")
    ]
    assert max(limits) < visibility <= 600


def _pending_dispute(capture: Any = nullcontext) -> MisplayDispute:
    """A dispute called while the broker was unreachable: its task was never sent (and the
    call did not fail for it)."""
    game = GameFactory.create(first_dealer=3)
    hand = record_hand(game, summary(caller=0, card_points=(92, 70)))
    with broker_down(), capture():
        return services.dispute_open(hand=hand, called_by=0, accused=1, trick=1, evidence=EVIDENCE)


def _as_if_called_earlier(dispute: MisplayDispute, seconds: int = 90) -> None:
    MisplayDispute.objects.filter(pk=dispute.pk).update(
        created_at=timezone.now() - timedelta(seconds=seconds)
    )


def _played_match() -> tuple[Match, dict[int, str]]:
    """A public round-robin match played, and what its rating changes say (player -> result)."""
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = win_match(ready_matches(stage.pk)[0], "home")
    ratings_update_for_match(match_id=match.pk)  # as its task does, after the commit
    rated = dict(RatingChange.objects.filter(match=match).values_list("player_id", "result"))
    assert len(rated) == 4
    return match, rated


def _ratings_forgotten(players: Any) -> None:
    """As if no rating task had run: no changes, every player at the starting rating."""
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    for player_id in players:
        PlayerRating.objects.create(player_id=player_id, mu=25.0, sigma=25.0 / 3)


@pytest.mark.django_db
def test_a_dispute_whose_task_was_lost_is_judged_by_the_periodic_task(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    dispute = _pending_dispute(lambda: django_capture_on_commit_callbacks(execute=True))
    tasks.disputes_adjudicate_pending.delay()
    dispute.refresh_from_db()
    assert dispute.status == MisplayDispute.Status.PENDING  # its task may still be coming
    _as_if_called_earlier(dispute)
    tasks.disputes_adjudicate_pending.delay()
    dispute.refresh_from_db()
    assert dispute.status == MisplayDispute.Status.PROVEN


@pytest.mark.django_db
def test_ratings_whose_task_was_lost_are_made_by_the_periodic_task() -> None:
    match, rated = _played_match()
    _ratings_forgotten(rated)
    ratings_repair.delay()
    assert dict(RatingChange.objects.filter(match=match).values_list("player_id", "result")) == (
        rated
    )
    ratings_repair.delay()  # in line: nothing moves
    assert RatingChange.objects.filter(match=match).count() == 4


def _worker(queue: str, name: str) -> tuple[subprocess.Popen[bytes], Path]:
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "PYTHONUNBUFFERED": "1",
    }
    log = Path(tempfile.gettempdir()) / f"tarabish-{name}-{os.getpid()}.log"
    out = log.open("wb")
    process = subprocess.Popen(  # noqa: S603 - fixed command
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "tarabish_site",
            "worker",
            "--pool",
            "solo",
            "--queues",
            queue,
            "--loglevel",
            "INFO",
            "--without-gossip",
            "--without-mingle",
            "--hostname",
            f"{name}-{os.getpid()}@%h",
        ],
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    out.close()
    if not wait_for(lambda: "ready." in log.read_text(), timeout=60):
        process.kill()
        process.wait(timeout=10)
        pytest.fail(f"the worker did not start:\n{log.read_text()[-3000:]}")
    return process, log


def _waiting_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
        row = cursor.fetchone()
    return bool(row and row[0])


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_task_leaves_a_verdict_and_ratings_that_converge() -> None:
    import psycopg

    match, rated = _played_match()
    _ratings_forgotten(rated)
    dispute = _pending_dispute()
    queue = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-killed"
    celery_app.conf.task_always_eager = False  # restored by the autouse fixture
    db = connection.settings_dict
    holder = psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"], autocommit=False
    )
    first, _log = _worker(queue, "doomed")
    second = None
    try:
        # Both tasks will wait on rows held here, so the worker is killed in the middle of one.
        holder.execute(
            "SELECT id FROM scoring_game WHERE id = %s FOR UPDATE",
            [dispute.hand.game_id],
        )
        holder.execute(
            "SELECT id FROM tournaments_playerrating WHERE player_id = ANY(%s) FOR UPDATE",
            [list(rated)],
        )
        tasks.dispute_adjudicate.apply_async((dispute.pk,), queue=queue)
        ratings_update.apply_async((match.pk,), queue=queue)
        assert wait_for(_waiting_on_a_lock, timeout=30), "the worker never started the task"
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
        killed_at = time.monotonic()
        holder.rollback()

        second, _log = _worker(queue, "after")
        # What celery beat sends: the dispute is by now a minute old, as it would be.
        _as_if_called_earlier(dispute)
        tasks.disputes_adjudicate_pending.apply_async(queue=queue)
        ratings_repair.apply_async(queue=queue)

        def converged() -> bool:
            judged = MisplayDispute.objects.get(pk=dispute.pk).status != "pending"
            changes = RatingChange.objects.filter(match=match).values_list("player_id", "result")
            return judged and dict(changes) == rated

        assert wait_for(converged, timeout=60), "the verdict or the ratings did not converge"
        took = time.monotonic() - killed_at
        print(f"converged {took:.1f} s after the worker was killed")  # noqa: T201
        assert MisplayDispute.objects.get(pk=dispute.pk).status == "proven"
    finally:
        holder.close()
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(timeout=15)
