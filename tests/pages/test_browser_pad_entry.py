# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,misc"
"""The score-pad in a real browser, at a phone's width: the order of hands kept on the phone
when one is refused, a hand entered from two phones, the undo link, errors a scorekeeper finds
and hears, what is caught with no signal, the page after the back button, tap targets."""

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from scoring.models import Hand
from tests.helpers import wait_for
from tests.pages.conftest import PHONE
from tests.pages.test_browser_scorepad import fill_hand, hands_stored, save_hand, tap
from tests.scoring.factories import GameFactory, UserFactory, record_hand, record_hands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def keeper():
    return UserFactory()


@pytest.fixture
def other_phone(browser: Any, live_server: Any, keeper: Any) -> Iterator[Any]:
    """A second score-pad on the same game, signed in as the same scorekeeper."""
    context = browser.new_context(base_url=live_server.url, viewport=PHONE)
    context.set_default_timeout(10_000)
    client = Client()
    client.force_login(keeper)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": live_server.url}]
    )
    yield context.new_page()
    context.close()


def open_pad(page: Any, game: Any, *, offline_ready: bool = False) -> None:
    page.goto(f"/games/{game.pk}/pad/")
    expect(page.locator("#hand-form")).to_be_visible()
    if offline_ready:
        # a function: Playwright polls a string by eval, which the page's policy refuses
        page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")


def look_again(page: Any) -> None:
    """What the pad does when the signal returns (and every few seconds): read the game again."""
    page.evaluate("window.dispatchEvent(new Event('online'))")


def entered(game: Any) -> list[tuple[int, int | None, int]]:
    return [
        (h.number, h.caller, h.dealer)
        for h in Hand.objects.filter(game=game, undone=False).order_by("number")
    ]


def two_hands_offline_the_first_refused(page: Any, browser_context: Any) -> Any:
    """Hand 1 saved with no count (the server refuses it), hand 2 saved behind it, both with no
    signal; then the signal returns. The refused hand's line in the outbox."""
    browser_context.set_offline(True)
    tap(page, "caller", "0")
    tap(page, "trump", "H")
    page.click("#save-hand")
    fill_hand(page, caller=1, trump="S", team="team_b", count=90)
    page.click("#save-hand")
    expect(page.locator("#hand-title")).to_have_text("Hand 3")
    browser_context.set_offline(False)
    look_again(page)
    refused = page.locator("#outbox-list li").first
    expect(refused).to_contain_text("Refused by the server", timeout=20_000)
    return refused


# ------------------------------------------------------------------ hands kept in order


def test_hands_behind_a_refused_one_wait_until_it_is_put_right(
    page, sign_in, keeper, browser_context
):
    game = GameFactory(scorekeepers=[keeper], first_dealer=0)
    sign_in(keeper)
    open_pad(page, game, offline_ready=True)
    refused = two_hands_offline_the_first_refused(page, browser_context)

    # the reason is beside the refused hand, not under the blank form's count
    expect(refused).to_contain_text("card points are needed")
    expect(page.locator("[data-error-for=count]")).to_have_text("")
    expect(page.locator("#outbox-list li").nth(1)).to_contain_text("Not yet sent")

    refused.get_by_role("button", name="Put back in the form").click()
    expect(page.locator("input[name=caller][value='0']")).to_be_checked()
    expect(page.locator("[data-error-for=count]")).to_contain_text("card points are needed")
    expect(page.locator("#hand-title")).to_have_text("Hand 1")
    expect(page.locator("#outbox-list li").first).to_contain_text("In the form")
    page.wait_for_timeout(1000)
    assert hands_stored(game) == 0  # hand 2 waits for hand 1

    page.fill("input[name=count]", "100")
    expect(page.locator("#preview")).to_contain_text("Made")
    page.click("#save-hand")
    expect(page.locator("#hand-2")).to_be_visible(timeout=20_000)
    expect(page.locator("#outbox")).to_be_hidden()
    expect(page.locator("#hand-title")).to_have_text("Hand 3")
    # each hand with its number and its dealer (the deal passes one seat clockwise)
    assert entered(game) == [(1, 0, 0), (2, 1, 1)]


