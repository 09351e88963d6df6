# mypy: disable-error-code="no-untyped-call,no-untyped-def,attr-defined,arg-type,misc,union-attr"
"""A director sets up and starts a tournament on one page, on a phone and on a desktop."""

import pytest
from playwright.sync_api import expect

from tests.scoring.factories import UserFactory
from tournaments.models import Stage, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEAMS = "\n".join(f"Angus {n} & Flora {n}" for n in range(1, 9))


@pytest.mark.parametrize("width", [390, 1280])
def test_a_director_sets_up_pools_then_a_knockout_and_starts(page, sign_in, width):
    page.set_viewport_size({"width": width, "height": 900})
    director = UserFactory(director=True)
    sign_in(director)
    # both the front page and the tournaments' list offer it: a phone starts from the first
    page.goto("/" if width == 390 else "/tournaments/")
    page.get_by_role("link", name="Set up a tournament").click()
    expect(page.locator("h1")).to_have_text("Set up a tournament")
    # the field that belongs to the knockout says so
    expect(page.locator("fieldset.next-stage legend")).to_have_text("Next stage: the knockout")
    # each choice a row a finger can hit; no group named twice over (card, then group)
    for label in page.locator("form.setup .choice-list label").all():
        assert label.bounding_box()["height"] >= 44
    shown = page.locator("form.setup legend").evaluate_all(
        "(all) => all.filter((l) => l.getBoundingClientRect().width > 2)"
        ".map((l) => l.textContent.trim())"
    )
    assert len(shown) == len(set(shown)), shown
    page.fill("#id_name", f"Legion Saturday {width}")
    page.fill("#id_starts_on", "2026-12-05")
    page.check("input[name=format][value=pools_single]")
    page.fill("#id_pool_count", "2")
    page.fill("#id_qualifiers_per_pool", "2")
    page.fill("#id_teams", TEAMS + "\nDan Alex")  # one line with no partner
    page.check("input[name=seeding][value=random]")
    page.click("form.setup button[type=submit]")
    expect(page.locator("#id_teams_error")).to_contain_text("line 9: player two is empty.")
    assert not Tournament.objects.exists()
    # the page kept what was typed: fix the line and go
    page.fill("#id_teams", TEAMS)
    page.click("form.setup button[type=submit]")
    expect(page.locator("h1")).to_contain_text("Director's day")
    expect(page.locator("text=has started.")).to_be_visible()
    expect(page.locator("#ready h2")).to_contain_text("(4)")
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.RUNNING
    pools, knockout = tournament.stages.order_by("order")
    assert (pools.status, knockout.status) == (Stage.Status.RUNNING, Stage.Status.PENDING)
    assert knockout.qualifiers_per_pool == 2
    box = page.locator("main").bounding_box()
    assert box is not None
    assert box["width"] <= width
