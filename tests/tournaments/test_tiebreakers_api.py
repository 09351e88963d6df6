# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr"
"""The new tie-breakers are chosen through the API and named on the stage's page."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.tournaments.factories import tournament_ready
from tournaments.services import stage_start

pytestmark = pytest.mark.django_db


def test_sonneborn_berger_and_opponents_match_win_order_a_stage() -> None:
    tournament = tournament_ready(4)
    client = APIClient()
    client.force_authenticate(tournament.organiser)
    created = client.post(
        f"/api/v1/tournaments/{tournament.slug}/stages/",
        {
            "kind": "swiss",
            "tiebreakers": ["match_wins", "sonneborn_berger", "opponents_match_win", "seed"],
        },
        format="json",
    )
    assert created.status_code == 201
    body = created.json()
    assert body["tiebreakers_in_effect"][1:3] == ["sonneborn_berger", "opponents_match_win"]
    stage_start(stage_id=body["id"], actor=tournament.organiser)
    page = Client().get(f"/tournaments/{tournament.slug}/").content.decode()
    assert "Sonneborn-Berger" in page
    assert "Opponents&#x27; match-win percentage" in page