def test_a_refused_hand_discarded_lets_the_ones_behind_move_up(
    page, sign_in, keeper, browser_context
):
    game = GameFactory(scorekeepers=[keeper], first_dealer=0)
    sign_in(keeper)
    open_pad(page, game, offline_ready=True)
    refused = two_hands_offline_the_first_refused(page, browser_context)

    refused.get_by_role("button", name="Discard").click()
    expect(page.locator("#hand-1")).to_be_visible(timeout=20_000)
    expect(page.locator("#outbox")).to_be_hidden()
    expect(page.locator("#hand-title")).to_have_text("Hand 2")
    assert entered(game) == [(1, 1, 0)]


# ------------------------------------------------------------------ two phones, one hand


def test_a_hand_entered_from_another_phone_is_not_counted_twice(page, sign_in, keeper, other_phone):
    game = GameFactory(scorekeepers=[keeper], first_dealer=0)
    sign_in(keeper)
    open_pad(page, game)
    open_pad(other_phone, game)

    # this phone starts typing hand 1; the other phone saves its own hand 1 first
    fill_hand(page, caller=0, trump="H", team="team_a", count=100)
    expect(page.locator("#preview")).to_contain_text("Made")
    fill_hand(other_phone, caller=0, trump="H", team="team_a", count=100)
    save_hand(other_phone, 1)

    # the score follows; the form keeps its number and says what happened
    look_again(page)
    expect(page.locator(".scoreboard [data-total='0']")).to_have_text("100")
    expect(page.locator("#hand-title")).to_have_text("Hand 1")
    expect(page.locator("#pad-conflict")).to_contain_text("Hand 1 was entered from another phone")

    # saving it is refused, and it comes back with the reason
    page.click("#save-hand")
    expect(page.locator("#preview")).to_contain_text("already exists", timeout=20_000)
    expect(page.locator("input[name=count]")).to_have_value("100")
    expect(page.locator("#hand-title")).to_have_text("Hand 1")
    # the refusal stays through the pad's next look at the game
    look_again(page)
    page.wait_for_timeout(1000)
    expect(page.locator("#preview")).to_contain_text("already exists")
    expect(page.locator("#hand-title")).to_have_text("Hand 1")
    assert entered(game) == [(1, 0, 0)]

    # changed, it keeps its number (it is almost always the same hand entered twice): the
    # scorekeeper discards it or corrects hand 1, and saving it again is not tried
    page.fill("input[name=count]", "90")
    expect(page.locator("#pad-conflict")).to_contain_text(
        "Hand 1 was already entered from another phone: discard this one, or correct hand 1"
    )
    expect(page.locator("#hand-title")).to_have_text("Hand 1")
    expect(page.locator("#pad-conflict a")).to_have_attribute(
        "href", f"/games/{game.pk}/hands/1/correct/"
    )
    page.click("#save-hand")
    expect(page.locator("#pad-conflict")).to_be_focused()
    expect(page.locator("#hand-title")).to_have_text("Hand 1")
    page.locator("#pad-conflict").get_by_role("button", name="Discard this one").click()
    expect(page.locator("#hand-title")).to_have_text("Hand 2")
    expect(page.locator("input[name=count]")).to_have_value("")
    expect(page.locator("#pad-conflict")).to_be_hidden()
    expect(page.locator("#outbox")).to_be_hidden()
    assert entered(game) == [(1, 0, 0)]


