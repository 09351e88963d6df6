# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,misc"
"""The score-pad in a real browser: a whole game to a win, a correction, hands entered with no
signal that reach the server exactly once."""

import re
from typing import Any

import pytest
from django.db import OperationalError
from playwright.sync_api import expect

from scoring.models import Game, Hand
from tests.helpers import wait_for
from tests.scoring.factories import GameFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TRUMP_INDEX = {"C": 0, "D": 1, "H": 2, "S": 3}


def tap(page: Any, name: str, value: str) -> None:
    """Tap the big button of a radio group (the label of the input with this value)."""
    radio = page.locator(f"input[name={name}][value='{value}']")
    page.click(f"label[for={radio.get_attribute('id')}]")


def fill_hand(
    page: Any, *, caller: int, trump: str, team: str, count: int, bella: int | None = None
) -> None:
    tap(page, "caller", str(caller))
    tap(page, "trump", trump)
    tap(page, "count_team", team)
    page.fill("input[name=count]", str(count))
    if bella is not None:
        if not page.locator("#runs-fold").evaluate("el => el.open"):
            page.click("#runs-fold > summary")  # runs and bella fold open when needed
        page.select_option("select[name=bella_seat]", str(bella))


def save_hand(page: Any, number: int) -> None:
    page.click("#save-hand")
    expect(page.locator(f"#hand-{number}")).to_be_visible()


def hands_stored(game: Game) -> int:
    """How many hands the game has; -1 while the server holds the (in-memory) database."""
    try:
        return Hand.objects.filter(game=game).count()
    except OperationalError:
        return -1


@pytest.fixture
def keeper():
    return UserFactory()


def test_a_whole_game_with_a_bait_a_half_bait_and_a_correction(page, sign_in, keeper):
    game = GameFactory(scorekeepers=[keeper], first_dealer=0)
    sign_in(keeper)
    page.goto(f"/games/{game.pk}/pad/")
    expect(page.locator("#next-deal")).to_contain_text("deals")

    # hand 1: team A calls hearts and makes it
    fill_hand(page, caller=0, trump="H", team="team_a", count=100)
    expect(page.locator("#preview")).to_contain_text("Made")
    expect(page.locator("#preview")).to_contain_text("100")
    save_hand(page, 1)
    expect(page.locator(".scoreboard [data-total='0']")).to_have_text("100")

    # an impossible count is refused next to the field, before saving
    fill_hand(page, caller=1, trump="S", team="team_b", count=161)
    expect(page.locator("[data-error-for=count]")).to_contain_text("161")

    # hand 2: team B calls spades and is baited
    page.fill("input[name=count]", "60")
    expect(page.locator("#preview")).to_contain_text("Bait")
    expect(page.locator("[data-error-for=count]")).to_have_text("")
    save_hand(page, 2)
    expect(page.locator("#hand-2 .mark")).to_have_class(re.compile("bait"))

    # hand 3: team A calls diamonds, both teams count 81: a half-bait
    fill_hand(page, caller=2, trump="D", team="team_a", count=81)
    expect(page.locator("#preview")).to_contain_text("Half-bait")
    save_hand(page, 3)
    expect(page.locator("#hand-3 .mark")).to_have_class(re.compile("half_bait"))

    # then team A calls and makes big hands (with bella) until the game is won
    number = 4
    while Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS:
        fill_hand(page, caller=0, trump="C", team="team_a", count=140, bella=0)
        save_hand(page, number)
        number += 1
        assert number < 12
    expect(page.locator("#next-deal")).to_contain_text("won")
    game.refresh_from_db()
    assert game.winner == "team_a"
    outcomes = list(
        Hand.objects.filter(game=game).order_by("number").values_list("outcome", flat=True)
    )
    assert outcomes[:3] == ["made", "bait", "half_bait"]

    # hand 1 was miscounted (90, not 100); the game is finished, so the scorekeeper is
    # refused with the reason, and a director makes the correction
    page.goto(f"/games/{game.pk}/hands/1/correct/")
    expect(page.locator("main")).to_contain_text("only a director corrects")
    assert Hand.objects.get(game=game, number=1, undone=False).version == 1
    sign_in(UserFactory.create(director=True))
    page.goto(f"/games/{game.pk}/hands/1/correct/")
    page.fill("input[name=count]", "90")
    page.fill("input[name=reason]", "miscounted the last trick")
    page.click("#save-correction")
    expect(page.locator("#hand-1")).to_have_class(re.compile("corrected"))
    hand = Hand.objects.get(game=game, number=1, undone=False)
    assert (hand.points_a, hand.points_b, hand.version) == (90, 72, 2)

    # and the next game between the same teams starts from the finished one
    page.click("#next-game")
    expect(page).to_have_url(re.compile(r"/games/\d+/pad/$"))
    assert Game.objects.count() == 2


