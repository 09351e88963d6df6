"""Fixtures for the page tests: a browser (Debian's Chromium through Playwright) and a signed-in
browser context against pytest-django's live server.

Playwright's sync API runs an event loop in this thread; the Django ORM calls the tests make
beside it are ordinary synchronous calls, which Django would refuse while a loop runs.
"""

import asyncio
import os
import threading
import time
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
        # The session is written on the connection the live server's requests share (SQLite):
        # not while the page's last request is still being served.
        with OneRequestAtATime.busy:
            client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        browser_context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": live_server.url}]
        )

    return sign_in_as


class AsgiLiveServer:
    """daphne serving the ASGI application in a thread (see :func:`asgi_live_server`)."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.url = f"http://localhost:{server.listening_addresses[0][1]}"

    def wait_idle(self, timeout: float = 10) -> None:
        """Return once every connection closed is done with (its consumer's last write made),
        so nothing writes while the test's database is emptied."""
        deadline = time.monotonic() + timeout
        while self.server.connections and time.monotonic() < deadline:
            time.sleep(0.05)


@pytest.fixture(scope="session")
def asgi_live_server(
    _live_server_on_sqlite: None, django_db_setup: None, django_db_blocker: Any
) -> Iterator[AsgiLiveServer]:
    """The whole ASGI application (HTTP and WebSockets, as ``make run`` serves them) under
    daphne in a thread of this process, so its database is the test's: pages and sockets on
    one address, answered ``http://localhost:<port>``. Twisted's reactor runs once a process,
    so the server is the session's; each test's data is its own as with ``live_server``."""
    from daphne.endpoints import build_endpoint_description_strings
    from daphne.server import Server
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from twisted.internet import reactor

    from tarabish_site.asgi import application
    from tests.websockets import close_server_connections

    server = Server(
        application=ASGIStaticFilesHandler(application),  # type: ignore[arg-type]
        endpoints=build_endpoint_description_strings(host="127.0.0.1", port=0),
        signal_handlers=False,
        verbosity=0,
    )
    thread = threading.Thread(target=server.run, name="daphne", daemon=True)
    thread.start()
    for _ in range(200):
        if server.listening_addresses:
            break
        thread.join(0.05)
    assert server.listening_addresses, "daphne did not listen"
    yield AsgiLiveServer(server)
    reactor.callFromThread(server.stop)
    thread.join(10)
    # Before the test database is dropped (this fixture is set up after it, so torn down
    # first), the threads where the server's synchronous code ran close their connections.
    with django_db_blocker.unblock():
        asyncio.run(close_server_connections())


@pytest.fixture
def asgi_page(
    browser: Any, asgi_live_server: AsgiLiveServer, transactional_db: None
) -> Iterator[Any]:
    """A page of a fresh browser context against :func:`asgi_live_server`."""
    context = browser.new_context(base_url=asgi_live_server.url, viewport=PHONE)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    asgi_live_server.wait_idle()
    assert not errors, f"JavaScript errors on the page: {errors}"
