# mypy: disable-error-code="no-untyped-call,no-untyped-def,attr-defined,arg-type,misc"
"""Three teams of one name in a tournament, seen in a browser on a phone and on a desktop: the
tournament's page, its standings, its bracket and the big screen show each by its told-apart
name (by community where that tells it apart, else by a number), whole and readable."""

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.scoring.factories import PlayerFactory, TeamFactory
from tests.tournaments.factories import EntryFactory, TournamentFactory, add_stage
from tests.tournaments.helpers import win_match
from tournaments.models import Match, Tournament
from tournaments.services import checkin_process, stage_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAME = "Alphonse Poirier & Marie MacLellan"
LABELS = [f"{SAME} (1)", f"{SAME} (Isle Madame)", f"{SAME} (3)"]
WIDTHS = [(390, 844), (1280, 900)]


def namesakes(kind: str) -> Any:
    """A tournament whose stage ``kind`` has started: one team of its own name, then three
    called the same (from Chéticamp, Isle Madame and Chéticamp, registered in that order)."""
    tournament = TournamentFactory(status=Tournament.Status.CHECK_IN, name=f"Fall {kind}")
    EntryFactory(tournament=tournament, team=TeamFactory(name="Les Fifties"), checked_in=True)
    for community in ("Chéticamp", "Isle Madame", "Chéticamp"):
        one, two = PlayerFactory(community=community), PlayerFactory(community=community)
        team = TeamFactory(player_one=one, player_two=two, name=SAME)
        EntryFactory(tournament=tournament, team=team, checked_in=True)
    checkin_process(tournament_id=tournament.pk, actor=tournament.organiser)
    stage = add_stage(tournament, kind)
    stage_start(stage_id=stage.pk, actor=tournament.organiser)
    # one result, so that the standings and the bracket have something to move
    match = Match.objects.filter(stage=stage, state=Match.State.READY).order_by("pk").first()
    win_match(match, "home")
    return tournament


# Every element whose text is exactly one of the labels, with what a reader would miss of it:
# text cut by its box (an ellipsis or an overflow that hides) or drawn too small to read.
CUT_OFF = """(labels) => {
  const found = [];
  for (const el of document.querySelectorAll("main a, main td, main li, main text, main span")) {
    const text = el.textContent.trim();
    if (!labels.includes(text) || el.children.length > 1) continue;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    let cut = false;
    let size = parseFloat(style.fontSize);
    if (el instanceof SVGTextElement) {
      const svg = el.ownerSVGElement;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const rects = [...el.parentElement.querySelectorAll("rect.slot")];
      const top = el.y.baseVal[0].value - 16;
      const slot = rects.find((r) => Math.abs(r.y.baseVal.value - top) < 1).getBBox();
      const drawn = el.getBBox();  // every line of it, in the box's own units
      cut = drawn.x + drawn.width > slot.x + slot.width - 30  // the score's room
        || drawn.y + drawn.height > slot.y + slot.height + 1;
      size = size * scale;
    } else {
      cut = el.scrollWidth > el.clientWidth + 1 && style.overflow !== "visible";
      cut = cut || style.textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth + 1;
    }
    found.push({text, cut, size, width: box.width});
  }
  return found;
}"""


def assert_told_apart(page, where: str, minimum: float = 11) -> None:
    found = page.evaluate(CUT_OFF.replace("main ", f"{where} "), LABELS)
    assert {f["text"] for f in found} == set(LABELS), (where, found)
    for label in found:
        assert not label["cut"], (where, label)
        assert label["size"] >= minimum, (where, label)
    assert "…" not in page.locator(where).first.text_content()


@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_namesakes_are_told_apart_on_every_page_at_both_widths(page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    pools = namesakes("round_robin")
    knockout = namesakes("single_elim")
    # the tournament's page: its entries and its standings
    page.goto(f"/tournaments/{pools.slug}/")
    expect(page.locator("ol.entries")).to_contain_text(LABELS[1])
    assert_told_apart(page, "ol.entries")
    assert_told_apart(page, "table.standings")
    # the bracket, drawn with boxes wide enough for the longest of the names
    page.goto(f"/tournaments/{knockout.slug}/")
    expect(page.locator("svg.bracket")).to_be_visible()
    assert_told_apart(page, "svg.bracket")
    # the big screen: standings beside the matches, and the bracket
    page.goto(f"/tournaments/{pools.slug}/screen/")
    assert_told_apart(page, "table.standings", minimum=16)
    page.goto(f"/tournaments/{knockout.slug}/screen/")
    assert_told_apart(page, "svg.bracket")
    # nothing wider than the screen but the boxes that scroll
    assert page.evaluate("document.documentElement.scrollWidth") <= width
