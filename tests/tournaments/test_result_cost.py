# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr"
"""A match result costs the same whatever the size of its bracket: it reads and writes only
the matches it feeds, and places them exactly as replaying the whole bracket would."""

import random
from typing import Any

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from tests.tournaments.factories import add_stage, tournament_ready
from tournaments.models import Entry, Match, Stage
from tournaments.services import entry_withdraw, match_forfeit, stage_start
from tournaments.services.matches import _set_forfeit, bracket_of, bracket_place, bracket_sync

pytestmark = pytest.mark.django_db


def _first_round_result(teams: int) -> int:
    """Queries of the first first-round result."""
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
    small = _first_round_result(8)
    big = _first_round_result(64)
    assert big == small


def _state(matches: Any) -> dict[str, tuple[Any, ...]]:
    return {
        m.key: (m.home_id, m.away_id, m.state, m.winner_id, m.bye, m.forfeit, m.table)
        for m in matches
    }


def _replayed(stage: Stage, key: str, winner_id: int) -> dict[str, tuple[Any, ...]]:
    """The stage's matches after ``key`` is won by forfeit, as replaying the whole bracket
    places them (in memory)."""
    matches = {m.key: m for m in Match.objects.filter(stage=stage)}
    _set_forfeit(matches[key], winner_id=winner_id)
    withdrawn = set(
        Entry.objects.filter(stage_entries__stage=stage, status=Entry.Status.WITHDRAWN).values_list(
            "pk", flat=True
        )
    )
    bracket_place(bracket_of(stage), matches, withdrawn)
    return _state(matches.values())


CASES = [
    ("single_elim", 5, {"third_place": True}),
    ("single_elim", 13, {}),
    ("double_elim", 2, {"grand_final": "reset"}),
    ("double_elim", 6, {"grand_final": "reset"}),
    ("double_elim", 11, {"grand_final": "single"}),
    ("double_elim", 19, {"grand_final": "none"}),
    ("double_elim", 24, {"grand_final": "reset"}),
]


@pytest.mark.parametrize(("kind", "teams", "settings"), CASES)
def test_each_result_places_the_bracket_as_replaying_it_whole_would(
    kind: str, teams: int, settings: dict[str, Any]
) -> None:
    rng = random.Random(teams)
    results = 0
    tournament = tournament_ready(teams)
    director = tournament.organiser
    stage = add_stage(tournament, kind, **settings)
    stage_start(stage_id=stage.pk, actor=director)
    withdrawals = rng.sample(list(tournament.entries.values_list("pk", flat=True)), 2)
    withdraw_after = [2, 5]  # results
    while True:
        ready = list(Match.objects.filter(stage=stage, state=Match.State.READY))
        if not ready:
            break
        if withdraw_after and results == withdraw_after[0]:
            # withdrawn entries forfeit as they come up, in a match not yet ready
            withdraw_after.pop(0)
            entry_withdraw(entry_id=withdrawals.pop(), actor=director)
            assert bracket_sync(stage) == []
            continue
        match = rng.choice(ready)
        loser = rng.choice([match.home_id, match.away_id])
        winner = match.away_id if loser == match.home_id else match.home_id
        expected = _replayed(stage, match.key, winner)
        match_forfeit(
            match_id=match.pk, actor=director, loser_id=loser, expected_version=match.version
        )
        assert _state(Match.objects.filter(stage=stage)) == expected, match.key
        results += 1
    stage.refresh_from_db()
    assert stage.status == Stage.Status.FINISHED
    assert results >= teams // 2