def test_a_put_back_hand_another_phone_entered_keeps_its_number_until_discarded(
    page, sign_in, keeper, browser_context, other_phone
):
    game = GameFactory(scorekeepers=[keeper], first_dealer=0)
    sign_in(keeper)
    open_pad(page, game, offline_ready=True)
    open_pad(other_phone, game)
    browser_context.set_offline(True)
    fill_hand(page, caller=0, trump="H", team="team_a", count=100)
    page.click("#save-hand")
    fill_hand(page, caller=1, trump="S", team="team_b", count=100)
    page.click("#save-hand")
    expect(page.locator("#hand-title")).to_have_text("Hand 3")
    fill_hand(other_phone, caller=0, trump="D", team="team_a", count=90)
    save_hand(other_phone, 1)
    browser_context.set_offline(False)
    look_again(page)

    # the refusal says plainly what happened, hand 2 waits behind it
    refused = page.locator("#outbox-list li").first
    expect(refused).to_contain_text("Hand 1 was already entered from another phone", timeout=20_000)
    expect(page.locator("#outbox-list li").nth(1)).to_contain_text("Not yet sent")
    refused.get_by_role("button", name="Put back in the form").click()
    page.fill("input[name=count]", "101")
    expect(page.locator("#hand-title")).to_have_text("Hand 1")
    note = page.locator("#pad-conflict")
    expect(note).to_contain_text("discard this one, or correct hand 1")
    expect(note).not_to_contain_text("now hand")
    expect(page.locator("#preview")).to_contain_text("already entered from another phone")
    page.click("#save-hand")
    page.wait_for_timeout(500)
    assert entered(game) == [(1, 0, 0)]  # neither it nor hand 2 stored under another number

    # discarded: hand 2 goes as hand 2, dealt by seat 1
    note.get_by_role("button", name="Discard this one").click()
    expect(page.locator("#hand-2")).to_be_visible(timeout=20_000)
    expect(page.locator("#outbox")).to_be_hidden()
    expect(page.locator("#hand-title")).to_have_text("Hand 3")
    assert entered(game) == [(1, 0, 0), (2, 1, 1)]


def test_a_preview_on_its_way_when_another_phone_saves_is_not_shown_for_the_next_hand(
    page, sign_in, keeper, other_phone
):
    game = GameFactory(scorekeepers=[keeper], first_dealer=0)
    sign_in(keeper)
    open_pad(page, game)
    open_pad(other_phone, game)
    held: list[Any] = []

    def hold(route: Any) -> None:
        if held and held[0] == "released":
            route.continue_()
        else:
            held.append(route)

    page.route("**/hands/preview/", hold)
    fill_hand(page, caller=0, trump="H", team="team_a", count=100)
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the preview was asked for"

    # the other phone saves hand 1 while this phone's preview of it is on its way
    fill_hand(other_phone, caller=0, trump="H", team="team_a", count=100)
    save_hand(other_phone, 1)
    waiting, held[:] = list(held), ["released"]
    for route in waiting:
        route.continue_()

    expect(page.locator("#pad-conflict")).to_contain_text(
        "Hand 1 was entered from another phone", timeout=10_000
    )
    expect(page.locator("#hand-title")).to_have_text("Hand 1")
    page.wait_for_timeout(500)
    preview = page.locator("#preview")
    expect(preview).to_contain_text("Hand 1 was entered from another phone")
    expect(preview).not_to_contain_text("200")  # hand 2's totals, 100 + 100


# ------------------------------------------------------------------ undo


def test_undo_appears_once_the_game_has_a_hand_and_goes_when_it_has_none(
    page, sign_in, keeper, other_phone
):
    game = GameFactory(scorekeepers=[keeper], first_dealer=0)
    sign_in(keeper)
    open_pad(page, game)
    expect(page.locator("#undo-link")).to_be_hidden()
    fill_hand(page, caller=0, trump="H", team="team_a", count=100)
    save_hand(page, 1)
    expect(page.locator("#undo-link")).to_be_visible()

    # undone from the other phone: gone from this one once it looks again
    other_phone.goto(f"/games/{game.pk}/pad/undo/")
    other_phone.click("#confirm-undo")
    assert wait_for(lambda: hands_stored(game) == 1 and entered(game) == [], timeout=10)
    look_again(page)
    expect(page.locator("#undo-link")).to_be_hidden()
    expect(page.locator("#hand-title")).to_have_text("Hand 1")


# ------------------------------------------------------------------ errors found and heard


def test_an_error_far_from_save_takes_the_scorekeeper_to_the_field(page, sign_in, keeper):
    game = GameFactory(scorekeepers=[keeper], first_dealer=0)
    sign_in(keeper)
    open_pad(page, game)
    tap(page, "trump", "H")
    page.fill("input[name=count]", "100")
    page.click("#save-hand")  # no caller

    caller = page.locator("input[name=caller]").first
    expect(caller).to_be_focused()
    expect(caller).to_have_attribute("aria-invalid", "true")
    slot = page.locator("[data-error-for=caller]")
    expect(slot).to_contain_text("Choose who called")
    expect(slot).to_have_attribute("aria-live", "polite")
    expect(caller).to_have_attribute("aria-describedby", slot.get_attribute("id"))
    box = page.locator("fieldset[data-field=caller]").bounding_box()
    assert 0 <= box["y"] < PHONE["height"], "the field in error is on screen"

    # put right, the marks go
    tap(page, "caller", "0")
    expect(page.locator("#preview")).to_contain_text("Made")
    expect(slot).to_have_text("")
    expect(caller).not_to_have_attribute("aria-invalid", "true")
    assert caller.get_attribute("aria-describedby") is None


