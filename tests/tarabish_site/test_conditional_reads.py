"""Lists, standings and brackets answer conditional requests: an ETag, and 304 with no body
while it is current."""

import pytest
from django.test import Client

from tests.scoring.factories import PlayerFactory
from tests.tournaments.factories import add_stage, tournament_ready
from tournaments.services import stage_start

pytestmark = pytest.mark.django_db


def test_a_list_answers_304_until_it_changes(client: Client) -> None:
    PlayerFactory.create()
    first = client.get("/api/v1/players/")
    etag = first["ETag"]
    again = client.get("/api/v1/players/", HTTP_IF_NONE_MATCH=etag)
    assert (again.status_code, again.content) == (304, b"")
    assert again["ETag"] == etag
    PlayerFactory.create()
    changed = client.get("/api/v1/players/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def test_standings_and_bracket_answer_304(client: Client) -> None:
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    base = f"/api/v1/tournaments/{tournament.slug}/stages/{stage.pk}"
    for path in (
        f"{base}/standings/",
        f"{base}/bracket/",
        f"/api/v1/tournaments/{tournament.slug}/schedule/",
    ):
        etag = client.get(path)["ETag"]
        assert client.get(path, HTTP_IF_NONE_MATCH=etag).status_code == 304, path


def test_a_versioned_detail_keeps_its_own_tag(client: Client) -> None:
    tournament = tournament_ready(2)
    response = client.get(f"/api/v1/tournaments/{tournament.slug}/")
    assert response["ETag"] == f'"{tournament.version}"'


def test_pages_get_no_tag_of_their_body(client: Client) -> None:
    assert "ETag" not in client.get("/tournaments/")
