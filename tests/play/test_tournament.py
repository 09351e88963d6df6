"""A tournament match played online: its game at a private table of the two entries'
players, its result flowing into the match as a score-pad's does."""

from __future__ import annotations

import random

import pytest

from play import services
from play.models import Table
from scoring.models import Game
from tests.play.helpers import play_out
from tests.tournaments.factories import add_stage, tournament_ready
from tournaments.models import Match
from tournaments.services import match_game_start_online, stage_start

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_match_played_online_decides_the_match() -> None:
    tournament = tournament_ready(2)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = Match.objects.get(stage=stage)
    link = match_game_start_online(match_id=match.pk, actor=tournament.organiser)
    table = Table.objects.get(game=link.game)
    assert not table.public
    seats = list(table.seats.order_by("number"))
    assert [s.player_id for s in seats] == list(link.game.seat_ids)
    assert link.game.first_dealer is None  # flipped for at the table
    table.seats.update(bot=True)  # the players' computers stand in for them here
    rng = random.Random(3)
    services.move(table=table, seat=0, data={"type": "start"}, rng=rng)
    table.refresh_from_db()
    assert table.game_id == link.game.pk  # the match's own game, not a new one
    play_out(table, rng)
    game = Game.objects.get(pk=link.game.pk)
    assert game.status == Game.Status.FINISHED
    match.refresh_from_db()
    assert match.home_games + match.away_games == 1
    winner = match.home_id if game.winner == "team_a" else match.away_id
    if match.games_planned == 1:
        assert match.winner_id == winner


def test_a_director_starts_a_match_game_online_from_the_match_page() -> None:
    from django.test import Client

    tournament = tournament_ready(2)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = Match.objects.get(stage=stage)
    client = Client()
    assert tournament.organiser is not None
    client.force_login(tournament.organiser)
    assert "Start the next game online" in client.get(f"/matches/{match.pk}/").content.decode()
    answer = client.post(f"/matches/{match.pk}/games/", {"online": "1"})
    table = Table.objects.get(game__match_link__match=match)
    assert answer["Location"] == f"/play/{table.pk}/"
    assert client.get(answer["Location"]).status_code == 200
