"""The scoring signal reaches the tournaments app only for games played in a match."""

from unittest import mock

import pytest
from pytest_django import DjangoCaptureOnCommitCallbacks

from scoring.models import Game
from tests.scoring.factories import GameFactory, record_hand
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import ready_matches
from tournaments.services import match_game_start, stage_start

pytestmark = pytest.mark.django_db


def _play_to_the_end(game: Game) -> None:
    while game.status == Game.Status.IN_PROGRESS:
        record_hand(game)


def test_a_casual_game_sends_no_task(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    game = GameFactory.create()
    with (
        mock.patch("tournaments.receivers.match_sync_for_game.delay") as delay,
        django_capture_on_commit_callbacks(execute=True),
    ):
        _play_to_the_end(game)
    delay.assert_not_called()


def test_a_match_game_sends_the_match_update(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = ready_matches(stage.pk)[0]
    game = match_game_start(match_id=match.pk, actor=None, first_dealer=0).game
    with (
        mock.patch("tournaments.receivers.match_sync_for_game.delay") as delay,
        django_capture_on_commit_callbacks(execute=True),
    ):
        _play_to_the_end(game)
    delay.assert_called_once_with(game.pk)  # the hand that ended it; the others change no result
