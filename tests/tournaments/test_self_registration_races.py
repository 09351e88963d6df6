# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr,misc,return-value"
"""Teams registering themselves at the same moment, on PostgreSQL with real threads: the
tournament's lock and the constraints on waiting registrations let one through, the others
get a 409; a partner confirming twice at once enters the team once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from tarabish_site.api.errors import ApplicationError
from tests.scoring.factories import UserFactory
from tests.tournaments.factories import TournamentFactory
from tournaments.models import Entry, TeamRegistration, Tournament
from tournaments.services import team_registration_confirm, team_registration_create

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _all_at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run ``calls`` in threads released together; each result, or the error it raised."""
    start = threading.Barrier(len(calls))
    results: list[Any] = []

    def run(call: Callable[[], Any]) -> None:
        try:
            start.wait()
            results.append(call())
        except ApplicationError as error:
            results.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(results) == len(calls)
    return results


def _open() -> Tournament:
    return TournamentFactory(status=Tournament.Status.REGISTRATION, self_registration=True)


def test_players_naming_each_other_in_a_ring_at_once_get_one_registration() -> None:
    tournament = _open()
    users = [UserFactory() for _ in range(6)]

    def names(n: int) -> Callable[[], Any]:
        partner = users[(n + 1) % len(users)].username
        return lambda: team_registration_create(
            tournament_id=tournament.pk, actor=users[n], partner=partner
        )

    results = _all_at_once([names(n) for n in range(len(users))])
    made = [r for r in results if isinstance(r, TeamRegistration)]
    refused = [r for r in results if isinstance(r, ApplicationError)]
    # each player is in two of the ring's pairs: at most every other pair gets through
    assert 1 <= len(made) <= 3
    assert {(e.status, e.code) for e in refused} == {(409, "registration_pending")}
    waiting = TeamRegistration.objects.filter(status=TeamRegistration.Status.PENDING)
    ids = [u for r in waiting for u in (r.requested_by_id, r.partner_id)]
    assert len(ids) == len(set(ids))


def test_a_partner_confirming_twice_at_once_enters_the_team_once() -> None:
    tournament = _open()
    angus, flora = UserFactory(), UserFactory()
    registration = team_registration_create(
        tournament_id=tournament.pk, actor=angus, partner=flora.username
    )

    def confirm() -> Any:
        return team_registration_confirm(registration_id=registration.pk, actor=flora)

    results = _all_at_once([confirm] * 4)
    assert sum(isinstance(r, TeamRegistration) for r in results) == 1
    assert {r.code for r in results if isinstance(r, ApplicationError)} == {"registration_decided"}
    assert Entry.objects.filter(tournament=tournament).count() == 1
