"""A real HTTP receiver for webhook tests: ``http.server`` on an ephemeral port of 127.0.0.1,
run in a thread, keeping every request it got and answering with the statuses it is told."""

from __future__ import annotations

import json
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
    statuses: list[int] = field(default_factory=lambda: [200])
    requests: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hooks/tarabish?club=legion"

    def answer(self) -> int:
        with self.lock:
            return self.statuses.pop(0) if len(self.statuses) > 1 else self.statuses[0]

    def of(self, event: str) -> list[Received]:
        return [r for r in self.requests if r.headers.get("Tarabish-Event") == event]


@contextmanager
def running_receiver(*statuses: int) -> Iterator[Receiver]:
    receiver = Receiver(statuses=list(statuses or [200]))

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
    receiver.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
