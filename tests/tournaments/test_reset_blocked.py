"""A held result change that would re-open a match whose game is being played: that game's
score-pad says so at once, and the director's confirmation names the game that must end and
offers to end it and confirm in one step (one transaction; 409 if another game blocks it by
then)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from scoring import services as scoring_services
from scoring.models import Game
from tarabish_site.api.errors import Conflict
from tarabish_site.api.messages import CODE_MESSAGES
from tests.api_schema import served_schema
from tests.scoring.factories import summary
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import win_match
from tournaments import selectors
from tournaments.models import Match, MatchGame, Tournament
from tournaments.services import (
    match_game_start,
    match_reset_blocked_by,
    match_reset_confirm,
    match_sync_for_game,
    stage_start,
)

pytestmark = pytest.mark.django_db


@dataclass
class Held:
    tournament: Tournament
    first: Match  # W1-1, whose result was changed and is held
    final: Match  # W2-1, which confirming re-opens
    playing: Game  # the final's game being played


def held_with_a_game_being_played() -> Held:
    """A four-team knockout: both semi-finals won, the final's game under way, then the first
    semi-final's game reopened, so its match holds a change that would re-open the final."""
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    first = win_match(Match.objects.get(stage=stage, key="W1-1"), "home")
    win_match(Match.objects.get(stage=stage, key="W1-2"), "home")
    final = Match.objects.get(stage=stage, key="W2-1")
    playing = match_game_start(match_id=final.pk, actor=None, first_dealer=0).game
    scoring_services.hand_record(
        game=playing, entry_kind="summary", entry=summary(caller=1, card_points=[22, 140])
    )
    game = MatchGame.objects.get(match=first).game
    scoring_services.game_reopen(game=game, by=tournament.organiser)
    assert match_sync_for_game(game_id=game.pk) is None  # held
    first.refresh_from_db()
    assert first.held_reason
    return Held(tournament, first, final, playing)


def test_the_game_a_held_change_would_reopen_is_found_and_no_other() -> None:
    held = held_with_a_game_being_played()
    found = selectors.held_change_reopening(held.playing.pk)
    assert found is not None
    assert (found[0].pk, found[1].pk) == (held.first.pk, held.final.pk)
    semi_game = MatchGame.objects.get(match=held.first).game
    assert selectors.held_change_reopening(semi_game.pk) is None  # nothing re-opens W1-1
    blocking = match_reset_blocked_by(held.first)
    assert blocking is not None
    assert (blocking.game_id, blocking.match.key) == (held.playing.pk, "W2-1")


def test_ending_the_game_and_confirming_is_one_step() -> None:
    held = held_with_a_game_being_played()
    match_reset_confirm(
        match_id=held.first.pk,
        actor=held.tournament.organiser,
        expected_version=held.first.version,
        end_game_id=held.playing.pk,
    )
    held.playing.refresh_from_db()
    assert held.playing.status == Game.Status.ABANDONED
    assert MatchGame.objects.get(game=held.playing).discarded
    assert Match.objects.get(pk=held.final.pk).state == Match.State.PENDING
    first = Match.objects.get(pk=held.first.pk)
    assert (first.state, first.held_reason) == (Match.State.IN_PROGRESS, "")
    assert selectors.held_change_reopening(held.playing.pk) is None


def test_another_game_blocking_by_then_is_a_conflict_and_nothing_changes() -> None:
    held = held_with_a_game_being_played()
    with pytest.raises(Conflict) as refused:
        match_reset_confirm(
            match_id=held.first.pk,
            actor=held.tournament.organiser,
            expected_version=held.first.version,
            end_game_id=held.playing.pk + 1000,
        )
    assert refused.value.code == "game_changed"
    # the game named ended meanwhile (its pad finished it): nothing blocks, nothing is ended
    while held.playing.status == Game.Status.IN_PROGRESS:
        scoring_services.hand_record(
            game=held.playing, entry_kind="summary", entry=summary(caller=1, card_points=[22, 140])
        )
        held.playing.refresh_from_db()
    with pytest.raises(Conflict) as refused:
        match_reset_confirm(
            match_id=held.first.pk,
            actor=held.tournament.organiser,
            expected_version=held.first.version,
            end_game_id=held.playing.pk,
        )
    assert refused.value.code == "game_changed"
    held.playing.refresh_from_db()
    assert held.playing.status == Game.Status.FINISHED
    assert not MatchGame.objects.get(game=held.playing).discarded
    assert Match.objects.get(pk=held.first.pk).held_reason == held.first.held_reason


def test_the_pad_says_so_at_once_and_its_poll_redraws_when_it_starts_or_stops() -> None:
    held = held_with_a_game_being_played()
    client = Client()
    assert held.tournament.organiser is not None
    client.force_login(held.tournament.organiser)
    pad = client.get(reverse("scoring:game-pad", args=[held.playing.pk]))
    assert 'id="owner-warning"' in pad.content.decode()
    assert "re-opens this match (W2-1)" in pad.content.decode()
    sheet = reverse("scoring:game-pad-sheet", args=[held.playing.pk])
    version = str(held.playing.version)
    assert client.get(sheet, {"version": version, "warned": "1"}).status_code == 204
    redrawn = client.get(sheet, {"version": version, "warned": "0"})
    assert redrawn.status_code == 200
    assert 'data-warned="1"' in redrawn.content.decode()
    # the director keeps the result: the warning goes, and the pad's poll redraws
    client.post(
        reverse("tournaments:match-hold-clear", args=[held.first.pk]),
        {"version": held.first.version, "confirmed": "yes"},
    )
    cleared = client.get(sheet, {"version": version, "warned": "1"})
    assert cleared.status_code == 200
    assert 'id="owner-warning"' not in cleared.content.decode()


