"""The broker is unreachable when a match game ends, or takes the match's update and loses it:
the hand is stored, the result change is kept in the database with it until the update has
run, and once the broker is back the match and the standings converge without anyone acting
(the periodic tasks stand in for celery beat)."""

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.db import OperationalError as DatabaseError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from kombu import Queue
from kombu.exceptions import OperationalError
from pytest_django import DjangoCaptureOnCommitCallbacks

from scoring.models import Game, Hand, ResultChange
from scoring.services.results import PENDING_AFTER_SECONDS
from scoring.tasks import result_changes_deliver
from tarabish_site.celery import app as celery_app
from tests.helpers import wait_for
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import ready_matches, win_game
from tournaments.models import Match, Stage, Standing
from tournaments.services import stage_start
from tournaments.tasks import match_sync_for_game, standings_recompute_all


@contextmanager
def broker_down() -> Iterator[mock.MagicMock]:
    """Every message sent fails as kombu fails when the broker does not answer."""
    refused = OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
    with mock.patch("celery.app.task.Task.apply_async", side_effect=refused) as sent:
        yield sent


@contextmanager
def message_lost() -> Iterator[mock.MagicMock]:
    """The broker takes every match update and loses it (it dies, with no persistence, while
    the message waits in its queue): the send succeeds and no task runs."""
    with mock.patch("tournaments.receivers.match_sync_for_game.delay") as sent:
        yield sent


def _match() -> Match:
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    return ready_matches(stage.pk)[0]


def _as_if_older(seconds: int = PENDING_AFTER_SECONDS + 1) -> None:
    """Let the recorded changes be as old as the periodic task looks for."""
    ResultChange.objects.update(created_at=timezone.now() - timedelta(seconds=seconds))


def _home_standing(match: Match) -> Standing | None:
    return Standing.objects.filter(stage_id=match.stage_id, entry=match.home).first()


def _converged(match: Match) -> bool:
    """The match shows its one game won by home, the standings count it, nothing waits."""
    match.refresh_from_db()
    standing = _home_standing(match)
    return (
        (match.home_games, match.away_games) == (1, 0)
        and standing is not None
        and standing.game_wins == 1
        and not ResultChange.objects.exists()
    )


def test_a_lost_message_is_sent_again_within_ninety_seconds_and_never_while_running() -> None:
    """The stated bound: a change is sent again once older than the match update's time
    limit (a task still running is not doubled for nothing), by the periodic task every
    30 s, so within 90 s of its commit; and long before the broker would give back the
    task of a dead worker."""
    every = settings.CELERY_BEAT_SCHEDULE["scoring-result-changes-deliver"]["schedule"]
    visibility = celery_app.conf.broker_transport_options["visibility_timeout"]
    assert match_sync_for_game.time_limit is not None
    assert match_sync_for_game.time_limit <= PENDING_AFTER_SECONDS
    assert isinstance(every, float)
    assert PENDING_AFTER_SECONDS + every <= 90 < visibility


