"""The plain-HTTP fallback: the table's state for one's seat with an ETag, and moves."""

from __future__ import annotations

import json
import random
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from play import services
from play.models import OnlineHand, Table
from tests.play.helpers import table_with
from tests.scoring.factories import UserFactory

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_state_answers_304_until_the_table_changes(
    django_assert_max_num_queries: Any,
) -> None:
    table, (ann,) = table_with(1)
    client = _client(ann)
    with django_assert_max_num_queries(12):
        first = client.get(f"/play/{table.pk}/state/")
    assert first.status_code == 200
    assert first.json()["you"] == 0
    etag = first["ETag"]
    again = client.get(f"/play/{table.pk}/state/", headers={"if-none-match": etag})
    assert again.status_code == 304
    zipped = client.get(f"/play/{table.pk}/state/", headers={"accept-encoding": "gzip"})
    assert zipped["ETag"].startswith("W/")  # compressed: the tag comes back weak
    weak = client.get(f"/play/{table.pk}/state/", headers={"if-none-match": zipped["ETag"]})
    assert weak.status_code == 304
    moved = client.post(
        f"/play/{table.pk}/move/", data=json.dumps({"type": "start"}), content_type="x/json"
    )
    assert moved.status_code == 200
    assert moved.json()["phase"] == "cutting"
    after = client.get(f"/play/{table.pk}/state/", headers={"if-none-match": etag})
    assert after.status_code == 200
    assert after["ETag"] != etag


def test_a_refused_move_answers_409_with_the_engines_reason() -> None:
    table, (ann,) = table_with(1)
    client = _client(ann)
    services.move(table=table, seat=0, data={"type": "start"}, rng=random.Random(2))
    hand = OnlineHand.objects.get(table=table)
    assert services.cutter_of(hand.dealer) != 0  # this flip: seat 0 does not cut
    answer = client.post(
        f"/play/{table.pk}/move/", data={"type": "cut", "at": 9}, content_type="application/json"
    )
    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "out_of_turn"
    assert "cuts the deck" in body["message"]
    assert body["fields"] == {"cut": [body["message"]]}


def test_a_spectator_may_not_move_and_a_private_table_is_hidden() -> None:
    table, _ = table_with(1, public=False)
    stranger = _client(UserFactory.create())
    assert stranger.get(f"/play/{table.pk}/state/").status_code == 404
    invited = stranger.get(f"/play/{table.pk}/state/?invite={table.invite_token}")
    assert invited.status_code == 200
    assert invited.json()["you"] is None
    refused = stranger.post(
        f"/play/{table.pk}/move/", data={"type": "start"}, content_type="application/json"
    )
    assert refused.status_code == 403
    assert refused.json()["code"] == "not_seated"


def test_a_poll_makes_the_computer_moves_that_are_owed(settings: Any) -> None:
    settings.PLAY_COMPUTER_DELAY = (0.0, 0.0)
    table, (ann,) = table_with(1)
    services.move(table=table, seat=0, data={"type": "start"}, rng=random.Random(2))
    hand = OnlineHand.objects.get(table=table)
    assert services.cutter_of(hand.dealer) != 0  # this flip: a computer cuts
    before = Table.objects.get(pk=table.pk).version
    state = _client(ann).get(f"/play/{table.pk}/state/").json()
    # the computers cut, then call or play until it is her turn
    assert state["version"] > before + 1
    assert state["phase"] == "playing"
    assert state["hand"]["view"]["to_act"] == 0


def test_a_person_away_too_long_is_played_for_by_a_computer() -> None:
    table, (_ann,) = table_with(1, replace_after=30)
    services.move(table=table, seat=0, data={"type": "start"}, rng=random.Random(4))
    table.seats.filter(number=0).update(away_since=timezone.now() - timedelta(seconds=10))
    rng = random.Random(1)
    while services.computer_move(table=table, rng=rng):
        pass
    # 25 s away: the table still waits for her (it replaces after 30 s)
    later = timezone.now() + timedelta(seconds=15)
    assert not services.computer_move(table=table, now=later, rng=rng)
    much_later = timezone.now() + timedelta(seconds=60)
    assert services.computer_move(table=table, now=much_later, rng=rng)
