# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,misc,union-attr"
"""French in a real browser, at phone and desktop widths: the switch at the foot of a page
(a plain form, no script needed), then the score-pad and a tournament page in French."""

import pytest
from playwright.sync_api import expect

from tests.pages.test_browser_scorepad import fill_hand
from tests.scoring.factories import GameFactory, UserFactory
from tests.tournaments.factories import add_stage, tournament_ready
from tournaments.services import stage_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [390, 1280])
def test_switch_to_french_then_the_pad_and_a_tournament_speak_it(page, sign_in, width):
    page.set_viewport_size({"width": width, "height": 844 if width == 390 else 900})
    keeper = UserFactory()
    game = GameFactory(scorekeepers=[keeper])
    tournament = tournament_ready(4)
    stage = add_stage(tournament, "round_robin")
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    sign_in(keeper)

    page.goto(f"/tournaments/{tournament.slug}/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    switch = page.locator("footer .language-switch button[value='fr-ca']")
    switch.scroll_into_view_if_needed()
    expect(switch).to_be_visible()
    switch.click()

    # Back on the same page, in French, with the choice shown as current.
    page.wait_for_url(f"**/tournaments/{tournament.slug}/")
    expect(page.locator("html")).to_have_attribute("lang", "fr-ca")
    expect(page.locator("h2", has_text="Phases")).to_be_visible()
    expect(page.get_by_role("link", name="Grand écran")).to_be_visible()
    expect(page.locator("footer .language-switch button[aria-current]")).to_have_text("Français")

    # Remembered: the score-pad opens in French, its script's words too.
    page.goto(f"/games/{game.pk}/pad/")
    expect(page.locator("html")).to_have_attribute("lang", "fr-ca")
    expect(page.get_by_role("button", name="Enregistrer la main")).to_be_visible()
    fill_hand(page, caller=0, trump="H", team="team_a", count=161)
    expect(page.locator("#preview")).to_contain_text("aucune carte ne vaut 1")

    # And back to English in one tap.
    page.locator("footer .language-switch button[value='en']").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("button", name="Save hand")).to_be_visible()
