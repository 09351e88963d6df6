"""A tournament's bracket and standings embedded in another site's page: the one page other
sites may frame."""

import pytest
from django.test import Client
from django.utils.html import escape

from tests.tournaments.factories import add_stage, tournament_ready
from tournaments.services import stage_start

pytestmark = pytest.mark.django_db


def test_the_embed_shows_the_stage_and_may_be_framed_anywhere(client: Client) -> None:
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    response = client.get(f"/tournaments/{tournament.slug}/embed/")
    assert response.status_code == 200
    assert "X-Frame-Options" not in response
    policy = response["Content-Security-Policy"]
    assert "frame-ancestors *" in policy
    assert "script-src 'self'" in policy  # the rest of the policy stands
    body = response.content.decode()
    assert stage.name in body
    assert '<base target="_blank">' in body  # its links open on this site, not in the frame
    for entry in tournament.entries.select_related("team"):
        assert escape(entry.team.name) in body


def test_every_other_page_still_refuses_framing(client: Client) -> None:
    tournament = tournament_ready(4)
    for path in (f"/tournaments/{tournament.slug}/", "/tournaments/", "/"):
        response = client.get(path)
        assert response["X-Frame-Options"] == "DENY", path
        assert "frame-ancestors 'none'" in response["Content-Security-Policy"], path


def test_a_private_tournament_is_not_embedded(client: Client) -> None:
    tournament = tournament_ready(4, public=False)
    assert client.get(f"/tournaments/{tournament.slug}/embed/").status_code == 404
