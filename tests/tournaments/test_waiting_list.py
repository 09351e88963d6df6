# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr,type-var,index"
# mypy: disable-error-code="return-value"
"""A waiting list when a tournament is full: teams beyond its cap wait, and are promoted in
order of registration when a team withdraws or misses check-in."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tarabish_site.api.errors import Conflict, ValidationFailed
from tests.scoring.factories import TeamFactory, UserFactory
from tests.tournaments.factories import TournamentFactory, add_stage
from tournaments.models import Entry, Tournament
from tournaments.services import (
    checkin_process,
    entries_bulk_add,
    entry_check_in,
    entry_register,
    entry_withdraw,
    stage_start,
    tournament_update,
)

pytestmark = pytest.mark.django_db
WAITING, ACTIVE = Entry.Status.WAITING, Entry.Status.ACTIVE


def _rows(count: int, **more: Any) -> list[dict[str, object]]:
    return [
        {"player_one": f"Angus {n}", "player_two": f"Flora {n}", "community": "Mabou", **more}
        for n in range(count)
    ]


def full(cap: int, teams: int, **values: Any) -> Tournament:
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION, entry_cap=cap, **values)
    entries_bulk_add(tournament_id=tournament.pk, actor=tournament.organiser, entries=_rows(teams))
    tournament.refresh_from_db()
    return tournament


def statuses(tournament: Tournament) -> list[str]:
    return list(tournament.entries.order_by("registered_at", "pk").values_list("status", flat=True))


def test_teams_beyond_the_cap_wait_in_order_of_registration() -> None:
    tournament = full(4, 6)
    assert statuses(tournament) == [ACTIVE] * 4 + [WAITING] * 2
    late = entry_register(
        tournament_id=tournament.pk, actor=tournament.organiser, team_id=TeamFactory().pk
    )
    assert late.status == WAITING
    # a team waiting takes no seed until it is promoted
    with pytest.raises(ValidationFailed) as refused:
        entry_register(
            tournament_id=tournament.pk,
            actor=tournament.organiser,
            team_id=TeamFactory().pk,
            seed=9,
        )
    assert list(refused.value.fields) == ["seed"]


def test_a_bulk_add_that_fills_the_cap_refuses_seeds_for_the_teams_that_would_wait() -> None:
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION, entry_cap=2)
    rows = [{**row, "seed": index + 1} for index, row in enumerate(_rows(3))]
    with pytest.raises(ValidationFailed) as refused:
        entries_bulk_add(tournament_id=tournament.pk, actor=tournament.organiser, entries=rows)
    assert list(refused.value.fields) == ["entries.2.seed"]
    assert not tournament.entries.exists()


def test_a_withdrawal_before_play_promotes_the_first_team_waiting() -> None:
    tournament = full(4, 6)
    order = list(tournament.entries.order_by("registered_at", "pk"))
    entry_withdraw(entry_id=order[1].pk, actor=tournament.organiser)
    assert Entry.objects.get(pk=order[4].pk).status == ACTIVE
    assert Entry.objects.get(pk=order[5].pk).status == WAITING
    # a team waiting that withdraws frees no place
    entry_withdraw(entry_id=order[5].pk, actor=tournament.organiser)
    assert tournament.entries.filter(status=ACTIVE).count() == 4

    # once play starts, the teams playing are fixed: a withdrawal promotes nobody
    entry_register(
        tournament_id=tournament.pk, actor=tournament.organiser, team_id=TeamFactory().pk
    )
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    assert sorted(tournament.entries.filter(status=ACTIVE).values_list("seed", flat=True)) == [
        1,
        2,
        3,
        4,
    ]
    entry_withdraw(entry_id=order[0].pk, actor=tournament.organiser)
    assert tournament.entries.filter(status=WAITING).count() == 1


def test_the_places_of_teams_that_miss_check_in_go_to_waiting_teams_present() -> None:
    tournament = full(3, 6, check_in_required=True)
    tournament.status = Tournament.Status.CHECK_IN
    tournament.save(update_fields=["status"])
    e = list(tournament.entries.order_by("registered_at", "pk"))
    # of the three in, one misses check-in; of the three waiting, the first is not there
    for entry in (e[0], e[2], e[4], e[5]):
        entry_check_in(entry_id=entry.pk, actor=tournament.organiser)
    assert Entry.objects.get(pk=e[4].pk).status == WAITING  # checked in, still waiting
    checkin_process(tournament_id=tournament.pk, actor=tournament.organiser)
    state = {x.pk: (x.status, x.seed) for x in tournament.entries.all()}
    assert state[e[1].pk] == (Entry.Status.INACTIVE, None)
    assert state[e[3].pk] == (WAITING, None)
    assert state[e[4].pk] == (ACTIVE, 3)
    assert state[e[5].pk] == (WAITING, None)
    assert [state[e[0].pk][1], state[e[2].pk][1]] == [1, 2]


def test_the_cap_moves_before_play_only_and_never_under_the_teams_in() -> None:
    tournament = full(4, 7)
    with pytest.raises(Conflict) as lower:
        tournament_update(
            tournament_id=tournament.pk,
            actor=tournament.organiser,
            expected_version=tournament.version,
            changes={"entry_cap": 3},
        )
    assert (lower.value.code, list(lower.value.fields)) == ("cap_below_entries", ["entry_cap"])
    raised = tournament_update(
        tournament_id=tournament.pk,
        actor=tournament.organiser,
        expected_version=tournament.version,
        changes={"entry_cap": 5},
    )
    assert statuses(tournament) == [ACTIVE] * 5 + [WAITING] * 2
    tournament_update(
        tournament_id=tournament.pk,
        actor=tournament.organiser,
        expected_version=raised.version,
        changes={"entry_cap": None},
    )
    assert statuses(tournament) == [ACTIVE] * 7
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    tournament.refresh_from_db()
    with pytest.raises(Conflict) as started:
        tournament_update(
            tournament_id=tournament.pk,
            actor=tournament.organiser,
            expected_version=tournament.version,
            changes={"entry_cap": 8},
        )
    assert (started.value.code, list(started.value.fields)) == ("already_started", ["entry_cap"])


def test_the_api_sets_a_cap_and_shows_who_waits() -> None:
    director = UserFactory(director=True)
    client = APIClient()
    client.force_authenticate(director)
    made = client.post(
        "/api/v1/tournaments/",
        {"name": "Legion Saturday", "starts_on": "2026-12-05", "entry_cap": 2},
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert made.json()["entry_cap"] == 2
    slug = made.json()["slug"]
    client.post(f"/api/v1/tournaments/{slug}/open-registration/", {}, format="json")
    added = client.post(
        f"/api/v1/tournaments/{slug}/entries/bulk/", {"entries": _rows(3)}, format="json"
    )
    assert added.status_code == 201, added.json()
    assert [e["status"] for e in added.json()["created"]] == ["active", "active", "waiting"]
    tiny = client.patch(
        f"/api/v1/tournaments/{slug}/",
        {"entry_cap": 1},
        format="json",
        headers={"If-Match": made.headers["ETag"]},
    )
    assert tiny.status_code == 400
    assert list(tiny.json()["fields"]) == ["entry_cap"]


def test_the_directors_day_lists_the_waiting_list_in_order() -> None:
    tournament = full(2, 4)
    client = Client()
    client.force_login(tournament.organiser)
    page = client.get(f"/tournaments/{tournament.slug}/director/").content.decode()
    assert "At most 2 teams play." in page
    waiting = list(tournament.entries.filter(status=WAITING).order_by("registered_at", "pk"))
    first, second = (page.index(f'data-entry="{e.pk}"') for e in waiting)
    assert first < second


def test_the_setup_page_takes_a_cap() -> None:
    director = UserFactory(director=True)
    client = Client()
    client.force_login(director)
    answer = client.post(
        "/tournaments/new/",
        {
            "name": "Legion Saturday",
            "starts_on": dt.date(2026, 12, 5).isoformat(),
            "format": "round_robin",
            "pool_count": "1",
            "qualifiers_per_pool": "2",
            "ruleset_preset": "cape-breton-standard",
            "match_games": "1",
            "teams": "\n".join(f"Angus {n} & Flora {n}" for n in range(6)),
            "seeding": "as_entered",
            "entry_cap": "4",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    tournament = Tournament.objects.get()
    assert tournament.entry_cap == 4
    assert statuses(tournament) == [ACTIVE] * 4 + [WAITING] * 2
    assert tournament.stages.get().stage_entries.count() == 4
