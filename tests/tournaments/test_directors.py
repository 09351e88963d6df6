# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr"
"""A tournament's directors are directors of its games, and of no other: named through the
API, they keep score in its match games and rule on their misplay disputes."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from scoring import services as scoring_services
from scoring.engine import preset, simulate_hand
from scoring.models import Game, MisplayDispute
from tarabish_site.api.errors import NotAllowed
from tests.scoring.factories import GameFactory, UserFactory, record_hand, summary
from tests.tournaments.factories import add_stage, tournament_ready
from tournaments.models import Match, Tournament
from tournaments.services import (
    match_game_start,
    stage_start,
    tournament_create,
    tournament_director_add,
)

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> APIClient:
    client = APIClient()
    # A fresh row each time, so no permission cache outlives a change of rights.
    client.force_authenticate(get_user_model().objects.get(pk=user.pk))
    return client


def test_a_named_director_rules_on_a_dispute_of_a_match_game(
    django_capture_on_commit_callbacks: Any,
) -> None:
    organiser = UserFactory(director=True)
    tournament = tournament_ready(2, organiser=organiser)
    named = UserFactory()
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=organiser)
    match = Match.objects.get(stage=stage)

    # Not yet a director: may not start the match's game.
    started = client_for(named).post(f"/api/v1/matches/{match.pk}/games/", {"first_dealer": 0})
    assert started.status_code == 403

    url = f"/api/v1/tournaments/{tournament.slug}/directors/"
    assert client_for(UserFactory()).post(url, {"user": named.pk}).status_code == 403
    bad = client_for(organiser).post(url, {"user": 99999})
    assert bad.status_code == 400
    assert list(bad.json()["fields"]) == ["user"]
    assert client_for(organiser).post(url, {"user": named.pk}).status_code == 200
    assert tournament.directors.filter(pk=named.pk).exists()

    started = client_for(named).post(f"/api/v1/matches/{match.pk}/games/", {"first_dealer": 0})
    assert started.status_code == 201
    game = match.match_games.get().game
    assert set(game.scorekeepers.values_list("pk", flat=True)) >= {organiser.pk, named.pk}

    simulated = simulate_hand(preset("cape-breton-standard"), random.Random(11), dealer=0)
    record = simulated.record.to_json()
    record_hand(
        game,
        {key: record[key] for key in ("caller", "trump", "tricks", "hands", "runs")},
        entry_kind="tricks",
    )
    with django_capture_on_commit_callbacks(execute=True):
        called = client_for(named).post(
            f"/api/v1/games/{game.pk}/hands/1/disputes/",
            {"called_by": 0, "accused": 1, "trick": 1},
        )
    assert called.status_code == 201
    dispute_url = f"/api/v1/disputes/{called.json()['id']}/ruling/"
    assert client_for(UserFactory()).post(dispute_url, {"ruling": "upheld"}).status_code == 403
    ruled = client_for(named).post(dispute_url, {"ruling": "upheld"})
    assert ruled.status_code == 200, ruled.json()
    assert MisplayDispute.objects.get().ruling == "upheld"


def test_only_a_director_of_games_creates_a_tournament_and_its_directors_name_others() -> None:
    plain = UserFactory()
    with pytest.raises(NotAllowed):
        tournament_create(
            actor=plain, name="Kitchen Party", starts_on=__import__("datetime").date(2026, 12, 1)
        )
    tournament = tournament_ready(2)  # its organiser was made without the right to direct games
    with pytest.raises(NotAllowed):
        tournament_director_add(tournament_id=tournament.pk, actor=plain, user_id=plain.pk)
    tournament_director_add(
        tournament_id=tournament.pk, actor=tournament.organiser, user_id=plain.pk
    )
    assert tournament.directors.filter(pk=plain.pk).exists()
    assert not get_user_model().objects.get(pk=plain.pk).has_perm("scoring.direct_games")


def _match_game(organiser: Any, *, named: Any = None) -> Game:
    """A match game of a new tournament of ``organiser``, started by ``named`` once named a
    director when given (else by the organiser)."""
    tournament = tournament_ready(2, organiser=organiser)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=organiser)
    match = Match.objects.get(stage=stage)
    starter = organiser
    if named is not None:
        tournament_director_add(tournament_id=tournament.pk, actor=organiser, user_id=named.pk)
        starter = named
    return match_game_start(match_id=match.pk, actor=starter, first_dealer=0).game


def _named_director() -> tuple[Any, Game, Tournament, Any]:
    """An organiser who directs every game, a match game of their tournament, the tournament,
    and an account they named its director."""
    organiser = UserFactory(director=True)
    game = _match_game(organiser)
    tournament = game.match_link.match.stage.tournament
    named = UserFactory()
    tournament_director_add(tournament_id=tournament.pk, actor=organiser, user_id=named.pk)
    return organiser, game, tournament, named


def test_a_tournaments_director_directs_its_match_games_and_no_other() -> None:
    organiser, game, tournament, account = _named_director()
    casual = GameFactory.create()
    elsewhere = _match_game(UserFactory(director=True))
    named = get_user_model().objects.get(pk=account.pk)

    assert scoring_services.user_can_direct(named, game)
    assert scoring_services.user_can_keep_score(named, game)
    assert not scoring_services.user_can_direct(named)
    assert not scoring_services.user_can_direct(named, casual)
    assert not scoring_services.user_can_direct(named, elsewhere)
    assert scoring_services.user_can_direct(organiser, casual)  # a director of every game

    # Through the API: the named director reopens the tournament's game, not a casual one.
    for target in (game, casual):
        scoring_services.game_end_early(game=target, reason="the hall closed")
    reopen = "/api/v1/games/{}/reopen/"
    refused = client_for(named).post(
        reopen.format(casual.pk),
        headers={"If-Match": f'"{Game.objects.get(pk=casual.pk).version}"'},
    )
    assert refused.status_code == 403
    assert refused.json()["message"] == "Only a director may do this."
    reopened = client_for(named).post(
        reopen.format(game.pk), headers={"If-Match": f'"{Game.objects.get(pk=game.pk).version}"'}
    )
    assert reopened.status_code == 200, reopened.json()
    assert reopened.json()["status"] == "in_progress"

    # The right ends with the tournament's list of directors.
    tournament.directors.remove(named)
    assert not scoring_services.user_can_direct(named, game)
    scoring_services.game_end_early(game=Game.objects.get(pk=game.pk), reason="again")
    with pytest.raises(NotAllowed):
        scoring_services.game_reopen(game=Game.objects.get(pk=game.pk), by=named)


def test_a_director_taken_off_through_the_api_directs_its_games_no_more() -> None:
    organiser, named = UserFactory(director=True), UserFactory()
    game = _match_game(organiser, named=named)  # started by the named director
    tournament = game.match_link.match.stage.tournament
    assert game.created_by_id == named.pk
    assert game.scorekeepers.filter(pk=named.pk).exists()
    hands = f"/api/v1/games/{game.pk}/hands/"
    first = client_for(named).post(hands, {"entry_kind": "summary", **summary(caller=0)})
    assert first.status_code == 201  # and this process remembers the game as it left it
    url = f"/api/v1/tournaments/{tournament.slug}/directors/{{}}/"

    assert client_for(UserFactory()).delete(url.format(named.pk)).status_code == 403
    kept = client_for(named).delete(url.format(organiser.pk))
    assert kept.status_code == 400
    assert list(kept.json()["fields"]) == ["user"]
    unknown = client_for(organiser).delete(url.format(99999))
    assert unknown.status_code == 400
    assert "is not a director" in unknown.json()["fields"]["user"][0]
    version = Tournament.objects.get(pk=tournament.pk).version

    listed = client_for(organiser).get(f"/api/v1/tournaments/{tournament.slug}/").json()
    assert {"id": named.pk, "username": named.username} in listed["directors"]
    removed = client_for(organiser).delete(url.format(named.pk))
    assert removed.status_code == 200, removed.json()
    assert removed.json()["version"] == version + 1
    assert named.pk not in [account["id"] for account in removed.json()["directors"]]
    assert not tournament.directors.filter(pk=named.pk).exists()
    assert not scoring_services.user_can_direct(get_user_model().objects.get(pk=named.pk), game)
    assert client_for(named).delete(url.format(named.pk)).status_code == 403
    # Nor may they write to the game they started while they directed the tournament.
    assert not game.scorekeepers.filter(pk=named.pk).exists()
    hand = client_for(named).post(hands, {"entry_kind": "summary", **summary(caller=1)})
    assert hand.status_code == 403
    assert game.hands.count() == 1


def test_a_named_director_finds_the_private_tournaments_games_in_the_lists() -> None:
    organiser = UserFactory(director=True)
    tournament = tournament_ready(2, organiser=organiser, public=False)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=organiser)
    match = Match.objects.get(stage=stage)
    game = match_game_start(match_id=match.pk, actor=organiser, first_dealer=0).game
    named = UserFactory()
    assert game.public is False

    def listed() -> list[int]:
        body = client_for(named).get("/api/v1/games/").json()
        return [g["id"] for g in body["results"]]

    assert game.pk not in listed()
    tournament_director_add(tournament_id=tournament.pk, actor=organiser, user_id=named.pk)
    assert game.pk in listed()  # named after the game started: not one of its scorekeepers
    tournament.directors.remove(named)
    assert game.pk not in listed()
