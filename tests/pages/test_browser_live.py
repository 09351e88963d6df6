# mypy: disable-error-code="no-untyped-call,attr-defined,arg-type,misc,union-attr"
"""Pages update themselves by push: a hand saved on the score-pad appears on another
browser's score-sheet without a reload.

The test server answers HTTP only, so the spectator's WebSocket is answered by the test: it
relays, as the watch consumer does, what the service published on the channel layer when the
hand was stored (the consumer itself: tests/tarabish_site/test_live_pages.py)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from channels.layers import get_channel_layer
from playwright.sync_api import expect

from tarabish_site import live
from tests.pages.conftest import PHONE
from tests.pages.test_browser_scorepad import fill_hand
from tests.scoring.factories import GameFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def on_loop() -> Iterator[Callable[..., Any]]:
    """Run a coroutine function of the channel layer to its end on one event loop of its own,
    in a thread (Playwright's event loop runs here): Redis' pubsub layer serves a channel only
    to the loop that made it, so the relay's channel is made, joined and read on that one."""
    loop = asyncio.new_event_loop()

    def serve() -> None:
        loop.run_forever()
        loop.close()  # closes what the pubsub layer opened for it, in this thread of its own

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()

    def run(function: Callable[..., Any], *args: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(function(*args), loop).result(10)

    try:
        yield run
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)


def test_a_hand_saved_on_the_pad_appears_on_another_browsers_sheet(
    page, sign_in, browser, live_server, on_loop
):
    keeper = UserFactory()
    game = GameFactory(scorekeepers=[keeper], first_dealer=0, public=True)
    layer = get_channel_layer()
    relay = on_loop(layer.new_channel)
    on_loop(layer.group_add, live.group_name(live.GAME, game.pk), relay)

    spectator_context = browser.new_context(base_url=live_server.url, viewport=PHONE)
    spectator = spectator_context.new_page()
    sockets: list[Any] = []

    def answer(ws: Any) -> None:
        sockets.append(ws)
        ws.send(json.dumps({"event": "watching", "topic": "game", "key": str(game.pk)}))

    spectator.route_web_socket("**/ws/watch/**", answer)
    spectator.goto(f"/games/{game.pk}/")
    expect(spectator.locator("#game-live")).to_contain_text("No hands yet.")
    assert [ws.url.split("/ws/watch/", 1)[1] for ws in sockets] == [f"game/{game.pk}/"]
    spectator.evaluate("() => { window.drawnOnce = true; }")  # gone if the page reloads

    sign_in(keeper)
    page.goto(f"/games/{game.pk}/pad/")
    fill_hand(page, caller=0, trump="H", team="team_a", count=100)
    page.click("#save-hand")
    expect(page.locator("#hand-1")).to_be_attached()

    message = on_loop(layer.receive, relay)
    assert message["type"] == "live.changed"
    heard = time.monotonic()
    sockets[0].send(json.dumps({"event": "changed", "topic": "game", "key": str(game.pk)}))
    expect(spectator.locator("#game-live #hand-1")).to_be_visible(timeout=2_000)
    took = time.monotonic() - heard
    print(f"\nthe other browser showed the hand {took:.2f} s after it was announced")  # noqa: T201
    assert took < 1.0
    assert spectator.evaluate("() => window.drawnOnce") is True  # no reload
    spectator_context.close()
