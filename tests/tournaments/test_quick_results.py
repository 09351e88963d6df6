# mypy: disable-error-code="no-untyped-call,attr-defined,union-attr,arg-type,operator"
# mypy: disable-error-code="comparison-overlap"
"""Quick results: a game of a match played on paper, recorded by its final totals only."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring import services as scoring_services
from scoring.models import Game, Hand, ResultChange
from tarabish_site.api.errors import Conflict, NotAllowed, ValidationFailed
from tests.scoring.factories import UserFactory
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import ready_matches, win_game
from tournaments import exports
from tournaments.models import Match, RatingChange, Standing, Tournament
from tournaments.services import (
    match_game_record_totals,
    match_sync,
    ratings_update_for_match,
    stage_start,
    standings_recompute,
    tournament_update,
    transfer,
)

pytestmark = pytest.mark.django_db


def running(kind: str = "round_robin", entries: int = 4, **values: Any) -> tuple[Tournament, Match]:
    tournament = tournament_ready(entries, **values)
    stage = add_stage(tournament, kind)
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    tournament.refresh_from_db()
    return tournament, ready_matches(stage.pk)[0]


def test_a_quick_result_decides_the_match_and_counts_in_standings_and_ratings() -> None:
    tournament, match = running()
    link = match_game_record_totals(
        match_id=match.pk, actor=tournament.organiser, home_points=387, away_points=512
    )
    game = Game.objects.get(pk=link.game_id)
    assert game.totals_only is True
    assert (game.status, game.winner, game.score_a, game.score_b) == (
        "finished",
        "team_b",
        387,
        512,
    )
    assert game.hands_played == 0
    assert not Hand.objects.filter(game=game).exists()
    # what follows a result is recorded with it, as for any game that ends
    assert ResultChange.objects.filter(game=game).exists()
    match.refresh_from_db()
    assert (match.state, match.winner_id) == (Match.State.COMPLETE, match.away_id)
    assert (match.home_points, match.away_points, match.away_games) == (387, 512, 1)

    standings_recompute(stage_id=match.stage_id, force=True)
    away = Standing.objects.get(stage=match.stage, entry=match.away)
    home = Standing.objects.get(stage=match.stage, entry=match.home)
    assert (away.match_wins, away.points_for, away.points_against) == (1, 512, 387)
    assert (home.match_losses, home.points_for, home.points_against) == (1, 387, 512)

    assert ratings_update_for_match(match_id=match.pk)
    changes = RatingChange.objects.filter(match=match)
    assert changes.count() == 4
    won = {c.player_id for c in changes if c.result == "win"}
    assert won == set(match.away.team.player_ids)


def test_a_quick_result_beside_games_played_hand_by_hand() -> None:
    tournament, match = running(match_games=3)
    win_game(match, "home")
    match_sync(match_id=match.pk)
    match_game_record_totals(
        match_id=match.pk, actor=tournament.organiser, home_points=506, away_points=410
    )
    match.refresh_from_db()
    assert (match.state, match.winner_id, match.home_games) == ("complete", match.home_id, 2)
    links = list(match.match_games.order_by("number").values_list("number", "game__totals_only"))
    assert links == [(1, False), (2, True)]
    # the match is decided: no further game, on paper or not
    with pytest.raises(Conflict) as refused:
        match_game_record_totals(
            match_id=match.pk, actor=tournament.organiser, home_points=506, away_points=410
        )
    assert refused.value.code == "match_not_ready"


@pytest.mark.parametrize(
    ("home", "away", "code", "fields"),
    [
        (420, 380, "game_not_over", {"home_points", "away_points"}),
        (530, 530, "game_not_over", {"home_points", "away_points"}),
        (500, 200_001, "bad_value", {"away_points"}),
    ],
)
def test_totals_no_game_ends_on_are_refused_and_nothing_is_written(
    home: int, away: int, code: str, fields: set[str]
) -> None:
    tournament, match = running()
    games = Game.objects.count()
    with pytest.raises(ValidationFailed) as refused:
        match_game_record_totals(
            match_id=match.pk, actor=tournament.organiser, home_points=home, away_points=away
        )
    assert refused.value.code == code
    assert set(refused.value.fields) == fields
    assert Game.objects.count() == games
    match.refresh_from_db()
    assert (match.state, match.version) == (Match.State.READY, 1)


def test_a_winner_named_must_agree_with_the_totals() -> None:
    tournament, match = running()
    with pytest.raises(ValidationFailed) as refused:
        match_game_record_totals(
            match_id=match.pk,
            actor=tournament.organiser,
            home_points=505,
            away_points=300,
            winner_id=match.away_id,
        )
    assert refused.value.code == "wrong_winner"
    assert match.home.team.name in refused.value.message
    with pytest.raises(ValidationFailed) as stranger:
        match_game_record_totals(
            match_id=match.pk,
            actor=tournament.organiser,
            home_points=505,
            away_points=300,
            winner_id=match.away_id + 1000,
        )
    assert list(stranger.value.fields) == ["winner"]


def test_under_the_callers_rule_both_over_needs_the_winner_named() -> None:
    from scoring.engine import Ruleset

    rules = Ruleset(both_over="caller").to_json()
    tournament, match = running(ruleset=rules, ruleset_preset="")
    with pytest.raises(ValidationFailed) as refused:
        match_game_record_totals(
            match_id=match.pk, actor=tournament.organiser, home_points=540, away_points=560
        )
    assert (refused.value.code, list(refused.value.fields)) == ("winner_needed", ["winner"])
    match_game_record_totals(
        match_id=match.pk,
        actor=tournament.organiser,
        home_points=540,
        away_points=560,
        winner_id=match.home_id,
    )
    match.refresh_from_db()
    assert match.winner_id == match.home_id


def test_a_tables_scorekeeper_records_one_only_if_the_tournament_allows() -> None:
    tournament, match = running()
    keeper = UserFactory()
    tournament.scorekeepers.add(keeper)
    with pytest.raises(NotAllowed) as refused:
        match_game_record_totals(match_id=match.pk, actor=keeper, home_points=510, away_points=0)
    assert refused.value.code == "quick_result_not_allowed"
    tournament_update(
        tournament_id=tournament.pk,
        actor=tournament.organiser,
        expected_version=tournament.version,
        changes={"quick_results_by_scorekeepers": True},
    )
    link = match_game_record_totals(match_id=match.pk, actor=keeper, home_points=510, away_points=0)
    assert link.game.created_by == keeper
    # anyone else still may not
    with pytest.raises(NotAllowed):
        match_game_record_totals(
            match_id=ready_matches(match.stage_id)[0].pk,
            actor=UserFactory(),
            home_points=510,
            away_points=0,
        )


def test_not_while_a_game_of_the_match_is_being_played() -> None:
    from tournaments.services import match_game_start

    tournament, match = running(match_games=3)
    match_game_start(match_id=match.pk, actor=None, first_dealer=0)
    with pytest.raises(Conflict) as refused:
        match_game_record_totals(
            match_id=match.pk, actor=tournament.organiser, home_points=510, away_points=0
        )
    assert refused.value.code == "game_in_progress"


def test_a_game_recorded_by_its_totals_is_not_reopened() -> None:
    tournament, match = running()
    link = match_game_record_totals(
        match_id=match.pk, actor=tournament.organiser, home_points=510, away_points=0
    )
    with pytest.raises(Conflict) as refused:
        scoring_services.game_reopen(game=link.game, by=tournament.organiser)
    assert refused.value.code == "totals_only"
    assert Game.objects.get(pk=link.game_id).status == Game.Status.FINISHED


def test_a_bracket_advances_on_a_quick_result() -> None:
    tournament, match = running("single_elim")
    match_game_record_totals(
        match_id=match.pk, actor=tournament.organiser, home_points=501, away_points=12
    )
    final = Match.objects.get(stage=match.stage, key="W2-1")
    assert match.home_id in (final.home_id, final.away_id)


def test_exports_say_which_games_were_recorded_by_totals_and_read_it_back() -> None:
    import csv
    import io

    tournament, match = running()
    match_game_record_totals(
        match_id=match.pk, actor=tournament.organiser, home_points=501, away_points=12
    )
    rows = {
        int(r["match"]): r for r in csv.DictReader(io.StringIO(exports.matches_csv(tournament)))
    }
    assert rows[match.pk]["totals_only_games"] == "1"
    assert all(r["totals_only_games"] == "0" for pk, r in rows.items() if pk != match.pk)
    document = exports.tournament_document(tournament)
    assert [g["totals_only"] for g in document["games"]] == [True]
    director = UserFactory(is_staff=True)
    copy = transfer.tournament_import(document=document, actor=director, slug="read-back")
    game = Game.objects.get(match_link__match__stage__tournament=copy)
    assert (game.totals_only, game.score_a, game.score_b, game.hands_played) == (True, 501, 12, 0)


# ------------------------------------------------------------------------------ API
def api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_api_records_a_quick_result_and_marks_the_game_everywhere() -> None:
    tournament, match = running()
    answer = api(tournament.organiser).post(
        f"/api/v1/matches/{match.pk}/quick-result/",
        {"home_points": 300, "away_points": 505},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert answer["Location"] == f"/api/v1/games/{body['games'][0]['game']}/"
    assert answer["ETag"] == f'"{body["version"]}"'
    assert (body["state"], body["winner"], body["away_points"]) == ("complete", match.away_id, 505)
    [game] = body["games"]
    assert (game["totals_only"], game["score"], game["winner"]) == (True, [300, 505], "team_b")
    one = api(tournament.organiser).get(f"/api/v1/games/{game['game']}/").json()
    assert (one["totals_only"], one["hands"], one["over"]) == (True, [], True)
    listed = api(tournament.organiser).get("/api/v1/games/").json()["results"]
    assert [g["totals_only"] for g in listed if g["id"] == game["game"]] == [True]


def test_api_refusals_name_the_field() -> None:
    tournament, match = running()
    client = api(tournament.organiser)
    url = f"/api/v1/matches/{match.pk}/quick-result/"
    short = client.post(url, {"home_points": 300, "away_points": 450}, format="json")
    assert short.status_code == 400
    assert short.json()["code"] == "game_not_over"
    assert set(short.json()["fields"]) == {"home_points", "away_points"}
    typed = client.post(url, {"home_points": "500", "away_points": 0}, format="json")
    assert typed.status_code == 400
    assert list(typed.json()["fields"]) == ["home_points"]
    extra = client.post(url, {"home_points": 500, "away_points": 0, "hands": []}, format="json")
    assert (extra.status_code, extra.json()["code"]) == (400, "unknown_field")
    stranger = api(UserFactory()).post(url, {"home_points": 500, "away_points": 0}, format="json")
    assert stranger.status_code == 403
    assert Game.objects.count() == 0


def test_api_tournament_setting() -> None:
    tournament, _match = running()
    client = api(tournament.organiser)
    url = f"/api/v1/tournaments/{tournament.slug}/"
    assert client.get(url).json()["quick_results_by_scorekeepers"] is False
    changed = client.patch(
        url,
        {"quick_results_by_scorekeepers": True},
        format="json",
        headers={"If-Match": f'"{tournament.version}"'},
    )
    assert changed.status_code == 200, changed.json()
    assert changed.json()["quick_results_by_scorekeepers"] is True
