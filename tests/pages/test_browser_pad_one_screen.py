# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,misc"
"""One screen per hand: on a phone (390x844) each kind of hand is entered with few taps and
little scrolling, measured here and printed (``pytest -s`` shows the figures):

    kind          taps  digits  scrolled (px)

A tap is a press on the screen (a button, a box to type in, a fold, a list and its choice);
digits are the keys typed; scrolled is how far the page moved while the hand was entered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import Hand
from tests.pages.conftest import PHONE
from tests.scoring.factories import GameFactory, PlayerFactory, TeamFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@dataclass
class Fingers:
    """Taps, digits and the distance scrolled while one hand is entered."""

    page: Any
    taps: int = 0
    digits: int = 0
    scrolled: int = 0
    seen: list[int] = field(default_factory=list)

    def _moved(self) -> None:
        y = int(self.page.evaluate("() => window.scrollY"))
        self.scrolled += abs(y - (self.seen[-1] if self.seen else 0))
        self.seen.append(y)

    def tap(self, selector: str) -> None:
        self.page.click(selector)
        self.taps += 1
        self._moved()

    def choose(self, name: str, value: str) -> None:
        radio = self.page.locator(f"input[name={name}][value='{value}']")
        self.tap(f"label[for={radio.get_attribute('id')}]")

    def pick(self, selector: str, value: str) -> None:
        """A list (a select): a tap to open it, one on the choice."""
        self.page.select_option(selector, value)
        self.taps += 2
        self._moved()

    def type(self, selector: str, text: str) -> None:
        self.tap(selector)
        self.page.keyboard.type(text)
        self.digits += len(text)
        self._moved()


@pytest.fixture
def keeper():
    return UserFactory()


def long_named_game(keeper: Any) -> Any:
    """A game whose players and teams have long names, where the dealer may pass (so the
    callers' buttons include "All passed": the most the form shows)."""
    names = ["Alphonse Poirier", "Marie MacLellan", "Jean-Baptiste Aucoin", "Bernadette Deveau"]
    players = [PlayerFactory(display_name=name) for name in names]
    team_a = TeamFactory(player_one=players[0], player_two=players[1])
    team_b = TeamFactory(player_one=players[2], player_two=players[3])
    return GameFactory(
        team_a=team_a,
        team_b=team_b,
        scorekeepers=[keeper],
        first_dealer=0,
        ruleset={"dealer_may_pass": True, "target": 1000},
        ruleset_preset=None,
    )


def plain(f: Fingers) -> None:
    f.choose("caller", "0")
    f.choose("trump", "H")
    f.type("input[name=count]", "100")


def all_passed(f: Fingers) -> None:
    f.choose("caller", "void")


def with_bella(f: Fingers) -> None:
    plain(f)
    f.tap("#runs-fold > summary")
    f.pick("select[name=bella_seat]", "0")


def with_a_twenty(f: Fingers) -> None:
    plain(f)
    f.tap("#runs-fold > summary")
    f.tap("[data-bump=twenty_0]")


def with_a_fifty_and_bella(f: Fingers) -> None:
    plain(f)
    f.tap("#runs-fold > summary")
    f.tap("[data-bump=fifty_2]")
    f.pick("select[name=bella_seat]", "2")


def misplay(f: Fingers) -> None:
    f.choose("caller", "1")
    f.choose("trump", "S")
    f.tap("details.field > summary")
    f.pick("select[name=misplay_by]", "0")


def thrown_in(f: Fingers) -> None:
    f.choose("caller", "0")
    f.choose("trump", "C")
    f.tap("details.field > summary")
    f.pick("select[name=thrown_in_by]", "1")
    f.type("input[name=count]", "40")
    f.type("input[name=other_count]", "20")


KINDS = [
    ("plain", plain, 4),
    ("all passed", all_passed, 2),
    ("bella", with_bella, 7),
    ("a twenty", with_a_twenty, 6),
    ("a fifty and bella", with_a_fifty_and_bella, 8),
    ("misplay", misplay, 6),
    ("thrown in", thrown_in, 9),
]


def test_each_kind_of_hand_on_one_phone_screen(page, sign_in, keeper):
    game = long_named_game(keeper)
    sign_in(keeper)
    page.goto(f"/games/{game.pk}/pad/")
    expect(page.locator("#hand-form")).to_be_visible()
    assert page.viewport_size == PHONE
    figures = []
    for number, (kind, enter, most_taps) in enumerate(KINDS, start=1):
        page.evaluate("() => window.scrollTo(0, 0)")
        expect(page.locator("#hand-title")).to_have_text(f"Hand {number}")
        save = page.locator("#save-hand").bounding_box()
        fingers = Fingers(page)
        enter(fingers)
        # the score stays in view as the hand is entered, however far the page moved
        top, bottom = page.locator(".scoreboard").evaluate(
            "el => [el.getBoundingClientRect().top, el.getBoundingClientRect().bottom]"
        )
        assert top >= 0, kind
        assert bottom <= PHONE["height"], kind
        fingers.tap("#save-hand")
        expect(page.locator(f"#hand-{number}")).to_be_attached(timeout=15_000)
        expect(page.locator("#hand-title")).to_have_text(f"Hand {number + 1}")
        # ready for the next hand: empty, the folds closed
        assert page.locator("#runs-fold").evaluate("el => el.open") is False
        assert page.input_value("input[name=count]") == ""
        figures.append((kind, fingers.taps, fingers.digits, fingers.scrolled, save))
        assert fingers.taps <= most_taps, (kind, fingers.taps)
    print("\nscore-pad at 390x844, per hand kind: taps, digits, scrolled (px)")  # noqa: T201
    for kind, taps, digits, scrolled, _save in figures:
        print(f"  {kind:<18} {taps:>2} taps + {digits} digits, scrolled {scrolled} px")  # noqa: T201
    plain_figures = figures[0]
    # a plain hand: at most 4 taps plus its digits, on one screen with no scrolling
    assert plain_figures[1] <= 4
    assert plain_figures[3] == 0
    assert plain_figures[4]["y"] + plain_figures[4]["height"] <= PHONE["height"]
    assert figures[1][3] == 0  # all passed too
    stored = list(Hand.objects.filter(game=game).order_by("number"))
    assert len(stored) == len(KINDS)
    assert stored[1].caller is None
    assert stored[2].bella_seat == 0
    assert stored[4].bella_seat == 2


def test_the_sheet_is_one_tap_away_below_the_form(page, sign_in, keeper):
    game = long_named_game(keeper)
    sign_in(keeper)
    page.goto(f"/games/{game.pk}/pad/")
    form = page.locator("#hand-form").bounding_box()
    sheet = page.locator("#sheet-table").bounding_box()
    assert sheet["y"] > form["y"]
    page.click("#to-sheet")
    page.wait_for_function("() => window.scrollY > 0")
    top = page.locator("#sheet-table").evaluate("el => el.getBoundingClientRect().top")
    assert 0 <= top < PHONE["height"]