def test_refusals_name_the_players_not_their_seats(page, sign_in, keeper, browser_context):
    game = GameFactory(scorekeepers=[keeper], first_dealer=0, ruleset_preset="forced-at-400")
    record_hands(game, 3, points=(142, 20))  # team A 426: seat 2 must call, seat 3 deals
    names = [p.display_name for p in game.seats]
    sign_in(keeper)
    open_pad(page, game, offline_ready=True)

    # the dealer called: refused beside "Who called trump?" with the players' names
    fill_hand(page, caller=3, trump="S", team="team_b", count=100)
    slot = page.locator("[data-error-for=caller]")
    expect(slot).to_contain_text(f"{names[2]} must call")
    expect(slot).to_contain_text(f"the dealer, {names[3]}")
    expect(slot).not_to_contain_text("seat")
    expect(page.locator("#preview")).not_to_contain_text("seat 2")

    # a hand kept with no signal and refused for its runs: its reason in the outbox too
    page.locator("button[type=reset]").click()
    browser_context.set_offline(True)
    fill_hand(page, caller=2, trump="H", team="team_a", count=100)
    page.click("#runs-fold > summary")
    page.fill("[data-run=twenty][data-seat='0']", "1")
    page.fill("[data-run=twenty][data-seat='3']", "1")
    page.click("#save-hand")
    fill_hand(page, caller=2, trump="H", team="team_a", count=100)
    page.click("#save-hand")
    browser_context.set_offline(False)
    look_again(page)
    refused = page.locator("#outbox-list li").first
    expect(refused).to_contain_text(f"{names[0]} and {names[3]} each show a twenty", timeout=20_000)
    expect(refused).not_to_contain_text("seat 0")


# ------------------------------------------------------------------ the pages around the pad


def test_undo_asks_once(page, sign_in, keeper):
    game = GameFactory(scorekeepers=[keeper], first_dealer=0)
    record_hand(game)
    sign_in(keeper)
    open_pad(page, game)
    page.click("#undo-link")
    expect(page.locator("input[type=checkbox]")).to_have_count(0)
    page.click("#confirm-undo")  # the one confirmation
    expect(page.locator("#hand-title")).to_have_text("Hand 1")
    assert entered(game) == []


def test_back_to_the_pad_shows_the_game_as_it_is(page, sign_in, keeper, other_phone):
    game = GameFactory(scorekeepers=[keeper], first_dealer=0)
    sign_in(keeper)
    open_pad(page, game)
    expect(page.locator("#hand-title")).to_have_text("Hand 1")
    page.goto(f"/games/{game.pk}/")
    open_pad(other_phone, game)
    fill_hand(other_phone, caller=0, trump="H", team="team_a", count=92)
    save_hand(other_phone, 1)
    page.go_back()
    expect(page.locator("#hand-title")).to_have_text("Hand 2")
    expect(page.locator(".scoreboard [data-total='0']")).to_have_text("92")


# ------------------------------------------------------------------ fingers


def test_small_controls_are_big_enough_to_tap_and_team_names_are_whole(page, sign_in, keeper):
    game = GameFactory(scorekeepers=[keeper], first_dealer=0)
    record_hand(game)
    sign_in(keeper)
    open_pad(page, game)
    page.click("details.field > summary")
    heights = {
        "misplay proven": page.locator("label:has(input[name=misplay_proven])"),
        "misplay or thrown in": page.locator("details.field > summary"),
        "correct": page.locator("#hand-1 a", has_text="Correct"),
        "misplay dispute": page.locator("#hand-1 a", has_text="Misplay dispute"),
    }
    for what, locator in heights.items():
        assert locator.bounding_box()["height"] >= 44, what
    for th in page.locator(".sheet thead th.num").all():
        clipped = th.evaluate(
            "el => el.scrollWidth > el.clientWidth"
            " || getComputedStyle(el).textOverflow === 'ellipsis'"
        )
        assert not clipped, th.inner_text()
