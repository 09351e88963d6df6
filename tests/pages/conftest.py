"""Fixtures for the page tests: a browser (Debian's Chromium through Playwright) and a signed-in
browser context against pytest-django's live server.

Playwright's sync API runs an event loop in this thread; the Django ORM calls the tests make
beside it are ordinary synchronous calls, which Django would refuse while a loop runs.
"""

import os
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings
from django.core.servers.basehttp import WSGIServer
from django.db import connection
from django.test import Client
from django.test.testcases import LiveServerThread

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}


class OneRequestAtATime(WSGIServer):
    """The live server's threads share the test's one in-memory SQLite connection, so a page
    read while a hand is being written would see the write half done (the game's new score,
    not yet its hand). Served one request at a time, as a connection of its own would see it.
    """

    busy = threading.Lock()

    def __init__(self, *args: Any, connections_override: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # the server thread already uses the override

    def process_request(self, request: Any, client_address: Any) -> None:
        with self.busy:
            super().process_request(request, client_address)

    @classmethod
    def wait_idle(cls) -> None:
        """Return once the request being served, if any, is answered: a request the browser
        sent just before its context closed must not be writing while the test's database is
        emptied (SQLite would answer "database table is locked")."""
        with cls.busy:
            pass


@pytest.fixture(scope="session", autouse=True)
def _live_server_on_sqlite() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        if connection.vendor == "sqlite":  # PostgreSQL: a connection per thread, as in service
            patch.setattr(LiveServerThread, "server_class", OneRequestAtATime)
        yield


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    """Chromium, for this package's tests only: Playwright's synchronous API keeps an event
    loop running in the main thread while it is open, where the consumer tests (coroutines)
    after this package need to start their own."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def browser_context(browser: Any, live_server: Any) -> Iterator[Any]:
    context = browser.new_context(base_url=live_server.url, viewport=PHONE)
    context.set_default_timeout(10_000)
    yield context
    context.close()
    OneRequestAtATime.wait_idle()


@pytest.fixture
def page(browser_context: Any) -> Iterator[Any]:
    page = browser_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def sign_in(browser_context: Any, live_server: Any) -> Callable[[Any], None]:
    """Give the browser the session of ``user`` (as if they had signed in)."""

    def sign_in_as(user: Any) -> None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        browser_context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": live_server.url}]
        )

    return sign_in_as
