# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr,type-var,index"
"""Registration without a check-in, teams added in bulk, seeds edited or drawn before play."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from tarabish_site.api.errors import Conflict, ValidationFailed
from tests.scoring.factories import UserFactory
from tests.tournaments.factories import EntryFactory, TournamentFactory, add_stage
from tournaments.models import Entry, Match, Stage, Tournament
from tournaments.services import (
    entries_bulk_add,
    entries_seed,
    entry_register,
    stage_start,
    tournament_create,
)

pytestmark = pytest.mark.django_db


def _rows(count: int) -> list[dict[str, object]]:
    return [
        {"player_one": f"Angus {n}", "player_two": f"Flora {n}", "community": "Glace Bay"}
        for n in range(count)
    ]


def test_without_a_check_in_twelve_teams_start_in_three_calls() -> None:
    director = UserFactory(director=True)
    tournament = tournament_create(
        actor=director, name="Legion Saturday", starts_on=__import__("datetime").date(2026, 12, 5)
    )
    assert tournament.check_in_required is False
    report = entries_bulk_add(tournament_id=tournament.pk, actor=director, entries=_rows(12))
    assert len(report.created) == 12
    assert all(e.checked_in for e in tournament.entries.all())
    stage = add_stage(tournament, "round_robin", pool_count=2)
    stage_start(stage_id=stage.pk, actor=director)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    seeds = sorted(tournament.entries.values_list("seed", flat=True))
    assert seeds == list(range(1, 13))
    assert Match.objects.filter(stage=stage).count() == 2 * 15


def test_a_tournament_with_a_check_in_still_needs_it_processed() -> None:
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION, check_in_required=True)
    EntryFactory(tournament=tournament)
    EntryFactory(tournament=tournament)
    stage = add_stage(tournament, "round_robin")
    with pytest.raises(Conflict) as refused:
        stage_start(stage_id=stage.pk, actor=tournament.organiser)
    assert refused.value.code == "wrong_status"
    assert Stage.objects.get(pk=stage.pk).status == Stage.Status.PENDING


def test_registering_without_a_check_in_checks_the_team_in() -> None:
    from tests.scoring.factories import TeamFactory

    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    entry = entry_register(
        tournament_id=tournament.pk, actor=tournament.organiser, team_id=TeamFactory().pk
    )
    assert entry.checked_in
    assert entry.checked_in_at is not None
    checked = TournamentFactory(status=Tournament.Status.REGISTRATION, check_in_required=True)
    other = entry_register(
        tournament_id=checked.pk, actor=checked.organiser, team_id=TeamFactory().pk
    )
    assert not other.checked_in


def test_a_bulk_add_with_one_bad_team_registers_nothing_and_names_each_problem() -> None:
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    rows = _rows(4)
    rows[1] = {"player_one": "Ron", "player_two": "Ron", "seed": "x"}
    rows[3] = {**rows[3], "colour": "red"}
    rows.append({**rows[0]})  # the same players twice
    with pytest.raises(ValidationFailed) as refused:
        entries_bulk_add(tournament_id=tournament.pk, actor=tournament.organiser, entries=rows)
    fields = refused.value.fields
    assert set(fields) == {
        "entries.1.player_two",
        "entries.1.seed",
        "entries.3.colour",
        "entries.4.player_one",
        "entries.4.player_two",
    }
    assert refused.value.code == "entries_invalid"
    assert not tournament.entries.exists()


def test_the_api_adds_teams_in_bulk_all_or_nothing() -> None:
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    client = APIClient()
    client.force_authenticate(tournament.organiser)
    url = f"/api/v1/tournaments/{tournament.slug}/entries/bulk/"
    bad = client.post(url, {"entries": [*_rows(2), {"player_one": "Mary"}]}, format="json")
    assert bad.status_code == 400
    assert bad.json()["fields"] == {"entries.2.player_two": ["is empty."]}
    assert not tournament.entries.exists()
    empty = client.post(url, {"entries": []}, format="json")
    assert empty.status_code == 400
    assert "entries" in empty.json()["fields"]
    good = client.post(url, {"entries": _rows(3)}, format="json")
    assert good.status_code == 201
    body = good.json()
    assert body["rows"] == 3
    assert [e["checked_in"] for e in body["created"]] == [True, True, True]
    stranger = APIClient()
    stranger.force_authenticate(UserFactory())
    assert stranger.post(url, {"entries": _rows(1)}, format="json").status_code == 403


def test_seeds_are_drawn_ordered_or_kept_as_entered_before_play() -> None:
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    entries = [EntryFactory(tournament=tournament, checked_in=True) for _ in range(6)]
    ids = [e.pk for e in entries]
    EntryFactory(tournament=tournament, status=Entry.Status.WITHDRAWN, seed=40)

    def seeded() -> list[int]:
        return list(
            tournament.entries.exclude(seed=None).order_by("seed").values_list("pk", flat=True)
        )

    entries_seed(tournament_id=tournament.pk, actor=tournament.organiser, method="as_entered")
    assert seeded() == ids
    entries_seed(
        tournament_id=tournament.pk,
        actor=tournament.organiser,
        method="random",
        rng=random.Random(3),
    )
    drawn = seeded()
    assert sorted(drawn) == sorted(ids)
    assert drawn != ids
    wanted = list(reversed(ids))
    entries_seed(
        tournament_id=tournament.pk, actor=tournament.organiser, method="order", order=wanted
    )
    assert seeded() == wanted
    with pytest.raises(ValidationFailed) as refused:
        entries_seed(
            tournament_id=tournament.pk, actor=tournament.organiser, method="order", order=ids[1:]
        )
    assert list(refused.value.fields) == ["order"]
    assert seeded() == wanted  # nothing changed

    # the first stage starts with the seeds as edited
    stage = add_stage(tournament, "single_elim")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    first = Match.objects.get(stage=stage, key="W1-1")
    assert first.state in (Match.State.READY, Match.State.PENDING, Match.State.VOID)
    assert seeded() == wanted
    with pytest.raises(Conflict):
        entries_seed(tournament_id=tournament.pk, actor=tournament.organiser, method="random")


def test_the_api_seeds_the_teams() -> None:
    tournament = TournamentFactory(status=Tournament.Status.REGISTRATION)
    entries = [EntryFactory(tournament=tournament, checked_in=True) for _ in range(4)]
    client = APIClient()
    client.force_authenticate(tournament.organiser)
    url = f"/api/v1/tournaments/{tournament.slug}/entries/seeds/"
    order = [entries[2].pk, entries[0].pk, entries[3].pk, entries[1].pk]
    answer = client.post(url, {"method": "order", "order": order}, format="json")
    assert answer.status_code == 200
    assert [(e["id"], e["seed"]) for e in answer.json()] == list(
        zip(order, [1, 2, 3, 4], strict=True)
    )
    wrong = client.post(url, {"method": "alphabetical"}, format="json")
    assert wrong.status_code == 400
    assert "method" in wrong.json()["fields"]


def test_a_swiss_stage_pairs_by_the_dutch_system_unless_told_otherwise() -> None:
    from tests.tournaments.factories import tournament_ready

    tournament = tournament_ready(8)
    dutch = add_stage(tournament, "swiss", swiss_rounds=3)
    stage_start(stage_id=dutch.pk, actor=tournament.organiser)
    seed = dict(tournament.entries.values_list("pk", "seed"))
    first = [
        (seed[m.home_id], seed[m.away_id])
        for m in Match.objects.filter(stage=dutch).order_by("number")
    ]
    assert first == [(1, 5), (2, 6), (3, 7), (4, 8)]

    other = tournament_ready(8)
    neighbours = add_stage(other, "swiss", swiss_rounds=3, swiss_pairing="neighbours")
    stage_start(stage_id=neighbours.pk, actor=other.organiser)
    seed = dict(other.entries.values_list("pk", "seed"))
    first = [
        (seed[m.home_id], seed[m.away_id])
        for m in Match.objects.filter(stage=neighbours).order_by("number")
    ]
    assert first == [(1, 2), (3, 4), (5, 6), (7, 8)]

    client = APIClient()
    client.force_authenticate(tournament.organiser)
    shown = client.get(f"/api/v1/tournaments/{tournament.slug}/stages/{dutch.pk}/").json()
    assert shown["swiss_pairing"] == "dutch"
    assert shown["swiss_pairing_rule"].startswith("Dutch system: top half of each score group")
    refused = client.post(
        f"/api/v1/tournaments/{tournament.slug}/stages/",
        {"kind": "swiss", "swiss_pairing": "monrad"},
        format="json",
    )
    assert refused.status_code == 400
    assert "swiss_pairing" in refused.json()["fields"]
