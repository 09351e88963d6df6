# mypy: disable-error-code="no-untyped-call,no-untyped-def,attr-defined,arg-type,misc,union-attr"
"""A player reports a bracket match's result from the match page, a player of the other team
confirms it, and the bracket moves the winner on: on a phone and on a desktop."""

import pytest
from playwright.sync_api import expect

from tests.tournaments.test_result_reports import running
from tournaments.models import Match, ResultReport

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [390, 1280])
def test_a_player_reports_the_other_team_confirms_and_the_bracket_follows(page, sign_in, width):
    page.set_viewport_size({"width": width, "height": 900})
    tournament, match, home_player, away_player = running("single_elim")
    home, away = match.home.team.name, match.away.team.name
    later = Match.objects.filter(stage=match.stage).exclude(pk=match.pk)
    final = later.order_by("-round__number").first()

    sign_in(home_player)
    page.goto(f"/matches/{match.pk}/")
    form = page.locator("#report-form")
    form.get_by_label(f"{home}'s total").fill("480")
    form.get_by_label(f"{away}'s total").fill("410")
    page.click("#report-submit")
    # neither total reaches the target: said beside the field, the totals kept as typed
    expect(page.locator("#id_report-game1_home_error")).to_contain_text("reaches 500")
    expect(form.get_by_label(f"{away}'s total")).to_have_value("410")
    assert not ResultReport.objects.exists()
    form.get_by_label(f"{home}'s total").fill("506")
    page.click("#report-submit")
    expect(page.locator(".notice[role=status]")).to_contain_text("once the other team confirms")
    expect(page.locator("#open-report")).to_contain_text("Waiting for the other team")
    expect(page.locator("#reported-games")).to_contain_text("506")
    expect(page.locator("#confirm-report")).to_have_count(0)
    # provisional: the bracket has not moved
    waiting = Match.objects.get(pk=final.pk)
    assert match.home_id not in {waiting.home_id, waiting.away_id}

    sign_in(away_player)
    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("#dispute-form")).to_be_visible()
    page.click("#confirm-report")
    expect(page.locator(".notice[role=status]")).to_contain_text("Result confirmed")
    expect(page.locator("p.winner")).to_contain_text(f"{home} won the match")
    assert ResultReport.objects.get().status == "confirmed"

    page.goto(f"/tournaments/{tournament.slug}/?stage={match.stage_id}")
    expect(page.locator(f"svg.bracket [data-match='{final.key}']")).to_contain_text(home)
    box = page.locator("main").bounding_box()
    assert box is not None
    assert box["width"] <= width
