# mypy: disable-error-code="no-untyped-call,attr-defined,union-attr,arg-type"
"""Results reported by players on the match page: the report form, the other team's confirm
and dispute, a refusal beside its field, and the director's list of open reports."""

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.scoring.factories import UserFactory
from tests.tournaments.test_result_reports import running
from tournaments.models import Match, ResultReport

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_player_reports_and_the_other_team_confirms_from_the_match_page() -> None:
    _tournament, match, home_player, away_player = running()
    home = signed_in(home_player)
    page = home.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="report-form"' in page
    assert 'id="quick-result-form"' not in page

    done = home.post(
        f"/matches/{match.pk}/report/",
        {"report-game1_home": "387", "report-game1_away": "512"},
        follow=True,
    )
    assert done.redirect_chain == [(f"/matches/{match.pk}/", 302)]
    html = done.content.decode()
    assert "Result reported" in html
    assert 'id="report-form"' not in html
    # the reporting side may withdraw, not confirm
    assert 'id="withdraw-report"' in html
    assert 'id="confirm-report"' not in html
    report = ResultReport.objects.get()

    away = signed_in(away_player)
    html = away.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="confirm-report"' in html
    assert 'id="dispute-form"' in html
    confirmed = away.post(f"/matches/{match.pk}/reports/{report.pk}/confirm/", follow=True)
    assert "Result confirmed" in confirmed.content.decode()
    match.refresh_from_db()
    assert (match.state, match.winner_id) == ("complete", match.away_id)


def test_refusals_are_said_beside_their_fields() -> None:
    _tournament, match, home_player, away_player = running()
    home = signed_in(home_player)
    short = home.post(
        f"/matches/{match.pk}/report/",
        {"report-game1_home": "420", "report-game1_away": "380"},
    )
    assert short.status_code == 400
    assert 'id="id_report-game1_home_error"><div>a game is over only when' in (
        short.content.decode()
    )
    missing = home.post(f"/matches/{match.pk}/report/", {"report-game1_home": "420"})
    assert missing.status_code == 400
    assert 'id="id_report-game1_away_error"><div>' in missing.content.decode()
    assert not ResultReport.objects.exists()

    home.post(
        f"/matches/{match.pk}/report/", {"report-game1_home": "387", "report-game1_away": "512"}
    )
    report = ResultReport.objects.get()
    away = signed_in(away_player)
    no_reason = away.post(f"/matches/{match.pk}/reports/{report.pk}/dispute/", {"reason": ""})
    assert no_reason.status_code == 400
    assert (
        'id="dispute-reason-input_error">say what is wrong with this result.'
        in no_reason.content.decode()
    )


def test_a_stranger_sees_no_form_and_is_refused() -> None:
    _tournament, match, _home, _away = running()
    stranger = signed_in(UserFactory())
    assert 'id="report-form"' not in stranger.get(f"/matches/{match.pk}/").content.decode()
    refused = stranger.post(
        f"/matches/{match.pk}/report/", {"report-game1_home": "387", "report-game1_away": "512"}
    )
    assert refused.status_code == 403


def test_a_disputed_report_is_listed_for_the_director_who_confirms_it() -> None:
    tournament, match, home_player, away_player = running()
    signed_in(home_player).post(
        f"/matches/{match.pk}/report/", {"report-game1_home": "387", "report-game1_away": "512"}
    )
    report = ResultReport.objects.get()
    signed_in(away_player).post(
        f"/matches/{match.pk}/reports/{report.pk}/dispute/", {"reason": "We made 512."}
    )
    director = signed_in(tournament.organiser)
    day = director.get(f"/tournaments/{tournament.slug}/director/").content.decode()
    assert 'id="reports-open"' in day
    assert f'data-report="{report.pk}"' in day
    assert "We made 512." in day

    page = director.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="dispute-reason"' in page
    assert 'id="confirm-report"' in page
    # the director may also record the right result instead
    assert 'id="quick-result-form"' in page
    director.post(f"/matches/{match.pk}/reports/{report.pk}/confirm/")
    assert Match.objects.get(pk=match.pk).winner_id == match.away_id
    day = director.get(f"/tournaments/{tournament.slug}/director/").content.decode()
    assert 'id="reports-open"' not in day


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured.captured_queries)


def test_the_match_page_asks_as_many_queries_whatever_the_reports() -> None:
    tournament, match, home_player, _away = running()
    home = signed_in(home_player)
    url = f"/matches/{match.pk}/"
    body = {"report-game1_home": "387", "report-game1_away": "512"}
    home.post(f"/matches/{match.pk}/report/", body)
    director = signed_in(tournament.organiser)
    day = f"/tournaments/{tournament.slug}/director/"
    one, one_day = _queries(home, url), _queries(director, day)
    for _ in range(3):
        report = ResultReport.objects.get(status="pending")
        home.post(f"/matches/{match.pk}/reports/{report.pk}/withdraw/")
        home.post(f"/matches/{match.pk}/report/", body)
    assert ResultReport.objects.count() == 4
    assert _queries(home, url) == one
    assert _queries(director, day) == one_day
