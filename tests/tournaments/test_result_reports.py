# mypy: disable-error-code="no-untyped-call,attr-defined,union-attr,arg-type,operator"
"""Results the players report, confirmed by the other team or by a director."""

from typing import Any

import pytest
from django.db import IntegrityError

from scoring.models import Game
from tarabish_site.api.errors import Conflict, NotAllowed, ValidationFailed
from tests.scoring.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import ready_matches
from tournaments.models import Match, ResultReport, Standing, Tournament
from tournaments.selectors import result_reports_open
from tournaments.services import (
    ReportedGame,
    match_forfeit,
    match_game_record_totals,
    match_side_of,
    result_report_confirm,
    result_report_create,
    result_report_dispute,
    result_report_withdraw,
    stage_start,
    standings_recompute,
)

pytestmark = pytest.mark.django_db

AWAY_WINS = [ReportedGame(home_points=387, away_points=512)]


def running(
    kind: str = "round_robin", entries: int = 4, **values: Any
) -> tuple[Tournament, Match, Any, Any]:
    """A running tournament that asks for both teams' word, its first match, and an account
    for a player of each of its teams (home, away)."""
    values.setdefault("results_confirmed_by_both", True)
    tournament = tournament_ready(entries, **values)
    stage = add_stage(tournament, kind)
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    tournament.refresh_from_db()
    match = ready_matches(stage.pk)[0]
    return (
        tournament,
        match,
        _account_of(match.home.team.player_one),
        _account_of(match.away.team.player_two),
    )


def _account_of(player: Any) -> Any:
    user = UserFactory()
    player.user = user
    player.save(update_fields=["user"])
    return user


def _standing(match: Match, entry: Any) -> Standing:
    standings_recompute(stage_id=match.stage_id, force=True)
    return Standing.objects.get(stage=match.stage, entry=entry)


def test_a_report_counts_for_nothing_until_the_other_team_confirms_it() -> None:
    _tournament, match, home_player, away_player = running()
    assert match_side_of(match, home_player) == "home"
    assert match_side_of(match, away_player) == "away"

    report = result_report_create(match_id=match.pk, actor=away_player, games=AWAY_WINS)
    assert (report.status, report.side, report.reported_by) == ("pending", "away", away_player)
    assert report.games == [{"home_points": 387, "away_points": 512, "winner": None}]
    match.refresh_from_db()
    # provisional: no game recorded, the match still to play, standings untouched
    assert (match.state, match.winner_id) == (Match.State.READY, None)
    assert not match.match_games.exists()
    assert _standing(match, match.away).match_wins == 0
    games_before = Game.objects.count()

    confirmed = result_report_confirm(report_id=report.pk, actor=home_player)
    assert (confirmed.status, confirmed.decided_by) == ("confirmed", home_player)
    match.refresh_from_db()
    assert (match.state, match.winner_id) == (Match.State.COMPLETE, match.away_id)
    assert (match.home_points, match.away_points) == (387, 512)
    game = match.match_games.get().game
    assert game.totals_only is True
    assert Game.objects.count() == games_before + 1
    away = _standing(match, match.away)
    assert (away.match_wins, away.points_for, away.points_against) == (1, 512, 387)


def test_a_confirmed_report_moves_the_winner_on_in_the_bracket() -> None:
    _tournament, match, home_player, away_player = running("single_elim")
    report = result_report_create(
        match_id=match.pk,
        actor=home_player,
        games=[ReportedGame(home_points=506, away_points=410)],
    )
    result_report_confirm(report_id=report.pk, actor=away_player)
    final = Match.objects.filter(stage=match.stage).exclude(pk=match.pk).order_by("-round__number")
    assert match.home_id in {final[0].home_id, final[0].away_id}


