# mypy: disable-error-code="no-untyped-call,no-untyped-def,attr-defined,arg-type,misc,union-attr"
"""A director caps a tournament on the set-up page; the teams beyond it wait, listed in order
on the director's day."""

import pytest
from playwright.sync_api import expect

from tests.scoring.factories import UserFactory
from tournaments.models import Entry, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_capped_tournament_starts_with_its_cap_and_lists_who_waits(page, sign_in):
    director = UserFactory(director=True)
    sign_in(director)
    page.goto("/tournaments/new/")
    page.fill("#id_name", "Legion Saturday")
    page.fill("#id_starts_on", "2026-12-05")
    page.check("input[name=format][value=round_robin]")
    page.fill("#id_teams", "\n".join(f"Angus {n} & Flora {n}" for n in range(1, 7)))
    page.fill("#id_entry_cap", "1")
    page.click("form.setup button[type=submit]")
    expect(page.locator("#id_entry_cap_error")).to_contain_text("greater than or equal to 2")
    page.fill("#id_entry_cap", "4")
    page.click("form.setup button[type=submit]")
    expect(page.locator("h1")).to_contain_text("Director's day")
    expect(page.locator("#entry-cap")).to_have_text("At most 4 teams play.")
    waiting = page.locator("#waiting-list li")
    expect(waiting).to_have_count(2)
    expect(waiting.nth(0)).to_contain_text("Angus 5")
    expect(waiting.nth(1)).to_contain_text("Angus 6")
    tournament = Tournament.objects.get()
    assert tournament.entries.filter(status=Entry.Status.ACTIVE).count() == 4