def test_the_confirmation_names_the_game_and_ends_it_with_the_change() -> None:
    held = held_with_a_game_being_played()
    client = Client()
    assert held.tournament.organiser is not None
    client.force_login(held.tournament.organiser)
    url = reverse("tournaments:match-reset-confirm", args=[held.first.pk])
    asked = client.post(url, {"version": held.first.version})
    text = asked.content.decode()
    assert asked.status_code == 200
    assert "Game 1 of W2-1" in text
    assert "must end first" in text
    assert f'name="end_game" value="{held.playing.pk}"' in text
    done = client.post(
        url, {"version": held.first.version, "confirmed": "yes", "end_game": held.playing.pk}
    )
    assert done.status_code == 302
    held.playing.refresh_from_db()
    assert held.playing.status == Game.Status.ABANDONED
    assert Match.objects.get(pk=held.final.pk).state == Match.State.PENDING


# ------------------------------------------------------------------------------ the API
def _api(held: Held) -> APIClient:
    client = APIClient()
    client.force_authenticate(held.tournament.organiser)
    return client


def _confirm(client: APIClient, held: Held, body: dict[str, object] | None = None) -> Any:
    return client.post(
        f"/api/v1/matches/{held.first.pk}/confirm-reset/",
        body,
        format="json",
        HTTP_IF_MATCH=f'"{held.first.version}"',
    )


def _stored(held: Held) -> tuple[object, ...]:
    """What a refused confirmation must leave as it was."""
    playing = Game.objects.get(pk=held.playing.pk)
    first = Match.objects.get(pk=held.first.pk)
    final = Match.objects.get(pk=held.final.pk)
    return (
        playing.status,
        playing.version,
        MatchGame.objects.get(game=held.playing).discarded,
        first.version,
        first.held_reason,
        final.state,
        final.version,
    )


def test_the_api_ends_the_game_named_and_confirms_in_one_call() -> None:
    held = held_with_a_game_being_played()
    client = _api(held)
    before = _stored(held)
    assert before[0] == Game.Status.IN_PROGRESS
    without = _confirm(client, held)
    assert without.status_code == 409
    assert without.json()["code"] == "game_in_progress"
    assert f"game {held.playing.pk} is still being played" in without.json()["message"]
    assert _stored(held) == before
    done = _confirm(client, held, {"end_game": held.playing.pk})
    assert done.status_code == 200, done.json()
    assert done.json()["state"] == Match.State.IN_PROGRESS
    assert done.json()["held_reason"] == ""
    assert done["ETag"] == f'"{Match.objects.get(pk=held.first.pk).version}"'
    held.playing.refresh_from_db()
    assert held.playing.status == Game.Status.ABANDONED
    assert "W1-1" in held.playing.ended_reason
    assert MatchGame.objects.get(game=held.playing).discarded
    assert Match.objects.get(pk=held.final.pk).state == Match.State.PENDING


@pytest.mark.parametrize(
    ("end_game", "status", "code"),
    [
        ("another game", 409, "game_changed"),
        ("a string", 400, "invalid"),
        (0, 400, "invalid"),
        (None, 400, "invalid"),
    ],
)
def test_the_api_refuses_a_wrong_game_and_changes_nothing(
    end_game: object, status: int, code: str
) -> None:
    held = held_with_a_game_being_played()
    if end_game == "another game":
        end_game = held.playing.pk + 1000
    elif end_game == "a string":
        end_game = str(held.playing.pk)
    before = _stored(held)
    refused = _confirm(_api(held), held, {"end_game": end_game})
    assert refused.status_code == status
    body = refused.json()
    assert body["code"] == code
    assert list(body["fields"]) == ["end_game"]
    assert _stored(held) == before


@pytest.fixture
def _english_after() -> Iterator[None]:
    """A request leaves its language active in the thread that served it."""
    yield
    translation.deactivate()


@pytest.mark.usefixtures("_english_after")
def test_the_api_refuses_a_game_that_ended_meanwhile_in_french_too() -> None:
    held = held_with_a_game_being_played()
    scoring_services.game_end_early(game=held.playing, reason="The hall closes.")
    refused = _confirm(_api(held), held, {"end_game": held.playing.pk})
    assert refused.status_code == 409
    assert refused.json()["code"] == "game_changed"
    assert "no longer the game that must end" in refused.json()["message"]
    french = _api(held).post(
        f"/api/v1/matches/{held.first.pk}/confirm-reset/",
        {"end_game": held.playing.pk},
        format="json",
        HTTP_IF_MATCH=f'"{held.first.version}"',
        HTTP_ACCEPT_LANGUAGE="fr-CA",
    )
    assert french.status_code == 409
    assert french.json()["code"] == "game_changed"
    assert french.json()["message"] == str(CODE_MESSAGES["game_changed"])
    assert "partie" in french.json()["message"]
    first = Match.objects.get(pk=held.first.pk)
    assert (first.version, first.held_reason) == (held.first.version, held.first.held_reason)


def test_the_api_documents_the_game_to_end() -> None:
    schema = served_schema()
    operation = schema["paths"]["/api/v1/matches/{id}/confirm-reset/"]["post"]
    body = operation["requestBody"]
    assert body.get("required", False) is False
    ref = body["content"]["application/json"]["schema"]["$ref"]
    shape = schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]
    assert set(shape["properties"]) == {"end_game"}
    assert "required" not in shape
    assert shape["properties"]["end_game"]["type"] == "integer"
    assert {"400", "409"} <= set(operation["responses"])
    assert "game_changed" in operation["description"]
