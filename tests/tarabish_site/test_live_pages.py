# mypy: disable-error-code="no-untyped-call,no-untyped-def,attr-defined,arg-type,misc,union-attr"
"""Pages update themselves by push: what stores a change tells the watchers of the game, the
match and the tournament (tarabish_site.live), and the parts those pages fetch again answer
304 to a poll that already has them (ETag)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from scoring import services as scoring_services
from tests.scoring.factories import GameFactory, summary
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import ready_matches
from tests.websockets import connect
from tournaments import services

pytestmark = [pytest.mark.django_db(transaction=True)]


async def _watching(path: str):
    socket, accepted, _ = await connect(path)
    assert accepted
    assert (await socket.receive_json_from())["event"] == "watching"
    return socket


async def test_a_hand_entered_tells_the_games_watchers() -> None:
    game = await database_sync_to_async(GameFactory.create)(public=True, first_dealer=0)
    socket = await _watching(f"/ws/watch/game/{game.pk}/")
    await database_sync_to_async(scoring_services.hand_record)(
        game=game.pk, entry_kind="summary", entry=summary(caller=0)
    )
    message = await socket.receive_json_from(timeout=2)
    assert message == {"event": "changed", "topic": "game", "key": str(game.pk)}
    # an undo (a locked write) too
    await database_sync_to_async(scoring_services.hand_undo_last)(game=game)
    assert (await socket.receive_json_from(timeout=2))["event"] == "changed"
    await socket.disconnect()


async def test_a_refused_hand_tells_nobody() -> None:
    game = await database_sync_to_async(GameFactory.create)(public=True, first_dealer=0)
    socket = await _watching(f"/ws/watch/game/{game.pk}/")
    with pytest.raises(Exception, match="impossible"):
        await database_sync_to_async(scoring_services.hand_record)(
            game=game.pk, entry_kind="summary", entry=summary(caller=0, card_points=(161, 1))
        )
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


def _tournament_with_a_game():
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    services.stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = ready_matches(stage.pk)[0]
    return tournament, match


async def test_a_match_game_started_tells_the_match_and_the_tournament() -> None:
    tournament, match = await database_sync_to_async(_tournament_with_a_game)()
    on_match = await _watching(f"/ws/watch/match/{match.pk}/")
    on_tournament = await _watching(f"/ws/watch/tournament/{tournament.slug}/")
    await database_sync_to_async(services.match_game_start)(
        match_id=match.pk, actor=None, first_dealer=0
    )
    assert (await on_match.receive_json_from(timeout=2))["event"] == "changed"
    heard = await on_tournament.receive_json_from(timeout=2)
    assert heard == {"event": "changed", "topic": "tournament", "key": tournament.slug}
    await on_match.disconnect()
    await on_tournament.disconnect()


def _etag_then_304(url: str) -> None:
    client = Client()
    first = client.get(url)
    assert first.status_code == 200
    etag = first["ETag"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""


def test_the_live_parts_answer_304_until_something_changed() -> None:
    tournament, match = _tournament_with_a_game()
    game = services.match_game_start(match_id=match.pk, actor=None, first_dealer=0).game
    for url in (
        reverse("scoring:game-live", args=[game.pk]),
        reverse("tournaments:match-live", args=[match.pk]),
        reverse("tournaments:big-screen-live", args=[tournament.slug]),
        reverse("tournaments:stage-live", args=[tournament.slug, match.stage_id]),
    ):
        _etag_then_304(url)
    url = reverse("scoring:game-live", args=[game.pk])
    client = Client()
    etag = client.get(url)["ETag"]
    scoring_services.hand_record(game=game, entry_kind="summary", entry=summary(caller=0))
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert 'id="hand-1"' in changed.content.decode()


def test_the_game_and_match_pages_say_what_they_watch() -> None:
    _tournament, match = _tournament_with_a_game()
    game = services.match_game_start(match_id=match.pk, actor=None, first_dealer=0).game
    page = Client().get(reverse("scoring:game-detail", args=[game.pk])).content.decode()
    assert f'data-watch="game/{game.pk}"' in page
    page = Client().get(reverse("tournaments:match-detail", args=[match.pk])).content.decode()
    assert f'data-watch="match/{match.pk}"' in page
    assert f'data-watch-key="game/{game.pk}"' in page  # its game under way, watched too
