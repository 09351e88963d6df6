"""One person and three computer players play a whole game online in the browser: sign up in
the lobby, open a table, pass, tap a dimmed card, reload mid-hand, play to the end, and find
the game in the player's history and on its public page.

The live server here speaks HTTP only (no WebSocket), so the page plays through its
fallback: polling the table's state and posting moves."""

from __future__ import annotations

import re
from typing import Any

import pytest

from play.models import Table
from scoring.models import Game, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _phase(page: Any) -> str:
    return str(page.locator("#play").get_attribute("data-phase") or "")


def test_one_person_and_three_computers_play_a_whole_game(page: Any, settings: Any) -> None:
    settings.PLAY_COMPUTER_DELAY = (0.0, 0.0)
    page.goto("/play/")
    page.fill("#id_signup-username", "marie")
    page.fill("#id_signup-password", "a long table password 42")
    page.fill("#id_signup-display_name", "Marie Aucoin")
    page.click("text=Sign up and play")
    page.fill("#id_table-name", "Kitchen")
    page.click("text=Open the table")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    table = Table.objects.get(name="Kitchen")
    Table.objects.filter(pk=table.pk).update(ruleset={**table.ruleset, "target": 1000})

    page.wait_for_selector("#play[data-phase='seating']")
    page.click("text=Flip for jacks and start")
    passed = dimmed_tapped = reloaded = False
    for _ in range(3000):
        phase = _phase(page)
        if phase == "game_over":
            break
        buttons = page.locator("#controls button")
        names = [b.strip() for b in buttons.all_inner_texts()]
        if phase == "playing" and not reloaded and page.locator("#hand .card").count() >= 5:
            cards = page.locator("#hand .card").count()
            page.reload()
            page.wait_for_selector("#play[data-phase='playing']")
            page.wait_for_function(f"document.querySelectorAll('#hand .card').length === {cards}")
            reloaded = True
            continue
        if "Cut here" in names:
            page.click("#controls >> text=Cut here")
        elif "Next hand" in names:
            page.click("#controls >> text=Next hand")
        elif "Pass" in names and not passed:
            page.click("#controls >> text=Pass")
            passed = True
        elif any(n.startswith(("Announce", "Show", "Bella")) for n in names):
            first = next(n for n in names if n.startswith(("Announce", "Show", "Bella")))
            page.click(f"#controls >> text={first}")
        elif "Go on" in names:
            page.click("#controls >> text=Go on")
        elif any(n.startswith(("♣", "♦", "♥", "♠")) for n in names):
            page.locator("#controls button", has_text=re.compile("^[♣♦♥♠]")).first.click()
        elif "Pass" in names:
            page.click("#controls >> text=Pass")
        elif page.locator("#hand .card.legal").count():
            dimmed = page.locator("#hand .card.dimmed")
            if not dimmed_tapped and dimmed.count():
                dimmed.first.click()
                page.wait_for_function("document.getElementById('why').textContent.length > 0")
                assert "must" in page.inner_text("#why")
                dimmed_tapped = True
            page.locator("#hand .card.legal").first.click()
        else:
            page.wait_for_timeout(150)
            continue
        page.wait_for_timeout(120)
    assert _phase(page) == "game_over"
    assert passed
    assert reloaded
    assert dimmed_tapped
    assert "Game over" in page.inner_text("#message")

    game = Game.objects.get(online_tables__name="Kitchen")
    assert game.status == Game.Status.FINISHED
    page.click("text=Score sheet")
    page.click("#sheet >> text=The game's page")
    page.wait_for_url(f"**/games/{game.pk}/")
    assert "Marie Aucoin" in page.inner_text("main")
    marie = Player.objects.get(display_name="Marie Aucoin")
    page.goto(f"/players/{marie.pk}/")
    assert page.locator(f"a[href$='/games/{game.pk}/']").count() >= 1
    page.click("text=Play online")
    assert "Kitchen" in page.inner_text("main")
