"""The lobby and the table page."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from play import services
from play.models import Seat, Table
from scoring.models import Player
from tests.play.helpers import table_with
from tests.scoring.factories import UserFactory

pytestmark = pytest.mark.django_db


def _client(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_lobby_lists_open_tables_with_their_seats(
    django_assert_max_num_queries: Any,
) -> None:
    for _ in range(3):
        table_with(1)
    table_with(1, public=False, name="Family only")
    with django_assert_max_num_queries(6):
        page = _client().get("/play/")
    text = page.content.decode()
    assert page.status_code == 200
    assert text.count("Computer 2") == 3
    assert "Family only" not in text
    assert "Sign up to play" in text


def test_the_lobby_sends_a_seated_player_back_to_their_seat_and_others_to_watch() -> None:
    ann = UserFactory.create()
    _client(ann).post(
        "/play/",
        {
            "table-name": "Ann's",
            "table-ruleset_preset": "cape-breton-standard",
            "table-public": "on",
        },
    )
    table = Table.objects.get(name="Ann's")
    seat = Seat.objects.get(table=table, user=ann).number
    mine = _client(ann).get("/play/").content.decode()
    assert f'href="/play/{table.pk}/">Back to your seat ({seat})</a>' in mine
    assert "(you)</span>" in mine
    theirs = _client(UserFactory.create()).get("/play/").content.decode()
    assert f'href="/play/{table.pk}/">Watch</a>' in theirs
    assert "Back to your seat" not in theirs
    assert "(you)" not in theirs


def test_the_new_tables_checkboxes_sit_inside_their_labels() -> None:
    page = _client(UserFactory.create()).get("/play/").content.decode()
    for name in ("public", "computers"):
        assert f'<label for="id_table-{name}"><input type="checkbox" name="table-{name}"' in page


def test_signing_up_in_one_step_gives_an_account_and_a_player() -> None:
    client = _client()
    answer = client.post(
        "/play/",
        {
            "signup-username": "joe",
            "signup-password": "a long table password 42",
            "signup-display_name": "Joe Pat MacNeil",
        },
    )
    assert answer.status_code == 302
    user = get_user_model().objects.get(username="joe")
    assert Player.objects.get(user=user).display_name == "Joe Pat MacNeil"
    assert "New table" in client.get("/play/").content.decode()


def test_a_taken_username_or_a_weak_password_is_said_next_to_its_field() -> None:
    UserFactory.create(username="joe")
    answer = _client().post(
        "/play/",
        {"signup-username": "Joe", "signup-password": "123", "signup-display_name": "Joe"},
    )
    assert answer.status_code == 400
    text = answer.content.decode()
    assert "This username is taken" in text
    assert "too short" in text
    assert get_user_model().objects.count() == 1


def test_a_new_table_seats_its_creator_and_computers() -> None:
    ann = UserFactory.create()
    answer = _client(ann).post(
        "/play/",
        {
            "table-name": "Kitchen",
            "table-ruleset_preset": "cape-breton-standard",
            "table-public": "on",
            "table-computers": "on",
        },
    )
    table = Table.objects.get(name="Kitchen")
    assert answer["Location"] == f"/play/{table.pk}/"
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    assert seats[0].user_id == ann.pk
    assert all(s.bot for s in seats[1:])
    page = _client(ann).get(f"/play/{table.pk}/")
    assert page.status_code == 200
    assert f"?invite={table.invite_token}" in page.content.decode()


def test_sitting_and_standing_from_the_lobby() -> None:
    ann = UserFactory.create()
    bob = UserFactory.create()
    table_client = _client(ann)
    table_client.post(
        "/play/",
        {
            "table-name": "Open",
            "table-ruleset_preset": "cape-breton-standard",
            "table-public": "on",
        },
    )
    table = Table.objects.get(name="Open")
    answer = _client(bob).post(f"/play/{table.pk}/seat/", {"do": "sit", "seat": "2"})
    assert answer.status_code == 302
    assert Seat.objects.get(table=table, number=2).user_id == bob.pk
    taken = _client(UserFactory.create()).post(
        f"/play/{table.pk}/seat/", {"do": "sit", "seat": "2"}
    )
    assert taken.status_code == 409
    assert "seat 2 is taken" in taken.content.decode()
    _client(bob).post(f"/play/{table.pk}/seat/", {"do": "stand"})
    assert Seat.objects.get(table=table, number=2).user_id is None


def test_a_private_table_page_needs_its_invite_link() -> None:
    table, _ = table_with(1, public=False)
    stranger = _client(UserFactory.create())
    assert stranger.get(f"/play/{table.pk}/").status_code == 404
    assert stranger.get(f"/play/{table.pk}/?invite={table.invite_token}").status_code == 200
    assert stranger.get(f"/play/{table.pk}/").status_code == 200  # let in for good


def test_a_private_tables_game_is_seen_by_everyone_at_the_table() -> None:
    table, (ann, bob) = table_with(2, public=False)
    services.move(table=table, seat=0, data={"type": "start"})
    table.refresh_from_db()
    assert table.game is not None
    assert not table.game.public
    for person in (ann, bob):
        assert _client(person).get(f"/games/{table.game.pk}/").status_code == 200
    assert _client(UserFactory.create()).get(f"/games/{table.game.pk}/").status_code == 404