def test_a_report_of_several_games_must_decide_the_match_and_no_more() -> None:
    _tournament, match, home_player, away_player = running(match_games=3)
    home_wins = ReportedGame(home_points=506, away_points=410)
    away_wins = ReportedGame(home_points=300, away_points=501)
    with pytest.raises(ValidationFailed) as short:
        result_report_create(match_id=match.pk, actor=home_player, games=[home_wins])
    assert "do not decide the match" in short.value.fields["games"][0]
    with pytest.raises(ValidationFailed) as long:
        result_report_create(
            match_id=match.pk, actor=home_player, games=[home_wins, home_wins, away_wins]
        )
    assert "decided after game 2" in long.value.fields["games"][0]
    # the checks recorded nothing
    assert not match.match_games.exists()

    report = result_report_create(
        match_id=match.pk, actor=home_player, games=[home_wins, away_wins, home_wins]
    )
    result_report_confirm(report_id=report.pk, actor=away_player)
    match.refresh_from_db()
    assert (match.state, match.home_games, match.away_games) == ("complete", 2, 1)
    assert match.winner_id == match.home_id


def test_totals_the_rules_refuse_are_refused_when_reported() -> None:
    _tournament, match, home_player, _away = running()
    with pytest.raises(ValidationFailed) as refused:
        result_report_create(
            match_id=match.pk,
            actor=home_player,
            games=[ReportedGame(home_points=100, away_points=200)],
        )
    assert refused.value.code == "game_not_over"
    assert not ResultReport.objects.exists()


def test_a_dispute_goes_to_the_director_who_confirms_it() -> None:
    tournament, match, home_player, away_player = running()
    report = result_report_create(match_id=match.pk, actor=home_player, games=AWAY_WINS)
    with pytest.raises(ValidationFailed) as no_reason:
        result_report_dispute(report_id=report.pk, actor=away_player, reason="  ")
    assert no_reason.value.fields == {"reason": ["say what is wrong with this result."]}
    disputed = result_report_dispute(
        report_id=report.pk, actor=away_player, reason="We made 512, not them."
    )
    assert (disputed.status, disputed.disputed_by) == ("disputed", away_player)
    assert result_reports_open(tournament_id=tournament.pk) == [report]
    # the other team cannot confirm it now: a director decides
    with pytest.raises(Conflict) as decided:
        result_report_confirm(report_id=report.pk, actor=away_player)
    assert decided.value.code == "report_not_pending"

    result_report_confirm(report_id=report.pk, actor=tournament.organiser)
    match.refresh_from_db()
    assert match.winner_id == match.away_id
    assert result_reports_open(tournament_id=tournament.pk) == []


def test_a_director_overrules_a_dispute_by_recording_the_right_result() -> None:
    tournament, match, home_player, away_player = running()
    report = result_report_create(match_id=match.pk, actor=away_player, games=AWAY_WINS)
    result_report_dispute(report_id=report.pk, actor=home_player, reason="We won it 512-387.")
    match_game_record_totals(
        match_id=match.pk, actor=tournament.organiser, home_points=512, away_points=387
    )
    report.refresh_from_db()
    assert (report.status, report.decided_by) == ("overruled", tournament.organiser)
    match.refresh_from_db()
    assert match.winner_id == match.home_id


def test_a_director_confirms_a_waiting_report_at_once() -> None:
    tournament, match, _home, away_player = running()
    report = result_report_create(match_id=match.pk, actor=away_player, games=AWAY_WINS)
    result_report_confirm(report_id=report.pk, actor=tournament.organiser)
    match.refresh_from_db()
    assert match.winner_id == match.away_id


