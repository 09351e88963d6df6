"""A tournament match played online: its game at a private table of the two entries'
players, its result flowing into the match as a score-pad's does."""

from __future__ import annotations

import random
from typing import Any

import pytest

from play import services
from play.models import Table
from play.selectors import table_state
from scoring.models import Game, Player
from tarabish_site.api.errors import Conflict, NotAllowed
from tests.play.helpers import play_out
from tests.scoring.factories import UserFactory
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


def _online_match() -> tuple[Any, Match, Table]:
    tournament = tournament_ready(2)
    stage = add_stage(tournament, "single_elim", match_format="best_of", match_games=3)
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = Match.objects.get(stage=stage)
    link = match_game_start_online(match_id=match.pk, actor=tournament.organiser)
    return tournament, match, Table.objects.get(game=link.game)


def test_a_match_table_offers_the_matchs_next_game_not_a_casual_one() -> None:
    tournament, match, table = _online_match()
    table.seats.update(bot=True)
    rng = random.Random(5)
    services.move(table=table, seat=0, data={"type": "start"}, rng=rng)
    play_out(table, rng)
    table.refresh_from_db()
    first = table.game
    assert table.phase == Table.Phase.GAME_OVER
    with pytest.raises(Conflict) as refused:
        services.move(table=table, seat=0, data={"type": "start"}, rng=rng)
    assert refused.value.code == "games_set_up_elsewhere"
    state = table_state(table, 0)
    assert state["game"]["owner"]["page"] == f"/matches/{match.pk}/"
    assert "next game" in state["game"]["owner"]["next"]
    link = match_game_start_online(match_id=match.pk, actor=tournament.organiser)
    assert link.number == 2
    again = Table.objects.get(game=link.game)
    assert again.pk == table.pk  # the same table, its people where they sat
    assert again.phase == Table.Phase.SEATING
    assert first is not None
    assert Game.objects.filter(match_link__match=match).count() == 2
    assert [s.player_id for s in again.seats.order_by("number")] == list(link.game.seat_ids)


def test_a_seat_without_an_account_waits_for_its_player_or_a_computer() -> None:
    tournament, _match, table = _online_match()
    seats = list(table.seats.order_by("number"))
    assert all(s.user_id is None for s in seats)  # nobody of the entries has an account yet
    with pytest.raises(Conflict) as refused:
        services.move(table=table, seat=0, data={"type": "start"})
    assert refused.value.code == "seat_waiting"
    assert table_state(table, None)["seats"][0]["waiting"] is True

    # seat 0's player gets an account: opening the table, the seat is theirs
    person = UserFactory.create()
    Player.objects.filter(pk=seats[0].player_id or 0).update(user=person)
    assert services.seat_of(table, person) == 0
    assert table.seats.get(number=0).user_id == person.pk

    # the others: a director gives them to computers; nobody else may
    with pytest.raises(NotAllowed):
        services.seat_to_computer(table=table, user=person, seat=1)
    with pytest.raises(Conflict):
        services.seat_to_computer(table=table, user=tournament.organiser, seat=0)
    for n in (1, 2, 3):
        services.seat_to_computer(table=table, user=tournament.organiser, seat=n)
    services.move(table=table, seat=0, data={"type": "start"})
    table.refresh_from_db()
    assert table.phase == Table.Phase.CUTTING


def test_a_director_gives_a_waiting_seat_to_a_computer_from_the_table_page() -> None:
    from django.test import Client

    tournament, _match, table = _online_match()
    client = Client()
    assert tournament.organiser is not None
    client.force_login(tournament.organiser)
    page = client.get(f"/play/{table.pk}/").content.decode()
    assert page.count("A computer plays for") == 4
    client.post(f"/play/{table.pk}/seat/", {"do": "computer", "seat": "2"})
    assert table.seats.get(number=2).bot
    stranger = Client()
    stranger.force_login(UserFactory.create())
    assert stranger.post(
        f"/play/{table.pk}/seat/", {"do": "computer", "seat": "1"}
    ).status_code in (404, 409, 403)
    assert not table.seats.get(number=1).bot
