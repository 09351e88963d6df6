"""The broker is unreachable when a match game ends: the hand is stored, the result change is
kept in the database with it, and once the broker is back the match and the standings
converge without anyone acting (the periodic tasks stand in for celery beat)."""

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError
from pytest_django import DjangoCaptureOnCommitCallbacks

from scoring.models import Game, Hand, ResultChange
from scoring.tasks import result_changes_deliver
from tests.helpers import wait_for
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import ready_matches, win_game
from tournaments.models import Match, Stage, Standing
from tournaments.services import stage_start
from tournaments.tasks import standings_recompute_all


@contextmanager
def broker_down() -> Iterator[mock.MagicMock]:
    """Every message sent fails as kombu fails when the broker does not answer."""
    refused = OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
    with mock.patch("celery.app.task.Task.apply_async", side_effect=refused) as sent:
        yield sent


def _match() -> Match:
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    return ready_matches(stage.pk)[0]


def _as_if_older(seconds: int = 60) -> None:
    """Let the recorded changes be as old as the periodic task looks for."""
    ResultChange.objects.update(created_at=timezone.now() - timedelta(seconds=seconds))


def _home_standing(match: Match) -> Standing | None:
    return Standing.objects.filter(stage_id=match.stage_id, entry=match.home).first()


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
