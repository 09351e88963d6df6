# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr,type-var"
"""The admin lists answer and its actions run the director's steps."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.scoring.factories import UserFactory
from tests.tournaments.factories import TournamentFactory, add_stage, tournament_ready
from tournaments.models import Match, Stage, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_for_director() -> Client:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


@pytest.mark.parametrize(
    "page",
    [
        "tournament",
        "entry",
        "stage",
        "match",
        "standing",
        "playerrating",
        "ratingchange",
    ],
)
def test_lists_answer(admin_client_for_director: Client, page: str) -> None:
    tournament = tournament_ready(4)
    add_stage(tournament, "round_robin")
    response = admin_client_for_director.get(f"/admin/tournaments/{page}/")
    assert response.status_code == 200


def test_actions_run_the_director_steps(admin_client_for_director: Client) -> None:
    tournament = TournamentFactory()
    response = admin_client_for_director.post(
        "/admin/tournaments/tournament/",
        {"action": "open_registration", "_selected_action": [tournament.pk]},
        follow=True,
    )
    assert response.status_code == 200
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION
    ready = tournament_ready(4)
    stage = add_stage(ready, "single_elim")
    admin_client_for_director.post(
        "/admin/tournaments/stage/", {"action": "start", "_selected_action": [stage.pk]}
    )
    stage.refresh_from_db()
    assert stage.status == Stage.Status.RUNNING
    assert Match.objects.filter(stage=stage, state=Match.State.READY).count() == 2
    refused = admin_client_for_director.post(
        "/admin/tournaments/stage/",
        {"action": "start", "_selected_action": [stage.pk]},
        follow=True,
    )
    assert "has already started" in refused.content.decode()
