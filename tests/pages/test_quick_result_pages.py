# mypy: disable-error-code="no-untyped-call,attr-defined,union-attr,arg-type"
"""Quick results on the pages: the match page's form, its refusals beside their fields, and
the totals-only mark on the match, the score-sheet and the printed sheet."""

from typing import Any

import pytest
from django.test import Client

from scoring.models import Game
from tests.scoring.factories import UserFactory
from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import ready_matches
from tournaments.models import Match, Tournament
from tournaments.services import stage_start

pytestmark = pytest.mark.django_db


def running(**values: Any) -> tuple[Tournament, Match]:
    tournament = tournament_ready(4, **values)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    tournament.refresh_from_db()
    return tournament, ready_matches(stage.pk)[0]


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_director_records_a_game_by_its_totals_from_the_match_page() -> None:
    tournament, match = running()
    client = signed_in(tournament.organiser)
    page = client.get(f"/matches/{match.pk}/")
    assert 'id="quick-result-form"' in page.content.decode()
    # the winner is asked only under the caller's rule
    assert 'name="quick-winner"' not in page.content.decode()

    done = client.post(
        f"/matches/{match.pk}/quick-result/",
        {"quick-home_points": "512", "quick-away_points": "377"},
        follow=True,
    )
    assert done.redirect_chain == [(f"/matches/{match.pk}/", 302)]
    html = done.content.decode()
    assert "recorded by its totals" in html
    assert "totals only" in html
    # a decided match offers the form no more
    assert 'id="quick-result-form"' not in html
    match.refresh_from_db()
    assert (match.state, match.winner_id) == ("complete", match.home_id)

    game = Game.objects.get(match_link__match=match)
    sheet = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="totals-only"' in sheet
    assert "recorded by its final totals only" in sheet
    assert 'id="reopen-link"' not in sheet
    printed = client.get(f"/games/{game.pk}/print/").content.decode()
    assert 'id="totals-only"' in printed
    assert "512 to 377" in printed


def test_totals_refused_are_said_beside_their_fields() -> None:
    tournament, match = running()
    client = signed_in(tournament.organiser)
    refused = client.post(
        f"/matches/{match.pk}/quick-result/",
        {"quick-home_points": "420", "quick-away_points": "-3"},
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    assert 'id="id_quick-away_points_error"><div>Ensure this value is greater than' in html
    short = client.post(
        f"/matches/{match.pk}/quick-result/",
        {"quick-home_points": "420", "quick-away_points": "380"},
    )
    assert short.status_code == 400
    html = short.content.decode()
    assert 'id="id_quick-home_points_error"><div>a game is over only when' in html
    assert Game.objects.count() == 0


def test_a_tables_scorekeeper_sees_the_form_only_when_the_tournament_allows() -> None:
    tournament, match = running()
    keeper = UserFactory()
    tournament.scorekeepers.add(keeper)
    client = signed_in(keeper)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="start-game"' in page
    assert 'id="quick-result-form"' not in page
    refused = client.post(
        f"/matches/{match.pk}/quick-result/",
        {"quick-home_points": "512", "quick-away_points": "377"},
    )
    assert refused.status_code == 403
    Tournament.objects.filter(pk=tournament.pk).update(quick_results_by_scorekeepers=True)
    assert 'id="quick-result-form"' in client.get(f"/matches/{match.pk}/").content.decode()
    done = client.post(
        f"/matches/{match.pk}/quick-result/",
        {"quick-home_points": "512", "quick-away_points": "377"},
    )
    assert done.status_code == 302
    # a stranger sees no form
    other = signed_in(UserFactory()).get(f"/matches/{ready_matches(match.stage_id)[0].pk}/")
    assert 'id="quick-result-form"' not in other.content.decode()


def test_under_the_callers_rule_the_form_asks_who_won() -> None:
    from scoring.engine import Ruleset

    tournament, match = running(ruleset=Ruleset(both_over="caller").to_json(), ruleset_preset="")
    client = signed_in(tournament.organiser)
    assert 'name="quick-winner"' in client.get(f"/matches/{match.pk}/").content.decode()
    refused = client.post(
        f"/matches/{match.pk}/quick-result/",
        {"quick-home_points": "540", "quick-away_points": "560", "quick-winner": ""},
    )
    assert refused.status_code == 400
    assert 'id="id_quick-winner_error"><div>both teams reached 500' in refused.content.decode()
    done = client.post(
        f"/matches/{match.pk}/quick-result/",
        {"quick-home_points": "540", "quick-away_points": "560", "quick-winner": "home"},
    )
    assert done.status_code == 302
    match.refresh_from_db()
    assert match.winner_id == match.home_id
