# mypy: disable-error-code="no-untyped-call,no-untyped-def,attr-defined,arg-type,misc,union-attr"
"""A director lets teams register themselves; a player registers with a partner from the
tournament's page, the partner signs in and confirms, and the team is on the entries: on a
phone and on a desktop."""

import pytest
from playwright.sync_api import expect

from tests.scoring.factories import UserFactory
from tests.tournaments.factories import TournamentFactory
from tournaments.models import Entry, TeamRegistration, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [390, 1280])
def test_a_player_registers_with_a_partner_who_confirms(page, sign_in, width):
    page.set_viewport_size({"width": width, "height": 900})
    tournament = TournamentFactory(slug="legion-open", status=Tournament.Status.REGISTRATION)
    angus = UserFactory(username="angus", first_name="Angus", last_name="MacNeil")
    flora = UserFactory(username="flora", first_name="Flora", last_name="MacLean")

    sign_in(tournament.organiser)
    page.goto("/tournaments/legion-open/director/")
    form = page.locator("#self-registration")
    form.locator("#id_self_registration").check()
    form.locator("#id_registration_closes_at").fill("2099-12-31T21:00")
    form.locator("#id_entry_cap").fill("8")
    form.locator("button[type=submit]").click()
    expect(page.locator("text=Registration settings saved.")).to_be_visible()

    sign_in(angus)
    page.goto("/tournaments/legion-open/")
    register = page.locator("#register")
    expect(register.locator("h2")).to_have_text("Register a team")
    expect(page.locator("#registration-window")).to_contain_text("At most 8 teams play")
    register.locator("#id_partner").fill("angus")
    register.locator("button[type=submit]").click()
    expect(page.locator("#id_partner_error")).to_contain_text("not yourself")
    register.locator("#id_partner").fill("flora")
    register.locator("#id_team_name").fill("The Bait Shop")
    register.locator("#id_community").fill("Mabou")
    register.locator("button[type=submit]").click()
    expect(page.locator("#register .notice")).to_contain_text("once flora confirms it")
    expect(page.locator("#register .registration")).to_contain_text("Waiting for the partner")
    assert not Entry.objects.exists()

    sign_in(flora)
    page.goto("/tournaments/legion-open/")
    waiting = page.locator("#register .registration")
    expect(waiting).to_contain_text("The Bait Shop")
    waiting.locator("button", has_text="Confirm").click()
    expect(page.locator("#register .notice")).to_have_text("Confirmed: your team is entered.")
    expect(page.locator("ol.entries")).to_contain_text("The Bait Shop")
    registration = TeamRegistration.objects.get()
    assert registration.status == TeamRegistration.Status.CONFIRMED
    team = registration.entry.team
    assert {str(team.player_one), str(team.player_two)} == {
        "Angus MacNeil (Mabou)",
        "Flora MacLean (Mabou)",
    }
    box = page.locator("main").bounding_box()
    assert box is not None
    assert box["width"] <= width
