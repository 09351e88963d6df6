# mypy: disable-error-code="no-untyped-call,attr-defined,union-attr,arg-type"
"""Correcting a quick result (a game recorded by its final totals): the totals before are
kept, and the match and the bracket follow as they follow a corrected hand, held when later
matches were already played."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Game, TotalsRevision
from tarabish_site.api.errors import (
    Conflict,
    NotAllowed,
    NotFound,
    PreconditionFailed,
    ValidationFailed,
)
from tests.scoring.factories import UserFactory
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import ready_matches, win_game
from tournaments.models import Match, MatchGame, Stage, Tournament
from tournaments.services import (
    match_game_correct_totals,
    match_game_record_totals,
    match_reset_confirm,
    stage_start,
)

pytestmark = pytest.mark.django_db


def started(kind: str, entries: int = 4, **settings: Any) -> tuple[Tournament, Stage]:
    tournament = tournament_ready(entries)
    stage = add_stage(tournament, kind, **settings)
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    tournament.refresh_from_db()
    return tournament, stage


def quick(tournament: Tournament, match: Match, home: int, away: int) -> Match:
    match_game_record_totals(
        match_id=match.pk, actor=tournament.organiser, home_points=home, away_points=away
    )
    return Match.objects.get(pk=match.pk)


def correct(tournament: Tournament, match: Match, home: int, away: int, **kw: Any) -> Match:
    kw.setdefault("reason", "Totals swapped on the sheet.")
    kw.setdefault("actor", tournament.organiser)
    return match_game_correct_totals(
        match_id=match.pk,
        number=kw.pop("number", 1),
        home_points=home,
        away_points=away,
        expected_version=Match.objects.get(pk=match.pk).version,
        **kw,
    )


def test_a_correction_changes_the_totals_and_the_winner_and_keeps_the_totals_before() -> None:
    tournament, stage = started("round_robin")
    match = quick(tournament, ready_matches(stage.pk)[0], 510, 0)
    assert match.winner_id == match.home_id
    corrected = correct(tournament, match, 300, 505, reason="Sheet read upside down.")
    assert (corrected.state, corrected.winner_id) == (Match.State.COMPLETE, match.away_id)
    assert (corrected.home_points, corrected.away_points, corrected.away_games) == (300, 505, 1)
    assert corrected.version > match.version
    game = Game.objects.get(match_link__match=match)
    assert (game.score_a, game.score_b, game.winner, game.totals_only) == (
        300,
        505,
        "team_b",
        True,
    )
    [before] = TotalsRevision.objects.filter(game=game)
    assert (before.score_a, before.score_b, before.winner) == (510, 0, "team_a")
    assert (before.reason, before.changed_by) == ("Sheet read upside down.", tournament.organiser)


def test_new_totals_with_the_same_winner_change_the_points_only() -> None:
    tournament, stage = started("single_elim")
    match = quick(tournament, ready_matches(stage.pk)[0], 510, 0)
    final_before = Match.objects.get(stage=stage, key="W2-1")
    corrected = correct(tournament, match, 502, 340)
    assert (corrected.winner_id, corrected.home_points, corrected.away_points) == (
        match.home_id,
        502,
        340,
    )
    final = Match.objects.get(stage=stage, key="W2-1")
    assert (final.home_id, final.away_id) == (final_before.home_id, final_before.away_id)


def test_a_new_winner_of_an_early_double_elimination_match_is_held_until_confirmed() -> None:
    tournament, stage = started("double_elim", grand_final="reset")
    first, second = ready_matches(stage.pk)[:2]
    first = quick(tournament, first, 510, 120)
    quick(tournament, second, 505, 200)
    semi = Match.objects.get(stage=stage, key="W2-1")
    assert first.home_id in (semi.home_id, semi.away_id)
    semi = quick(tournament, semi, 501, 0)
    assert semi.state == Match.State.COMPLETE

    held = correct(tournament, first, 120, 510)
    # the bracket keeps the old result, and the match says which played match it re-opens
    assert held.winner_id == first.home_id
    assert "W2-1" in held.held_reason
    assert Match.objects.get(pk=semi.pk).state == Match.State.COMPLETE
    assert Stage.objects.get(pk=stage.pk).status == Stage.Status.RUNNING
    game = Game.objects.get(match_link__match=first)
    assert (game.score_a, game.score_b, game.winner) == (120, 510, "team_b")

    confirmed = match_reset_confirm(
        match_id=first.pk, actor=tournament.organiser, expected_version=held.version
    )
    assert (confirmed.winner_id, confirmed.held_reason) == (first.away_id, "")
    semi = Match.objects.get(pk=semi.pk)
    assert semi.state == Match.State.READY
    assert first.away_id in (semi.home_id, semi.away_id)
    assert first.home_id not in (semi.home_id, semi.away_id)
    assert not MatchGame.objects.filter(match=semi, discarded=False).exists()
    loser_side = Match.objects.get(stage=stage, key="L1-1")
    assert first.home_id in (loser_side.home_id, loser_side.away_id)


def test_refusals() -> None:
    tournament, stage = started("round_robin")
    played, by_hand = ready_matches(stage.pk)[:2]
    played = quick(tournament, played, 510, 0)
    with pytest.raises(NotAllowed):
        correct(tournament, played, 0, 510, actor=UserFactory())
    with pytest.raises(ValidationFailed) as no_reason:
        correct(tournament, played, 0, 510, reason="  ")
    assert list(no_reason.value.fields) == ["reason"]
    with pytest.raises(ValidationFailed) as same:
        correct(tournament, played, 510, 0)
    assert same.value.code == "totals_unchanged"
    with pytest.raises(ValidationFailed) as short:
        correct(tournament, played, 300, 200)
    assert short.value.code == "game_not_over"
    assert set(short.value.fields) == {"home_points", "away_points"}
    with pytest.raises(NotFound):
        correct(tournament, played, 0, 510, number=2)
    with pytest.raises(PreconditionFailed):
        match_game_correct_totals(
            match_id=played.pk,
            number=1,
            actor=tournament.organiser,
            home_points=0,
            away_points=510,
            reason="late",
            expected_version=played.version - 1,
        )
    win_game(by_hand)
    with pytest.raises(Conflict) as hands:
        correct(tournament, by_hand, 0, 510)
    assert hands.value.code == "not_totals_only"
    assert not TotalsRevision.objects.exists()
    assert Game.objects.get(match_link__match=played).score_a == 510


# ------------------------------------------------------------------------------ API
def api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_api_corrects_a_quick_result_and_the_held_change_is_confirmed() -> None:
    tournament, stage = started("double_elim", grand_final="reset")
    first, second = ready_matches(stage.pk)[:2]
    first = quick(tournament, first, 510, 120)
    quick(tournament, second, 505, 200)
    quick(tournament, Match.objects.get(stage=stage, key="W2-1"), 501, 0)
    client = api(tournament.organiser)
    url = f"/api/v1/matches/{first.pk}/games/1/totals/"
    body = {"home_points": 120, "away_points": 510, "reason": "Totals swapped."}

    assert client.post(url, body, format="json").status_code == 428
    stranger = api(UserFactory()).post(
        url, body, format="json", headers={"If-Match": f'"{first.version}"'}
    )
    assert stranger.status_code == 403
    bad = client.post(
        url,
        {"home_points": -1, "away_points": 510},
        format="json",
        headers={"If-Match": f'"{first.version}"'},
    )
    assert bad.status_code == 400
    assert set(bad.json()["fields"]) == {"home_points", "reason"}

    answer = client.post(url, body, format="json", headers={"If-Match": f'"{first.version}"'})
    assert answer.status_code == 200, answer.json()
    held = answer.json()
    assert held["winner"] == first.home_id
    assert "W2-1" in held["held_reason"]
    assert answer["ETag"] == f'"{held["version"]}"'
    assert held["games"][0]["score"] == [120, 510]

    confirmed = client.post(
        f"/api/v1/matches/{first.pk}/confirm-reset/",
        format="json",
        headers={"If-Match": f'"{held["version"]}"'},
    )
    assert confirmed.status_code == 200, confirmed.json()
    assert (confirmed.json()["winner"], confirmed.json()["held_reason"]) == (first.away_id, "")
    missing = client.post(
        f"/api/v1/matches/{first.pk}/games/3/totals/",
        body,
        format="json",
        headers={"If-Match": f'"{confirmed.json()["version"]}"'},
    )
    assert missing.status_code == 404
