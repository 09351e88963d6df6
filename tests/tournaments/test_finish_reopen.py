# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr,index"
"""Finishing waits for every held result; a finished tournament may be reopened, with a
reason kept in its history, and finishing again places and rates what changed."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring import services as scoring_services
from tarabish_site.api.errors import Conflict, ValidationFailed
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import win_match
from tournaments.demo import stage_play_simulated
from tournaments.models import Match, MatchGame, RatingChange, Stage, Tournament, TournamentEvent
from tournaments.services import (
    match_forfeit,
    match_hold_clear,
    match_reset_confirm,
    match_sync_for_game,
    stage_start,
    tournament_finish,
    tournament_reopen,
)

pytestmark = pytest.mark.django_db


def _played_double_elimination() -> tuple[Tournament, Stage]:
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "double_elim", grand_final="single")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    stage_play_simulated(stage_id=stage.pk, rng=random.Random(4))
    stage.refresh_from_db()
    assert stage.status == Stage.Status.FINISHED
    return tournament, stage


def _hold_first_match(tournament: Tournament, stage: Stage) -> Match:
    """Reopen the game of W1-1 (its result no longer stands): the match holds the change."""
    first = Match.objects.get(stage=stage, key="W1-1")
    game = MatchGame.objects.get(match=first, discarded=False).game
    scoring_services.game_reopen(game=game, by=tournament.organiser)
    assert match_sync_for_game(game_id=game.pk) is None
    first.refresh_from_db()
    assert first.held_reason
    return first


def test_a_held_result_keeps_the_stage_running_and_refuses_the_finish() -> None:
    tournament, stage = _played_double_elimination()
    first = _hold_first_match(tournament, stage)
    stage.refresh_from_db()
    assert stage.status == Stage.Status.RUNNING
    with pytest.raises(Conflict) as refused:
        tournament_finish(tournament_id=tournament.pk, actor=tournament.organiser)
    assert refused.value.code == "results_held"
    assert "W1-1" in refused.value.message
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    assert not tournament.entries.exclude(final_place=None).exists()

    # keeping the result as it stands ends the hold: the stage is over again
    match_hold_clear(match_id=first.pk, actor=tournament.organiser)
    stage.refresh_from_db()
    assert stage.status == Stage.Status.FINISHED
    finished = tournament_finish(tournament_id=tournament.pk, actor=tournament.organiser)
    assert finished.status == Tournament.Status.FINISHED


def test_a_confirmed_reset_is_played_out_before_the_finish() -> None:
    tournament, stage = _played_double_elimination()
    first = _hold_first_match(tournament, stage)
    match_reset_confirm(
        match_id=first.pk, actor=tournament.organiser, expected_version=first.version
    )
    stage.refresh_from_db()
    assert stage.status == Stage.Status.RUNNING
    with pytest.raises(Conflict) as refused:
        tournament_finish(tournament_id=tournament.pk, actor=tournament.organiser)
    assert refused.value.code == "stages_unfinished"


def test_the_api_refuses_the_finish_while_a_result_is_held() -> None:
    tournament, stage = _played_double_elimination()
    _hold_first_match(tournament, stage)
    client = APIClient()
    client.force_authenticate(tournament.organiser)
    answer = client.post(f"/api/v1/tournaments/{tournament.slug}/finish/")
    assert answer.status_code == 409
    assert answer.json()["code"] == "results_held"
    stages = client.get(f"/api/v1/tournaments/{tournament.slug}/stages/").json()
    assert [s["status"] for s in stages] == ["running"]


def _finished_single_elimination(capture: Any = None) -> tuple[Tournament, Stage]:
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    for key in ("W1-1", "W1-2", "W2-1"):
        if capture is None:
            win_match(Match.objects.get(stage=stage, key=key), "home")
        else:
            with capture(execute=True):  # the ratings that follow each result
                win_match(Match.objects.get(stage=stage, key=key), "home")
    tournament = tournament_finish(tournament_id=tournament.pk, actor=tournament.organiser)
    return tournament, stage


def test_reopening_needs_a_reason_and_keeps_it_in_the_history() -> None:
    tournament, _stage = _finished_single_elimination()
    with pytest.raises(ValidationFailed) as refused:
        tournament_reopen(tournament_id=tournament.pk, actor=tournament.organiser, reason="  ")
    assert list(refused.value.fields) == ["reason"]
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED

    reopened = tournament_reopen(
        tournament_id=tournament.pk,
        actor=tournament.organiser,
        reason="The final's score sheet was added up wrong.",
    )
    assert reopened.status == Tournament.Status.RUNNING
    assert reopened.finished_at is None
    assert not reopened.entries.exclude(final_place=None).exists()
    history = list(tournament.events.values_list("kind", "reason", "by"))
    assert history == [
        (TournamentEvent.Kind.FINISHED, "", tournament.organiser.pk),
        (
            TournamentEvent.Kind.REOPENED,
            "The final's score sheet was added up wrong.",
            tournament.organiser.pk,
        ),
    ]
    with pytest.raises(Conflict) as again:
        tournament_reopen(tournament_id=tournament.pk, actor=tournament.organiser, reason="x")
    assert again.value.code == "wrong_status"


def test_finishing_again_places_and_rates_what_changed(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, stage = _finished_single_elimination(django_capture_on_commit_callbacks)
    final = Match.objects.get(stage=stage, key="W2-1")
    champion, runner_up = final.home_id, final.away_id
    places = dict(tournament.entries.values_list("pk", "final_place"))
    assert (places[champion], places[runner_up]) == (1, 2)
    champion_players = set(final.home.team.player_ids)
    rated = set(
        RatingChange.objects.filter(match=final, result="win").values_list("player_id", flat=True)
    )
    assert rated == champion_players

    # finished: the result stands
    with pytest.raises(Conflict):
        match_forfeit(
            match_id=final.pk,
            actor=tournament.organiser,
            loser_id=champion,
            expected_version=final.version,
            overturn_result=True,
        )
    tournament_reopen(
        tournament_id=tournament.pk, actor=tournament.organiser, reason="Final awarded wrongly."
    )
    with django_capture_on_commit_callbacks(execute=False):  # its re-rating never ran
        match_forfeit(
            match_id=final.pk,
            actor=tournament.organiser,
            loser_id=champion,
            expected_version=final.version,
            overturn_result=True,
        )
    assert RatingChange.objects.filter(match=final).exists()
    with django_capture_on_commit_callbacks(execute=True):
        tournament = tournament_finish(tournament_id=tournament.pk, actor=tournament.organiser)
    places = dict(tournament.entries.values_list("pk", "final_place"))
    assert (places[runner_up], places[champion]) == (1, 2)
    # a forfeit rates nobody: the final's rating changes are taken back
    assert not RatingChange.objects.filter(match=final).exists()
    assert [e.kind for e in tournament.events.all()] == ["finished", "reopened", "finished"]


def test_the_api_reopens_with_a_reason_and_shows_the_history() -> None:
    tournament, _stage = _finished_single_elimination()
    client = APIClient()
    client.force_authenticate(tournament.organiser)
    url = f"/api/v1/tournaments/{tournament.slug}/reopen/"
    missing = client.post(url, {}, format="json")
    assert missing.status_code == 400
    assert "reason" in missing.json()["fields"]
    answer = client.post(url, {"reason": "A hand was entered for the wrong team."}, format="json")
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "running"
    assert [(h["kind"], h["reason"]) for h in body["history"]] == [
        ("finished", ""),
        ("reopened", "A hand was entered for the wrong team."),
    ]
    assert body["history"][1]["by"] == tournament.organiser.username


def test_the_directors_day_reopens_a_finished_tournament_with_a_reason() -> None:
    from django.test import Client

    from tests.scoring.factories import UserFactory

    tournament, _stage = _finished_single_elimination()
    client = Client()
    client.force_login(tournament.organiser)
    day = f"/tournaments/{tournament.slug}/director/"
    page = client.get(day).content.decode()
    assert "Reopen the tournament" in page
    url = f"{day}reopen/"
    refused = client.post(url, {"reason": ""})
    assert refused.status_code == 400
    assert "say why the tournament is reopened" in refused.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.post(url, {"reason": "mine now"}).status_code == 403
    done = client.post(url, {"reason": "The final was entered the wrong way round."})
    assert done.status_code == 302
    assert done["Location"] == day
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    assert "Reopen the tournament" not in client.get(day).content.decode()
    assert tournament.events.last().reason == "The final was entered the wrong way round."
