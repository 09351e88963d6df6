# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr,type-var,index"
# mypy: disable-error-code="return-value,misc"
"""The API of teams that register themselves: a player registers with a partner, the partner
confirms or declines, each lists their registrations; signed in by a device token."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from tests.api_schema import assert_described, served_schema
from tests.scoring.factories import UserFactory
from tests.tournaments.factories import TournamentFactory
from tournaments.models import Entry, TeamRegistration, Tournament

pytestmark = pytest.mark.django_db
PASSWORD = "tarabish-test"
NOW = timezone.now()


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Any:
    cache.clear()
    yield
    cache.clear()


def signed_in(username: str) -> APIClient:
    """A client signed in as a new account ``username`` by its device token."""
    get_user_model().objects.create_user(username, password=PASSWORD)
    body = {"username": username, "password": PASSWORD, "device": "phone"}
    token = APIClient().post("/api/v1/auth/token/", body, format="json").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def open_tournament(**values: Any) -> Tournament:
    values = {
        "slug": "legion-open",
        "status": Tournament.Status.REGISTRATION,
        "self_registration": True,
        "registration_closes_at": NOW + dt.timedelta(days=1),
        **values,
    }
    return TournamentFactory(**values)


URL = "/api/v1/tournaments/legion-open/registrations/"


def test_a_player_registers_with_a_partner_who_confirms() -> None:
    tournament = open_tournament()
    angus, flora = signed_in("angus"), signed_in("flora")
    made = angus.post(URL, {"partner": "flora", "team_name": "The Bait Shop"}, format="json")
    assert made.status_code == 201, made.json()
    body = made.json()
    assert made["Location"] == f"/api/v1/registrations/{body['id']}/"
    assert (body["requested_by"], body["partner"], body["status"]) == ("angus", "flora", "pending")
    assert (body["tournament"], body["entry"]) == ("legion-open", None)
    schema = served_schema()
    assert_described(schema, "TeamRegistration", body)

    listed = flora.get("/api/v1/registrations/").json()
    assert [r["id"] for r in listed["results"]] == [body["id"]]
    assert angus.get(made["Location"]).json() == body
    # nobody else sees it
    assert signed_in("ian").get(made["Location"]).status_code == 404

    refused = angus.post(f"/api/v1/registrations/{body['id']}/confirm/")
    assert refused.status_code == 403
    assert refused.json()["code"] == "partner_only"
    confirmed = flora.post(f"/api/v1/registrations/{body['id']}/confirm/")
    assert confirmed.status_code == 200
    assert confirmed.json()["status"] == "confirmed"
    entry = Entry.objects.get(tournament=tournament)
    assert confirmed.json()["entry"] == entry.pk
    assert entry.team.name == "The Bait Shop"
    entries = APIClient().get("/api/v1/tournaments/legion-open/entries/").json()["results"]
    assert [e["team_name"] for e in entries] == ["The Bait Shop"]


def test_the_partner_declines_and_the_player_withdraws() -> None:
    open_tournament()
    angus, flora = signed_in("angus"), signed_in("flora")
    first = angus.post(URL, {"partner": "flora"}, format="json").json()
    declined = flora.post(f"/api/v1/registrations/{first['id']}/withdraw/")
    assert declined.json()["status"] == "declined"
    second = angus.post(URL, {"partner": "flora"}, format="json").json()
    withdrawn = angus.post(f"/api/v1/registrations/{second['id']}/withdraw/")
    assert withdrawn.json()["status"] == "withdrawn"
    again = angus.post(f"/api/v1/registrations/{second['id']}/withdraw/")
    assert again.status_code == 409
    assert again.json()["code"] == "registration_decided"
    mine = angus.get("/api/v1/registrations/?status=withdrawn").json()["results"]
    assert [r["id"] for r in mine] == [second["id"]]


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        ({"partner": "angus"}, 400, "partner_self", "partner"),
        ({"partner": "nobody"}, 400, "partner_unknown", "partner"),
        ({}, 400, "required", "partner"),
        ({"partner": "flora", "team": "x"}, 400, "unknown_field", "team"),
        ({"partner": "flora", "team_name": "x" * 121}, 400, "max_length", "team_name"),
    ],
)
def test_a_bad_registration_is_refused_naming_the_field(
    body: dict[str, Any], status: int, code: str, field: str
) -> None:
    open_tournament()
    angus = signed_in("angus")
    signed_in("flora")
    refused = angus.post(URL, body, format="json")
    assert refused.status_code == status
    error = refused.json()
    assert field in error["fields"], error
    if code not in {"required", "max_length"}:
        assert error["code"] == code


def test_refusals_are_worded_in_french_for_a_french_client() -> None:
    open_tournament()
    angus = signed_in("angus")
    refused = angus.post(URL, {"partner": "angus"}, format="json", HTTP_ACCEPT_LANGUAGE="fr-CA")
    assert refused.json()["message"].startswith("Une équipe, c'est deux joueurs")
    assert refused.json()["fields"]["partner"] == [refused.json()["message"]]


def test_outside_the_window_and_for_a_waiting_player_409() -> None:
    tournament = open_tournament()
    angus, flora, ian = signed_in("angus"), signed_in("flora"), signed_in("ian")
    assert angus.post(URL, {"partner": "flora"}, format="json").status_code == 201
    waiting = ian.post(URL, {"partner": "flora"}, format="json")
    assert waiting.status_code == 409
    assert waiting.json()["code"] == "registration_pending"
    assert "partner" in waiting.json()["fields"]
    Tournament.objects.filter(pk=tournament.pk).update(registration_closes_at=NOW)
    closed = ian.post(URL, {"partner": "angus"}, format="json")
    assert closed.status_code == 409
    assert closed.json()["code"] == "registration_closed"
    pending = TeamRegistration.objects.get()
    late = flora.post(f"/api/v1/registrations/{pending.pk}/confirm/")
    assert late.json()["code"] == "registration_closed"


def test_signed_out_is_401() -> None:
    open_tournament()
    assert APIClient().post(URL, {"partner": "flora"}, format="json").status_code == 401
    assert APIClient().get("/api/v1/registrations/").status_code == 401


def test_the_director_sets_the_window_through_the_api() -> None:
    tournament = open_tournament(self_registration=False, registration_closes_at=None)
    client = APIClient()
    client.force_authenticate(tournament.organiser)
    base = "/api/v1/tournaments/legion-open/"
    changes = {
        "self_registration": True,
        "registration_opens_at": "2026-11-01T09:00:00Z",
        "registration_closes_at": "2026-11-20T21:00:00Z",
    }
    changed = client.patch(base, changes, format="json", HTTP_IF_MATCH=client.get(base)["ETag"])
    assert changed.status_code == 200, changed.json()
    body = changed.json()
    assert body["self_registration"] is True
    assert body["registration_closes_at"].startswith("2026-11-20T")
    assert_described(served_schema(), "Tournament", body)
    backwards = client.patch(
        base,
        {"registration_closes_at": "2026-10-01T09:00:00Z"},
        format="json",
        HTTP_IF_MATCH=changed["ETag"],
    )
    assert backwards.status_code == 400
    assert "registration_closes_at" in backwards.json()["fields"]
    user = UserFactory()
    client.force_authenticate(user)
    assert client.patch(base, changes, format="json", HTTP_IF_MATCH='"3"').status_code == 403


def test_my_registrations_are_listed_in_flat_queries(django_assert_max_num_queries: Any) -> None:
    angus = signed_in("angus")
    for n in range(6):
        open_tournament(slug=f"open-{n}")
        signed_in(f"partner{n}")
        url = f"/api/v1/tournaments/open-{n}/registrations/"
        assert angus.post(url, {"partner": f"partner{n}"}, format="json").status_code == 201
    with django_assert_max_num_queries(5):
        listed = angus.get("/api/v1/registrations/")
    assert listed.json()["count"] == 6


def test_a_tournament_is_created_open_to_teams_registering_themselves() -> None:
    director = UserFactory(director=True)
    client = APIClient()
    client.force_authenticate(director)
    body = {
        "name": "Legion Open",
        "starts_on": "2026-12-05",
        "self_registration": True,
        "registration_opens_at": "2026-11-01T09:00:00Z",
        "registration_closes_at": "2026-12-04T21:00:00Z",
    }
    made = client.post("/api/v1/tournaments/", body, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["self_registration"] is True
    assert made.json()["registration_opens_at"].startswith("2026-11-01T")
    backwards = {**body, "slug": "other", "registration_closes_at": "2026-10-01T09:00:00Z"}
    refused = client.post("/api/v1/tournaments/", backwards, format="json")
    assert refused.status_code == 400
    assert "registration_closes_at" in refused.json()["fields"]
