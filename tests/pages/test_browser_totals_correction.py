# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,misc,union-attr"
# mypy: disable-error-code="no-untyped-def"
"""A director corrects a game recorded by its totals from the match page, in a real
browser: the refusal beside its field, then the match given to the other team."""

import pytest
from playwright.sync_api import expect

from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import ready_matches
from tournaments.services import match_game_record_totals, stage_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_director_corrects_swapped_totals_and_the_other_team_wins(page, sign_in):
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = ready_matches(stage.pk)[0]
    match_game_record_totals(
        match_id=match.pk, actor=tournament.organiser, home_points=520, away_points=380
    )
    sign_in(tournament.organiser)

    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("p.winner")).to_contain_text(f"{match.home.team.name} won the match")
    form = page.locator("#totals-correction-form")
    expect(form).to_be_visible()
    form.get_by_label(f"{match.home.team.name}'s total").fill("380")
    form.get_by_label(f"{match.away.team.name}'s total").fill("420")
    form.get_by_label("Why").fill("Totals written on the wrong lines.")
    page.click("#correct-totals")
    expect(page.locator("#id_totals-home_points_error")).to_contain_text("reaches 500")
    expect(form.get_by_label("Why")).to_have_value("Totals written on the wrong lines.")

    form.get_by_label(f"{match.away.team.name}'s total").fill("520")
    page.click("#correct-totals")
    expect(page.locator(".notice[role=status]")).to_contain_text("Game 1 corrected")
    expect(page.locator("p.winner")).to_contain_text(f"{match.away.team.name} won the match")
    expect(page.locator("#match-live tbody tr").first).to_contain_text("520")
