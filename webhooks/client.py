"""Posting one delivery: the standard library's HTTP client, connected to the very address the
guard allowed (no second look-up), short timeouts, and no redirect followed (an answer of 3xx
is a failure like any other that is not 2xx).

Over HTTPS the receiver's certificate is always verified, against the URL's host name and the
system's certificate authorities, and those of an extra bundle when one is given
(``WEBHOOK_CA_BUNDLE``: a receiver with a certificate of a private authority). A certificate
that does not verify fails the attempt like a refused connection; nothing is ever sent
without it."""

from __future__ import annotations

import functools
import http.client
import socket
import ssl
import time
from dataclasses import dataclass

from webhooks.guard import AddressRefused, resolve

#: How much of an answer's body the delivery log keeps.
BODY_KEPT = 500


@dataclass(frozen=True, slots=True)
class Answer:
    """What an attempt got: the status (None when no answer came), the start of the body,
    how long it took and, on failure, why."""

    status: int | None
    body: str
    duration_ms: int
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


class _Pinned(http.client.HTTPConnection):
    """Plain HTTP to a given address, the URL's host in the ``Host`` header."""

    def __init__(self, host: str, port: int, address: str, connect: float, read: float) -> None:
        super().__init__(host, port, timeout=read)
        self._pinned = address
        self._connect_timeout = connect
        self._read_timeout = read

    def _open(self) -> socket.socket:
        sock = socket.create_connection((self._pinned, self.port), self._connect_timeout)
        sock.settimeout(self._read_timeout)
        return sock

    def connect(self) -> None:
        self.sock = self._open()


@functools.lru_cache(maxsize=4)
def tls_context(ca_bundle: str = "") -> ssl.SSLContext:
    """The TLS settings of every HTTPS delivery: Python's defaults (certificate and host name
    verified, TLS 1.2 or later), trusting the system's authorities and those in ``ca_bundle``
    (a PEM file), if given. Made once for each bundle: loading the system's authorities is
    dearer than a delivery. A bundle that cannot be read raises ``OSError``."""
    context = ssl.create_default_context()
    if ca_bundle:
        context.load_verify_locations(cafile=ca_bundle)
    return context


class _PinnedTLS(_Pinned):
    """HTTPS to a given address, the certificate checked against the URL's host."""

    def __init__(
        self, host: str, port: int, address: str, connect: float, read: float, *, ca_bundle: str
    ) -> None:
        super().__init__(host, port, address, connect, read)
        self._ca_bundle = ca_bundle

    def connect(self) -> None:
        tls = tls_context(self._ca_bundle)
        self.sock = tls.wrap_socket(self._open(), server_hostname=self.host)


def post(
    url: str,
    body: bytes,
    headers: dict[str, str],
    *,
    connect_timeout: float,
    read_timeout: float,
    ca_bundle: str = "",
) -> Answer:
    """POST ``body`` to ``url``; never raises for what the network or the receiver does (nor
    for a ``ca_bundle`` that cannot be read: the attempt fails, saying why)."""
    started = time.monotonic()

    def took() -> int:
        return round((time.monotonic() - started) * 1000)

    try:
        parts, addresses = resolve(url)
    except AddressRefused as exc:
        return Answer(None, "", took(), f"refused: {exc}")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    address, port = addresses[0]
    host = parts.hostname or ""
    connection = (
        _PinnedTLS(host, port, str(address), connect_timeout, read_timeout, ca_bundle=ca_bundle)
        if parts.scheme == "https"
        else _Pinned(host, port, str(address), connect_timeout, read_timeout)
    )
    try:
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read(BODY_KEPT).decode("utf-8", "replace")
        return Answer(response.status, text, took())
    except (OSError, http.client.HTTPException) as exc:
        return Answer(None, "", took(), f"{type(exc).__name__}: {exc}"[:300])
    finally:
        connection.close()
