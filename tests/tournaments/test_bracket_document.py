# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr"
"""The bracket document written from the stage's rows says what replaying its results says."""

import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.factories import add_stage, tournament_ready
from tournaments.models import Match
from tournaments.selectors import _replayed_bracket_document, stage_bracket_document
from tournaments.services import entry_withdraw, match_forfeit, stage_start

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("kind", "teams", "settings"),
    [
        ("single_elim", 6, {"third_place": True}),
        ("double_elim", 2, {"grand_final": "reset"}),
        ("double_elim", 7, {"grand_final": "reset"}),
        ("double_elim", 10, {"grand_final": "none"}),
        ("double_elim", 5, {"grand_final": "single"}),
    ],
)
def test_the_document_from_the_rows_is_the_replayed_one_after_every_result(
    kind: str, teams: int, settings: dict[str, Any]
) -> None:
    rng = random.Random(teams)
    tournament = tournament_ready(teams)
    director = tournament.organiser
    stage = add_stage(tournament, kind, **settings)
    stage_start(stage_id=stage.pk, actor=director)
    assert stage_bracket_document(stage) == _replayed_bracket_document(stage)
    entry_withdraw(entry_id=tournament.entries.order_by("?").first().pk, actor=director)
    while True:
        document = stage_bracket_document(stage)
        assert document == _replayed_bracket_document(stage)
        ready = list(Match.objects.filter(stage=stage, state=Match.State.READY))
        if not ready:
            break
        match = rng.choice(ready)
        match_forfeit(
            match_id=match.pk,
            actor=director,
            loser_id=rng.choice([match.home_id, match.away_id]),
            expected_version=match.version,
        )
    assert document["finished"]
    assert document["champion"] is not None


def test_the_document_takes_three_queries_whatever_the_size() -> None:
    for teams in (4, 40):
        tournament = tournament_ready(teams)
        stage = add_stage(tournament, "double_elim")
        stage_start(stage_id=stage.pk, actor=tournament.organiser)
        with CaptureQueriesContext(connection) as captured:
            stage_bracket_document(stage)
        assert len(captured) == 4  # and the names, told apart
