"""Helpers for consumer tests: the whole ASGI application (origin check, session, routes)
driven by Channels' WebsocketCommunicator.

The origin check reads ALLOWED_HOSTS when the application is built (before the test run adds
``testserver``), so sockets come from ``http://localhost``, as from ``make run``."""

from __future__ import annotations

import asyncio
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections
from django.test import Client

from play.consumers import db_threads_stop
from tarabish_site.asgi import application


def session_cookie(user: Any) -> bytes:
    """A signed-in session for ``user``, as the browser's Cookie header would carry it."""
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


async def connect(
    path: str, user: Any = None, origin: bytes | None = b"http://localhost"
) -> tuple[WebsocketCommunicator, bool, int | str | None]:
    """Open ``path`` as ``user`` (None: nobody signed in) from ``origin``; answers the
    communicator, whether the socket was accepted and the close code (or subprotocol)."""
    headers = []
    if origin is not None:
        headers.append((b"origin", origin))
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await communicator.connect(timeout=5)
    return communicator, connected, code


async def close_server_connections() -> None:
    """Close the database connections of the threads where the application's synchronous code
    ran: the one thread thread-sensitive code shares (the consumers' checks, the session's
    look-up), then the online tables' database threads. So the next test starts clean and the
    test database can be dropped at the end."""
    await database_sync_to_async(connections.close_all)()
    await asyncio.to_thread(db_threads_stop)
