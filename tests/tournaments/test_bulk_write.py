# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr"
"""The one statement that writes a starting stage's rows on PostgreSQL stores exactly what
``bulk_create`` stores for the same objects."""

import datetime as dt
from typing import Any

import pytest
from django.db import DataError, connection, transaction
from django.db.models import Model

from tests.tournaments.factories import add_stage, tournament_ready
from tournaments.models import Match, Stage, StageEntry
from tournaments.services import stage_start, stages
from tournaments.services.bulk_write import rows_insert

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="elsewhere the rows go through bulk_create"
    ),
]


def _rows(model: type[Model], stage: Stage) -> list[dict[str, Any]]:
    """Every column of the stage's rows of ``model`` but the key, in the order written."""
    rows = model._default_manager.filter(stage=stage).order_by("pk").values()
    return [_unkeyed(row) for row in rows]


def _unkeyed(row: dict[str, Any]) -> dict[str, Any]:
    return {column: value for column, value in row.items() if column != "id"}


def _rewritten(model: type[Model], stage: Stage, objects: list[Model]) -> list[dict[str, Any]]:
    """The rows ``bulk_create`` writes for ``objects``, in place of those written before."""
    model._default_manager.filter(stage=stage).delete()
    for obj in objects:
        obj.pk = None
    model._default_manager.bulk_create(objects)
    return _rows(model, stage)


@pytest.mark.parametrize(
    ("teams", "settings"),
    [
        (13, {"kind": "double_elim", "grand_final": "reset"}),
        (6, {"kind": "double_elim", "grand_final": "single"}),
        (9, {"kind": "single_elim", "third_place": True}),
    ],
)
def test_a_bracket_starts_with_the_rows_bulk_create_writes(
    monkeypatch: pytest.MonkeyPatch, teams: int, settings: dict[str, Any]
) -> None:
    tournament = tournament_ready(teams, match_games=3)
    stage = add_stage(tournament, **settings)
    given: dict[type[Model], list[Model]] = {}

    def recorded(model: type[Model], rows: list[Model]) -> None:
        given[model] = rows
        rows_insert(model, rows)

    monkeypatch.setattr(stages, "rows_insert", recorded)
    stage_start(stage_id=stage.pk, actor=tournament.organiser)

    matches = _rows(Match, stage)
    assert [row["key"] for row in matches] == [m.key for m in given[Match]]  # in order
    assert {row["state"] for row in matches} >= {"ready", "pending"}
    assert any(row["feeds"] is None or row["feeds"] == [] for row in matches)
    assert matches == _rewritten(Match, stage, given[Match])
    entries = _rows(StageEntry, stage)
    assert [row["seed"] for row in entries] == list(range(1, teams + 1))
    assert entries == _rewritten(StageEntry, stage, given[StageEntry])


def test_times_nulls_and_values_of_every_kind_are_written_as_bulk_create_writes_them() -> None:
    tournament = tournament_ready(3)
    stage = add_stage(tournament, "swiss")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    played = list(Match.objects.filter(stage=stage))
    rnd = played[0].round
    finished = dt.datetime(2026, 11, 21, 19, 45, 12, 345678, tzinfo=dt.UTC)
    objects = [
        Match(
            stage=stage,
            round=rnd,
            number=10 + i,
            key=f"X{i}",
            home_id=played[0].home_id,
            away_id=played[0].away_id if i else None,
            home_source={"kind": "seed", "seed": i, "label": "Seed"} if i % 2 else None,
            away_source={"kind": "bye", "nested": [1, None, "é"]},
            feeds=[] if i == 2 else None,
            table=i or None,
            format="best_of",
            games_planned=3,
            state="complete" if i else "pending",
            bye=i == 0,
            winner_id=played[0].home_id if i else None,
            home_games=i,
            held_reason='Table 3\'s sheet "lost"' if i == 1 else "",
            finished_at=finished if i else None,
        )
        for i in range(3)
    ]
    rows_insert(Match, objects)
    written = [
        _unkeyed(row)
        for row in Match.objects.filter(stage=stage, number__gte=10).order_by("pk").values()
    ]
    assert [row["finished_at"] for row in written] == [None, finished, finished]
    assert [row["home_source"] for row in written] == [None, objects[1].home_source, None]
    assert [row["feeds"] for row in written] == [None, None, []]
    sql_nulls = Match.objects.filter(stage=stage, number__gte=10, feeds__isnull=True)
    assert sorted(sql_nulls.values_list("number", flat=True)) == [10, 11]  # not JSON null
    Match.objects.filter(stage=stage, number__gte=10).delete()
    for obj in objects:
        obj.pk = None
    Match.objects.bulk_create(objects)
    again = [
        _unkeyed(row)
        for row in Match.objects.filter(stage=stage, number__gte=10).order_by("pk").values()
    ]
    assert written == again


def test_text_too_long_for_its_column_is_refused_not_cut_short() -> None:
    tournament = tournament_ready(2)
    stage = add_stage(tournament, "swiss")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = Match.objects.filter(stage=stage).first()
    long_keys = [
        Match(stage=stage, round=match.round, number=20 + i, key="K" * 13, format="best_of")
        for i in range(2)
    ]
    with pytest.raises(DataError, match="too long"), transaction.atomic():
        rows_insert(Match, long_keys)
