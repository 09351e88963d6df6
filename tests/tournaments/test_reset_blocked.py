"""A held result change that would re-open a match whose game is being played: that game's
score-pad says so at once, and the director's confirmation names the game that must end and
offers to end it and confirm in one step (one transaction; 409 if another game blocks it by
then)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services as scoring_services
from scoring.models import Game
from tarabish_site.api.errors import Conflict
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
