# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr,index"
"""The API of results reported by players: report, list, confirm, dispute, withdraw."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.api_schema import assert_described, served_schema
from tests.scoring.factories import PlayerFactory
from tests.tournaments.test_result_reports import _account_of, running
from tournaments.models import Match, ResultReport

pytestmark = pytest.mark.django_db
AWAY_WINS = {"games": [{"home_points": 387, "away_points": 512}]}


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Any:
    cache.clear()
    yield
    cache.clear()


def client_of(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_player_reports_and_a_player_of_the_other_team_confirms() -> None:
    _tournament, match, home_player, away_player = running()
    reported = client_of(away_player).post(
        f"/api/v1/matches/{match.pk}/report/", AWAY_WINS, format="json"
    )
    assert reported.status_code == 201, reported.json()
    body = reported.json()
    assert reported["Location"] == f"/api/v1/reports/{body['id']}/"
    assert (body["status"], body["side"], body["reported_by"]) == (
        "pending",
        "away",
        away_player.username,
    )
    assert body["games"] == [{"home_points": 387, "away_points": 512, "winner": None}]
    schema = served_schema()
    assert_described(schema, "ResultReport", body)
    # provisional: the match has no result yet
    detail = APIClient().get(f"/api/v1/matches/{match.pk}/").json()
    assert (detail["state"], detail["winner"]) == ("ready", None)

    listed = APIClient().get(f"/api/v1/matches/{match.pk}/reports/")
    assert [r["id"] for r in listed.json()] == [body["id"]]

    confirmed = client_of(home_player).post(f"/api/v1/reports/{body['id']}/confirm/")
    assert confirmed.status_code == 200, confirmed.json()
    assert confirmed.json()["status"] == "confirmed"
    assert confirmed.json()["decided_by"] == home_player.username
    detail = APIClient().get(f"/api/v1/matches/{match.pk}/").json()
    assert detail["state"] == "complete"
    match.refresh_from_db()
    assert match.winner_id == match.away_id


def test_a_dispute_names_its_reason_and_a_director_confirms() -> None:
    tournament, match, home_player, away_player = running()
    report_id = (
        client_of(home_player)
        .post(f"/api/v1/matches/{match.pk}/report/", AWAY_WINS, format="json")
        .json()["id"]
    )
    empty = client_of(away_player).post(
        f"/api/v1/reports/{report_id}/dispute/", {"reason": ""}, format="json"
    )
    assert empty.status_code == 400
    assert "reason" in empty.json()["fields"]
    disputed = client_of(away_player).post(
        f"/api/v1/reports/{report_id}/dispute/", {"reason": "We made 512."}, format="json"
    )
    assert disputed.status_code == 200
    assert (disputed.json()["status"], disputed.json()["dispute_reason"]) == (
        "disputed",
        "We made 512.",
    )
    again = client_of(away_player).post(f"/api/v1/reports/{report_id}/confirm/")
    assert (again.status_code, again.json()["code"]) == (409, "report_not_pending")
    director = client_of(tournament.organiser).post(f"/api/v1/reports/{report_id}/confirm/")
    assert director.status_code == 200
    assert Match.objects.get(pk=match.pk).winner_id == match.away_id


def test_refusals_say_why_in_french_too() -> None:
    tournament, match, home_player, away_player = running()
    stranger = client_of(_account_of(PlayerFactory()))
    refused = stranger.post(f"/api/v1/matches/{match.pk}/report/", AWAY_WINS, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_player_of_match")
    french = stranger.post(
        f"/api/v1/matches/{match.pk}/report/",
        AWAY_WINS,
        format="json",
        HTTP_ACCEPT_LANGUAGE="fr-CA",
    )
    assert french.json()["message"].startswith("Seul un joueur")

    bad_totals = client_of(home_player).post(
        f"/api/v1/matches/{match.pk}/report/",
        {"games": [{"home_points": 100, "away_points": 200}]},
        format="json",
    )
    assert bad_totals.status_code == 400
    no_games = client_of(home_player).post(
        f"/api/v1/matches/{match.pk}/report/", {"games": []}, format="json"
    )
    assert no_games.status_code == 400
    assert "games" in no_games.json()["fields"]

    report_id = (
        client_of(home_player)
        .post(f"/api/v1/matches/{match.pk}/report/", AWAY_WINS, format="json")
        .json()["id"]
    )
    second = client_of(away_player).post(
        f"/api/v1/matches/{match.pk}/report/", AWAY_WINS, format="json"
    )
    assert (second.status_code, second.json()["code"]) == (409, "report_open")
    own = client_of(home_player).post(f"/api/v1/reports/{report_id}/confirm/")
    assert (own.status_code, own.json()["code"]) == (403, "own_side_report")
    withdrawn = client_of(home_player).post(f"/api/v1/reports/{report_id}/withdraw/")
    assert withdrawn.json()["status"] == "withdrawn"
    anonymous = APIClient().post(f"/api/v1/reports/{report_id}/confirm/")
    assert anonymous.status_code == 401

    tournament.results_confirmed_by_both = False
    tournament.save(update_fields=["results_confirmed_by_both"])
    off = client_of(home_player).post(
        f"/api/v1/matches/{match.pk}/report/", AWAY_WINS, format="json"
    )
    assert (off.status_code, off.json()["code"]) == (409, "reports_off")
    assert ResultReport.objects.filter(status="pending").count() == 0


def test_the_setting_is_read_and_changed_through_the_tournament() -> None:
    tournament, _match, _home, _away = running(results_confirmed_by_both=False)
    director = client_of(tournament.organiser)
    url = f"/api/v1/tournaments/{tournament.slug}/"
    assert director.get(url).json()["results_confirmed_by_both"] is False
    changed = director.patch(
        url,
        {"results_confirmed_by_both": True},
        format="json",
        HTTP_IF_MATCH=director.get(url)["ETag"],
    )
    assert changed.status_code == 200, changed.json()
    assert changed.json()["results_confirmed_by_both"] is True


def test_listing_a_match_reports_is_one_query_whatever_their_number(
    django_assert_max_num_queries: Any,
) -> None:
    _tournament, match, home_player, _away = running()
    for _ in range(3):
        report = client_of(home_player).post(
            f"/api/v1/matches/{match.pk}/report/", AWAY_WINS, format="json"
        )
        client_of(home_player).post(f"/api/v1/reports/{report.json()['id']}/withdraw/")
    client = APIClient()
    client.get(f"/api/v1/matches/{match.pk}/reports/")
    with django_assert_max_num_queries(6) as captured:
        listed = client.get(f"/api/v1/matches/{match.pk}/reports/")
    assert len(listed.json()) == 3
    assert not [q for q in captured.captured_queries if "result_report" in q["sql"]][1:]