@pytest.mark.django_db
def test_a_change_stays_recorded_until_its_task_has_run(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = _match()
    with message_lost() as sent, django_capture_on_commit_callbacks(execute=True):
        game = win_game(match, "home")
    sent.assert_called_once_with(game.pk)  # the broker took it
    assert ResultChange.objects.filter(game=game).count() == 1  # and the row stayed
    with django_capture_on_commit_callbacks(execute=True):
        match_sync_for_game.delay(game.pk)  # the task runs: the match, then the row
    assert _converged(match)


@pytest.mark.django_db
def test_a_message_the_broker_lost_is_sent_again_by_the_periodic_task(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = _match()
    with message_lost(), django_capture_on_commit_callbacks(execute=True):
        win_game(match, "home")
    with django_capture_on_commit_callbacks(execute=True):
        result_changes_deliver.delay()  # too young: its task may still be queued or running
    match.refresh_from_db()
    assert match.home_games == 0
    assert ResultChange.objects.count() == 1

    _as_if_older()
    with django_capture_on_commit_callbacks(execute=True):
        result_changes_deliver.delay()
    assert _converged(match)


@pytest.mark.django_db
def test_a_task_that_fails_leaves_the_change_recorded(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = _match()
    with message_lost(), django_capture_on_commit_callbacks(execute=True):
        game = win_game(match, "home")
    with (
        mock.patch(
            "tournaments.services.matches._match_sync_or_hold",
            side_effect=DatabaseError("server closed the connection unexpectedly"),
        ),
        pytest.raises(DatabaseError),
    ):
        match_sync_for_game(game.pk)
    assert ResultChange.objects.filter(game=game).count() == 1


@pytest.mark.django_db
def test_a_change_recorded_while_the_task_runs_stays_for_the_next_delivery(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    from tournaments.services import matches

    match = _match()
    with message_lost(), django_capture_on_commit_callbacks(execute=True):
        game = win_game(match, "home")
    first = ResultChange.objects.get()
    sync = matches._match_sync_or_hold
    later: list[ResultChange] = []

    def sync_while_a_change_commits(match_id: int) -> Match | None:
        later.append(ResultChange.objects.create(game=game))  # say, a correction
        return sync(match_id)

    with (
        mock.patch(
            "tournaments.services.matches._match_sync_or_hold",
            side_effect=sync_while_a_change_commits,
        ),
        django_capture_on_commit_callbacks(execute=True),
    ):
        match_sync_for_game(game.pk)
    assert list(ResultChange.objects.values_list("pk", flat=True)) == [later[0].pk]
    assert first.pk != later[0].pk


@pytest.mark.django_db
def test_an_update_run_twice_changes_nothing_the_second_time(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = _match()
    with message_lost(), django_capture_on_commit_callbacks(execute=True):
        game = win_game(match, "home")
    with django_capture_on_commit_callbacks(execute=True):
        match_sync_for_game.delay(game.pk)
    assert _converged(match)
    version = match.version
    with CaptureQueriesContext(connection) as again, django_capture_on_commit_callbacks() as sent:
        match_sync_for_game.delay(game.pk)  # the same message, delivered twice
    written = [q["sql"] for q in again if q["sql"].split()[0] in {"INSERT", "UPDATE", "DELETE"}]
    assert written == []
    assert sent == []  # nothing to follow either: no standings, no ratings
    assert _converged(match)
    assert match.version == version


@pytest.mark.django_db
def test_a_result_lost_to_the_broker_is_delivered_once_it_is_back(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = _match()
    with broker_down() as sent, django_capture_on_commit_callbacks(execute=True):
        game = win_game(match, "home")
    assert sent.called  # the match update was tried, and failed
    assert game.status == Game.Status.FINISHED
    assert Hand.objects.filter(game=game).exists()
    match.refresh_from_db()
    assert (match.home_games, match.away_games, match.state) == (0, 0, Match.State.IN_PROGRESS)
    assert ResultChange.objects.filter(game=game).count() == 1  # kept with the hand

    result_changes_deliver.delay()  # too young: still being delivered by its commit
    match.refresh_from_db()
    assert match.home_games == 0

    _as_if_older()
    with django_capture_on_commit_callbacks(execute=True):
        result_changes_deliver.delay()
    match.refresh_from_db()
    assert (match.home_games, match.away_games) == (1, 0)
    assert not ResultChange.objects.exists()
    standing = _home_standing(match)
    assert standing is not None
    assert standing.game_wins == 1


@pytest.mark.django_db
def test_a_match_whose_games_disagree_with_it_is_set_right_by_the_periodic_job(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = _match()
    with broker_down(), django_capture_on_commit_callbacks(execute=True):
        win_game(match, "home")
    ResultChange.objects.all().delete()  # lost too (say, restored from a backup without it)
    with django_capture_on_commit_callbacks(execute=True):
        standings_recompute_all.delay()
    match.refresh_from_db()
    assert (match.home_games, match.away_games) == (1, 0)
    standing = _home_standing(match)
    assert standing is not None
    assert standing.game_wins == 1


@pytest.mark.django_db
def test_a_delivered_change_leaves_no_row(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    match = _match()
    with django_capture_on_commit_callbacks(execute=True):
        win_game(match, "home")
    match.refresh_from_db()
    assert match.home_games == 1
    assert not ResultChange.objects.exists()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_with_the_real_worker_a_result_lost_to_the_broker_converges(celery_worker: str) -> None:
    match = _match()
    with broker_down():
        game = win_game(match, "home")
    assert game.status == Game.Status.FINISHED
    assert ResultChange.objects.filter(game=game).exists()
    match.refresh_from_db()
    assert match.home_games == 0
    # The broker is back; beat sends the periodic task as it does every 30 s.
    _as_if_older()
    result_changes_deliver.delay()
    assert wait_for(lambda: Match.objects.filter(pk=match.pk, home_games=1).exists(), timeout=30), (
        "the match did not take in the result"
    )
    assert wait_for(lambda: not ResultChange.objects.exists(), timeout=10)

    def standings_done() -> bool:
        standing = _home_standing(match)
        return (
            standing is not None
            and standing.game_wins == 1
            and not Stage.objects.filter(pk=match.stage_id, standings_dirty=True).exists()
        )

    assert wait_for(standings_done, timeout=30), "the standings did not follow"


@contextmanager
def sent_where_it_is_lost(queue: str) -> Iterator[None]:
    """The match's update goes to ``queue``, which no worker reads, as if the broker had
    accepted it and then lost it (below, by purging that queue)."""
    send = match_sync_for_game.apply_async

    def to_the_lost_queue(*args: object, **options: object) -> object:
        return send(*args, **{**options, "queue": queue})

    with mock.patch.object(match_sync_for_game, "apply_async", to_the_lost_queue):
        yield


def purge(queue: str) -> int:
    """Delete what waits in ``queue``: how many messages were there."""
    with celery_app.connection_for_write() as connection:
        return int(Queue(queue).bind(connection.default_channel).purge() or 0)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_with_the_real_worker_a_message_the_broker_lost_converges(celery_worker: str) -> None:
    """The broker accepts the match's update and dies with it in its queue (its memory is
    lost, as Redis' without persistence is): the row stays, and the periodic task sends it
    again."""
    match = _match()
    lost = f"{celery_worker}-lost"
    with sent_where_it_is_lost(lost):
        game = win_game(match, "home")
    assert purge(lost) == 1  # the one message sent, accepted and now lost
    assert ResultChange.objects.filter(game=game).count() == 1
    time.sleep(2)  # the worker has nothing to take
    match.refresh_from_db()
    assert match.home_games == 0
    assert ResultChange.objects.filter(game=game).count() == 1

    # Beat sends the periodic task every 30 s; the change is older than it looks for.
    _as_if_older()
    result_changes_deliver.delay()

    def settled() -> bool:
        return (
            _converged(match)
            and not Stage.objects.filter(pk=match.stage_id, standings_dirty=True).exists()
        )

    assert wait_for(settled, timeout=30), "the match and the standings did not converge"
