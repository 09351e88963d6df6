# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,union-attr,misc,return-value"
"""Reported results at the same moment, on PostgreSQL with real threads: both teams reporting
at once make one report, the other gets a 409; a confirmation racing a withdrawal or another
confirmation lets one through, and the match gets its games once."""

from __future__ import annotations

from typing import Any

import pytest

from tarabish_site.api.errors import ApplicationError
from tests.tournaments.test_result_reports import running
from tests.tournaments.test_self_registration_races import _all_at_once
from tournaments.models import MatchGame, ResultReport
from tournaments.services import (
    ReportedGame,
    result_report_confirm,
    result_report_create,
    result_report_withdraw,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

AWAY_WINS = [ReportedGame(home_points=387, away_points=512)]


def test_both_teams_reporting_at_once_make_one_report() -> None:
    _tournament, match, home_player, away_player = running()

    def report(actor: Any) -> Any:
        return lambda: result_report_create(match_id=match.pk, actor=actor, games=AWAY_WINS)

    results = _all_at_once([report(home_player), report(away_player)])
    made = [r for r in results if isinstance(r, ResultReport)]
    refused = [r for r in results if isinstance(r, ApplicationError)]
    assert len(made) == 1
    assert [(e.status, e.code) for e in refused] == [(409, "report_open")]
    assert ResultReport.objects.count() == 1


def test_a_confirmation_racing_a_withdrawal_or_another_lets_one_through() -> None:
    tournament, match, home_player, away_player = running()
    report = result_report_create(match_id=match.pk, actor=home_player, games=AWAY_WINS)
    results = _all_at_once(
        [
            lambda: result_report_confirm(report_id=report.pk, actor=away_player),
            lambda: result_report_confirm(report_id=report.pk, actor=tournament.organiser),
            lambda: result_report_withdraw(report_id=report.pk, actor=home_player),
        ]
    )
    done = [r for r in results if isinstance(r, ResultReport)]
    refused = [r for r in results if isinstance(r, ApplicationError)]
    assert len(done) == 1
    assert {(e.status, e.code) for e in refused} == {(409, "report_not_pending")}
    report.refresh_from_db()
    games = MatchGame.objects.filter(match=match).count()
    assert games == (1 if report.status == "confirmed" else 0)
