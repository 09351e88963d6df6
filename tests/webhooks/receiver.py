"""A real HTTP receiver for webhook tests: ``http.server`` on an ephemeral port of 127.0.0.1,
run in a thread, keeping every request it got and answering with the statuses it is told;
over HTTPS when given a TLS context (its certificate from ``tests/webhooks/certificates.py``)."""

from __future__ import annotations

import json
import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def payload(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    """``statuses``: the answers to give, in order (the last repeats); ``requests``: what came."""

    port: int = 0
    scheme: str = "http"
    statuses: list[int] = field(default_factory=lambda: [200])
    requests: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}/hooks/tarabish?club=legion"

    def answer(self) -> int:
        with self.lock:
            return self.statuses.pop(0) if len(self.statuses) > 1 else self.statuses[0]

    def of(self, event: str) -> list[Received]:
        return [r for r in self.requests if r.headers.get("Tarabish-Event") == event]


@contextmanager
def running_receiver(*statuses: int, tls: ssl.SSLContext | None = None) -> Iterator[Receiver]:
    """A receiver answering ``statuses``; with ``tls`` (a server context), over HTTPS."""
    receiver = Receiver(statuses=list(statuses or [200]), scheme="http" if tls is None else "https")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            with receiver.lock:
                receiver.requests.append(Received(self.path, dict(self.headers.items()), body))
            status = receiver.answer()
            reply = f"status {status}".encode()
            self.send_response(status)
            if 300 <= status < 400:
                self.send_header("Location", "http://127.0.0.1:9/elsewhere")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if tls is not None:
        # Each connection's handshake is made as it is accepted: a client that refuses the
        # certificate ends it there, and no request reaches the handler.
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    receiver.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
