# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,misc,union-attr"
# mypy: disable-error-code="no-untyped-def"
"""A director records a game played on paper from the match page, in a real browser."""

import pytest
from playwright.sync_api import expect

from tests.tournaments.factories import add_stage, tournament_ready
from tests.tournaments.helpers import ready_matches
from tournaments.services import stage_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_director_records_totals_corrects_a_typing_error_and_sees_the_match_decided(
    page, sign_in
):
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    match = ready_matches(stage.pk)[0]
    sign_in(tournament.organiser)

    page.goto(f"/matches/{match.pk}/")
    form = page.locator("#quick-result-form")
    expect(form).to_be_visible()
    form.get_by_label(f"{match.home.team.name}'s total").fill("380")
    form.get_by_label(f"{match.away.team.name}'s total").fill("420")
    page.click("#record-totals")
    # neither total reaches the target: said beside the field, the form kept as typed
    expect(page.locator("#id_quick-home_points_error")).to_contain_text("reaches 500")
    expect(form.get_by_label(f"{match.away.team.name}'s total")).to_have_value("420")

    form.get_by_label(f"{match.away.team.name}'s total").fill("520")
    page.click("#record-totals")
    expect(page.locator(".notice[role=status]")).to_contain_text("recorded by its totals")
    expect(page.locator("p.winner")).to_contain_text(f"{match.away.team.name} won the match")
    row = page.locator("#match-live tbody tr").first
    expect(row).to_contain_text("totals only")
    expect(row).to_contain_text("520")
    expect(page.locator("#quick-result-form")).to_have_count(0)

    row.get_by_role("link", name="Score-sheet").click()
    expect(page.locator("#totals-only")).to_contain_text("Totals only")
    expect(page.locator("#sheet-table")).to_contain_text("recorded by its final totals only")
