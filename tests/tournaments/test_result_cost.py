# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr"
"""A match result costs the same number of queries whatever the size of its bracket."""

from typing import Any

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from tests.tournaments.factories import add_stage, tournament_ready
from tournaments.models import Match
from tournaments.services import match_forfeit, stage_start

pytestmark = pytest.mark.django_db


def _queries_of_a_first_round_result(teams: int) -> int:
    tournament = tournament_ready(teams)
    stage = add_stage(tournament, "double_elim", grand_final="reset")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match: Any = (
        Match.objects.filter(stage=stage, state=Match.State.READY).order_by("round_id", "number")
    ).first()
    with CaptureQueriesContext(connection) as captured:
        match_forfeit(
            match_id=match.pk,
            actor=tournament.organiser,
            loser_id=match.away_id,
            expected_version=match.version,
        )
    dropped = Q(home_id=match.away_id) | Q(away_id=match.away_id)
    loser = Match.objects.filter(stage=stage).filter(dropped).exclude(pk=match.pk)
    assert loser.exists()  # the loser dropped to the losers bracket
    return len(captured)


def test_a_result_in_a_big_bracket_takes_no_more_queries_than_in_a_small_one() -> None:
    small = _queries_of_a_first_round_result(8)
    big = _queries_of_a_first_round_result(64)
    assert big == small
