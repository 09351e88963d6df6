"""One person and three computer players play a whole game online in the browser: sign up in
the lobby, open a table, pass, call, announce and show a run, call bella, tap a dimmed card,
drag a card to another place, reload mid-hand, play to the end, and find the game in the
player's history and on its public page.

The game is played twice: over the table's WebSocket, against the ASGI application under
daphne (``asgi_live_server``), and over the page's fallback, against the live server of
plain HTTP, which has no WebSocket (the page polls the table's state and posts moves)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from play.models import HandAction, Table
from scoring.engine import Deal, deal, parse_cards
from scoring.models import Game, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Dealt to the person every hand: hearts called, a run (7 8 9) and bella (king and queen).
PERSON = parse_cards("7H 8H 9H KH QH JH")


def _rigged(real: Callable[..., Deal]) -> Callable[..., Deal]:
    """``deal`` as the engine deals, then the person's six seen cards swapped for ``PERSON``
    (each taken from whoever was dealt it, who gets the person's card in its place)."""

    def rigged(deck: Any, dealer: int) -> Deal:
        hands = [list(h) for h in real(deck, dealer).hands]
        for slot, card in enumerate(PERSON):
            holder = next(s for s, h in enumerate(hands) if card in h)
            at = hands[holder].index(card)
            hands[holder][at], hands[0][slot] = hands[0][slot], card
        return Deal(tuple(tuple(h) for h in hands))

    return rigged


@dataclass
class Played:
    """What the person did in the game."""

    passed: bool = False
    called: bool = False
    declared: list[str] = field(default_factory=list)
    dimmed_tapped: bool = False
    dragged: bool = False
    reloaded: bool = False


def _tap(element: Any) -> bool:
    """Click ``element`` if it is still there (the table moves on by itself, drawing again:
    a button or card read a moment ago may be gone)."""
    try:
        element.click(timeout=1500)
    except PlaywrightTimeout:
        return False
    return True


def _click(page: Any, text: str) -> bool:
    """Click the control named ``text`` if it is still there."""
    return _tap(page.locator("#controls button", has_text=text).first)


def _phase(page: Any) -> str:
    return str(page.locator("#play").get_attribute("data-phase") or "")


def _cards(page: Any) -> list[str]:
    found = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
    return [str(c) for c in found]


def _drag_and_reload(page: Any, played: Played) -> None:
    """Drag the first card onto the third: it moves there, and stays there after a reload.

    The hand can be drawn again between reading it and dropping the card (the computers
    move at once, and cards are picked up after the call): the card then lands where the
    new drawing put the third card, and the drag is made again on the hand as it is."""
    for attempt in range(3):
        before = _cards(page)
        page.locator("#hand .card").nth(0).drag_to(page.locator("#hand .card").nth(2))
        after = [*before[1:3], before[0], *before[3:]]
        try:
            page.wait_for_function(
                "order => [...document.querySelectorAll('#hand .card')]"
                ".map(e => e.dataset.card).join(' ') === order",
                arg=" ".join(after),
                timeout=4000,
            )
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    played.dragged = True
    page.reload()
    page.wait_for_selector("#play[data-phase='playing']")
    page.wait_for_selector("#hand .card")
    shown = _cards(page)
    # The player's order survives the reload. The computers move at once, so the hand may
    # have changed since the drag (a card gone, cards picked up): what is left of the order
    # comes first, as it was, and anything new after it.
    kept = [card for card in after if card in shown]
    assert len(kept) >= len(after) - 1, (after, shown)
    assert shown[: len(kept)] == kept, (after, shown)
    played.reloaded = True


def _play_game(page: Any) -> Played:
    """Sign up, open a table with three computer players and play the game to its end."""
    page.goto("/play/")
    page.fill("#id_signup-username", "marie")
    page.fill("#id_signup-password", "a long table password 42")
    page.fill("#id_signup-display_name", "Marie Aucoin")
    page.click("text=Sign up and play", timeout=30_000)  # a password hashed on a busy machine
    page.fill("#id_table-name", "Kitchen")
    page.click("text=Open the table", timeout=30_000)
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    page.wait_for_selector("#play[data-phase='seating']")
    page.click("text=Flip for jacks and start")
    played = Played()
    for _ in range(3000):
        phase = _phase(page)
        if phase == "game_over":
            break
        names = [b.strip() for b in page.locator("#controls button").all_inner_texts()]
        if phase == "playing" and not played.reloaded and len(_cards(page)) >= 5:
            _drag_and_reload(page, played)
            continue
        declare = next((n for n in names if n.startswith(("Announce", "Show", "Bella"))), None)
        if "Cut here" in names:
            _click(page, "Cut here")
        elif "Next hand" in names:
            _click(page, "Next hand")
        elif "Pass" in names and not played.passed:
            played.passed = _click(page, "Pass")
        elif declare is not None:
            if _click(page, declare):
                played.declared.append(declare.split()[0])
        elif "Go on" in names:
            _click(page, "Go on")
        elif "♥ hearts" in names:
            played.called = _click(page, "♥ hearts") or played.called
        elif any(n.startswith(("♣", "♦", "♠")) for n in names):
            _click(page, next(n for n in names if n.startswith(("♣", "♦", "♠"))))
        elif "Pass" in names:
            _click(page, "Pass")
        elif page.locator("#hand .card.legal").count():
            dimmed = page.locator("#hand .card.dimmed")
            if not played.dimmed_tapped and dimmed.count() and _tap(dimmed.first):
                page.wait_for_function(
                    "() => document.getElementById('why').textContent.length > 0"
                )
                assert "must" in page.inner_text("#why")
                played.dimmed_tapped = True
            _tap(page.locator("#hand .card.legal").first)
        else:
            page.wait_for_timeout(100)
            continue
        page.wait_for_timeout(100)
    assert _phase(page) == "game_over"
    assert "Game over" in page.inner_text("#message")
    return played


def _check_game(page: Any, played: Played) -> None:
    assert played.passed
    assert played.called
    assert played.dimmed_tapped
    assert played.dragged
    assert played.reloaded
    assert {"Announce", "Show", "Bella"} <= set(played.declared)
    game = Game.objects.get(online_tables__name="Kitchen")
    assert game.status == Game.Status.FINISHED
    logged = set(
        HandAction.objects.filter(online_hand__game=game, seat=0).values_list(
            "action__type", flat=True
        )
    )
    assert {"pass", "call", "announce_run", "show_run", "bella", "play"} <= logged
    page.click("text=Score sheet")
    page.click("#sheet >> text=The game's page")
    page.wait_for_url(f"**/games/{game.pk}/")
    assert "Marie Aucoin" in page.inner_text("main")
    marie = Player.objects.get(display_name="Marie Aucoin")
    page.goto(f"/players/{marie.pk}/")
    assert page.locator(f"a[href$='/games/{game.pk}/']").count() >= 1
    page.click("text=Play online")
    assert "Kitchen" in page.inner_text("main")


def _computers_at_once(settings: Any, monkeypatch: Any) -> None:
    settings.PLAY_COMPUTER_DELAY = (0.0, 0.0)
    settings.PLAY_POLL_SECONDS = 0.15  # a page that polls looks again this often
    monkeypatch.setattr("play.services.deal", _rigged(deal))
    # The same game every run (the first dealer, every deck): the computers play by rule, so
    # with random decks a game now and then gave the person no second turn to bid after the
    # pass it makes at its first, and no call.
    seeded = random.Random(2026)
    monkeypatch.setattr("play.services.random", SimpleNamespace(SystemRandom=lambda: seeded))


def test_a_whole_game_over_the_websocket(asgi_page: Any, settings: Any, monkeypatch: Any) -> None:
    _computers_at_once(settings, monkeypatch)
    page = asgi_page
    frames: list[str] = []
    fallback: list[str] = []
    page.on(
        "websocket",
        lambda ws: (
            ws.on("framesent", lambda payload: frames.append(str(payload)))
            if "/ws/play/" in ws.url
            else None
        ),
    )
    page.on(
        "request",
        lambda r: fallback.append(r.url) if re.search(r"/play/\d+/(state|move)/", r.url) else None,
    )
    played = _play_game(page)
    _check_game(page, played)
    assert not fallback, f"the page polled instead of using its socket: {fallback[:3]}"
    moves = [f for f in frames if '"type"' in f]
    assert len(moves) >= 9
    assert any('"bella"' in f for f in moves)


def test_a_whole_game_by_polling(page: Any, settings: Any, monkeypatch: Any) -> None:
    _computers_at_once(settings, monkeypatch)
    posted: list[str] = []
    page.on("request", lambda r: posted.append(r.url) if r.url.endswith("/move/") else None)
    played = _play_game(page)
    _check_game(page, played)
    assert len(posted) >= 9
    page.goto(f"/play/{Table.objects.get(name='Kitchen').pk}/")
    assert page.locator("#play").get_attribute("data-poll") == "150"
    assert Table.objects.get(name="Kitchen").phase == Table.Phase.GAME_OVER
