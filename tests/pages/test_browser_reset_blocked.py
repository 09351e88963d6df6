# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,misc,union-attr"
"""A held result change that would re-open a match being played, in a real browser at a
phone's and a desktop's width: the game's score-pad warns at once, and the director's
confirmation names the game that must end and ends it with the change in one step."""

import pytest
from playwright.sync_api import expect

from scoring.models import Game
from tests.tournaments.test_reset_blocked import held_with_a_game_being_played
from tournaments.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [390, 1280])
def test_the_pad_warns_and_the_director_ends_the_game_and_confirms(page, sign_in, width):
    page.set_viewport_size({"width": width, "height": 844})
    held = held_with_a_game_being_played()
    sign_in(held.tournament.organiser)

    page.goto(f"/games/{held.playing.pk}/pad/")
    warning = page.locator("#owner-warning")
    expect(warning).to_contain_text("re-opens this match (W2-1)")
    box = warning.bounding_box()
    assert box is not None
    assert box["y"] < 844  # on the first screen
    assert box["width"] <= width

    page.goto(f"/matches/{held.first.pk}/")
    page.locator("#confirm-reset").click()
    expect(page.locator("h1")).to_have_text("Confirm the changed result")
    expect(page.locator("main, body").first).to_contain_text("Game 1 of W2-1")
    button = page.locator("#confirm-act")
    expect(button).to_have_text("End game 1 of W2-1 and confirm the change")
    button.click()
    page.wait_for_url(f"**/matches/{held.first.pk}/")
    expect(page.locator("body")).to_contain_text("Game 1 of W2-1 ended")
    held.playing.refresh_from_db()
    assert held.playing.status == Game.Status.ABANDONED
    assert Match.objects.get(pk=held.final.pk).state == Match.State.PENDING

    page.goto(f"/games/{held.playing.pk}/pad/")
    expect(page.locator("#owner-warning")).to_have_count(0)