def test_hands_entered_with_no_signal_are_stored_once(page, sign_in, keeper, browser_context):
    game = GameFactory(scorekeepers=[keeper], first_dealer=1)
    sign_in(keeper)
    page.goto(f"/games/{game.pk}/pad/")
    expect(page.locator("#hand-form")).to_be_visible()
    # the service worker has kept this score-pad for opening with no signal
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")

    browser_context.set_offline(True)
    fill_hand(page, caller=1, trump="S", team="team_b", count=100)
    page.click("#save-hand")
    expect(page.locator("#outbox")).to_contain_text("1 hand(s) not yet sent")
    expect(page.locator("#preview")).to_be_hidden()
    fill_hand(page, caller=2, trump="H", team="team_a", count=92)
    expect(page.locator("#preview")).to_contain_text("No signal")
    page.click("#save-hand")
    expect(page.locator("#outbox")).to_contain_text("2 hand(s) not yet sent")
    expect(page.locator("#pending-rows tr")).to_have_count(2)
    expect(page.locator("#hand-title")).to_have_text("Hand 3")
    assert hands_stored(game) == 0

    # a reload with no signal keeps them (the page comes from the service worker's cache)
    page.reload()
    expect(page.locator("#outbox")).to_contain_text("2 hand(s) not yet sent")

    browser_context.set_offline(False)
    assert wait_for(lambda: hands_stored(game) == 2, timeout=20)
    expect(page.locator("#outbox")).to_be_hidden(timeout=20_000)
    expect(page.locator("#hand-2")).to_be_visible()
    # sending again (another flush, a reload) writes nothing new
    page.reload()
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_timeout(500)
    hands = Hand.objects.filter(game=game).order_by("number")
    assert [(h.number, h.caller, h.outcome) for h in hands] == [(1, 1, "made"), (2, 2, "made")]
    game.refresh_from_db()
    assert game.hands_played == 2


def test_a_double_tap_on_save_enters_the_hand_once(page, sign_in, keeper):
    game = GameFactory(scorekeepers=[keeper], first_dealer=0)
    sign_in(keeper)
    page.goto(f"/games/{game.pk}/pad/")
    fill_hand(page, caller=0, trump="H", team="team_a", count=100)
    expect(page.locator("#preview")).to_contain_text("Made")
    page.dblclick("#save-hand")
    expect(page.locator("#hand-1")).to_be_visible()
    page.wait_for_timeout(500)
    expect(page.locator("#outbox")).to_be_hidden()  # no refused second copy waiting
    expect(page.locator("#hand-title")).to_have_text("Hand 2")
    assert hands_stored(game) == 1


def test_a_refused_hand_goes_back_into_the_form_as_typed(page, sign_in, keeper, browser_context):
    game = GameFactory(scorekeepers=[keeper], first_dealer=0)
    sign_in(keeper)
    page.goto(f"/games/{game.pk}/pad/")
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")

    # Typed with no signal and the count forgotten, refused once sent: back in the form.
    browser_context.set_offline(True)
    tap(page, "caller", "0")
    tap(page, "trump", "H")
    page.click("#save-hand")
    expect(page.locator("input[name=caller][value='0']")).not_to_be_checked()
    browser_context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("[data-error-for=count]")).to_contain_text(
        "card points are needed", timeout=20_000
    )
    expect(page.locator("input[name=caller][value='0']")).to_be_checked()
    expect(page.locator("input[name=trump][value='H']")).to_be_checked()
    expect(page.locator("#outbox-list li")).to_contain_text("In the form")
    expect(page.locator("#hand-title")).to_have_text("Hand 1")

    # Put right, it is hand 1.
    page.fill("input[name=count]", "100")
    expect(page.locator("#preview")).to_contain_text("Made")
    save_hand(page, 1)
    expect(page.locator("#outbox")).to_be_hidden()
    hand = Hand.objects.get(game=game)
    assert (hand.number, hand.card_points_a, hand.card_points_b) == (1, 100, 62)