def test_who_may_report_confirm_dispute_and_withdraw() -> None:
    tournament, match, home_player, away_player = running()
    stranger = _account_of(PlayerFactory())
    with pytest.raises(NotAllowed) as outsider:
        result_report_create(match_id=match.pk, actor=stranger, games=AWAY_WINS)
    assert outsider.value.code == "not_player_of_match"
    with pytest.raises(NotAllowed) as no_player:
        result_report_create(match_id=match.pk, actor=UserFactory(), games=AWAY_WINS)
    assert no_player.value.code == "not_player_of_match"

    report = result_report_create(match_id=match.pk, actor=home_player, games=AWAY_WINS)
    partner = _account_of(match.home.team.player_two)
    with pytest.raises(NotAllowed) as own:
        result_report_confirm(report_id=report.pk, actor=partner)
    assert own.value.code == "own_side_report"
    with pytest.raises(NotAllowed) as own_dispute:
        result_report_dispute(report_id=report.pk, actor=home_player, reason="Wrong")
    assert own_dispute.value.code == "own_side_report"
    with pytest.raises(NotAllowed) as other_withdraws:
        result_report_withdraw(report_id=report.pk, actor=away_player)
    assert other_withdraws.value.code == "not_reporting_side"
    with pytest.raises(NotAllowed):
        result_report_confirm(report_id=report.pk, actor=stranger)

    # the reporter's partner may withdraw it; then nothing is left to confirm
    withdrawn = result_report_withdraw(report_id=report.pk, actor=partner)
    assert withdrawn.status == "withdrawn"
    with pytest.raises(Conflict) as gone:
        result_report_confirm(report_id=report.pk, actor=away_player)
    assert gone.value.code == "report_not_pending"
    with pytest.raises(Conflict):
        result_report_confirm(report_id=report.pk, actor=tournament.organiser)


def test_reports_are_refused_where_the_setting_is_off_or_the_match_is_not_open() -> None:
    _tournament, match, home_player, away_player = running(results_confirmed_by_both=False)
    with pytest.raises(Conflict) as off:
        result_report_create(match_id=match.pk, actor=home_player, games=AWAY_WINS)
    assert off.value.code == "reports_off"

    _tournament, match, home_player, away_player = running()
    report = result_report_create(match_id=match.pk, actor=home_player, games=AWAY_WINS)
    result_report_confirm(report_id=report.pk, actor=away_player)
    with pytest.raises(Conflict) as finished:
        result_report_create(match_id=match.pk, actor=home_player, games=AWAY_WINS)
    assert finished.value.code == "match_not_ready"


def test_one_open_report_per_match() -> None:
    _tournament, match, home_player, away_player = running()
    report = result_report_create(match_id=match.pk, actor=home_player, games=AWAY_WINS)
    with pytest.raises(Conflict) as second:
        result_report_create(match_id=match.pk, actor=away_player, games=AWAY_WINS)
    assert second.value.code == "report_open"
    # the database backs it: a second open row for the match cannot be written
    with pytest.raises(IntegrityError):
        ResultReport.objects.create(
            match=match, games=report.games, side="away", reported_by=away_player
        )


def test_a_report_decided_then_a_new_one_may_be_made() -> None:
    _tournament, match, home_player, away_player = running()
    report = result_report_create(match_id=match.pk, actor=home_player, games=AWAY_WINS)
    result_report_withdraw(report_id=report.pk, actor=home_player)
    again = result_report_create(match_id=match.pk, actor=away_player, games=AWAY_WINS)
    assert again.status == "pending"
    assert again.pk != report.pk


def test_the_admin_lists_reports_and_changes_none(client: Any) -> None:
    _tournament, match, home_player, _away = running()
    result_report_create(match_id=match.pk, actor=home_player, games=AWAY_WINS)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    listed = client.get("/admin/tournaments/resultreport/")
    assert listed.status_code == 200
    assert home_player.username in listed.content.decode()
    assert client.get("/admin/tournaments/resultreport/add/").status_code == 403


def test_a_match_decided_another_way_overrules_its_open_report() -> None:
    tournament, match, home_player, _away = running()
    report = result_report_create(match_id=match.pk, actor=home_player, games=AWAY_WINS)
    match_forfeit(
        match_id=match.pk,
        actor=tournament.organiser,
        loser_id=match.home_id,
        expected_version=match.version,
    )
    report.refresh_from_db()
    assert report.status == "overruled"
    assert result_reports_open(tournament_id=tournament.pk) == []
