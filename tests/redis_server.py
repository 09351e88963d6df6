"""A ``redis-server`` of a test's own, on a free loopback port, that the test may stop and start
again (tests that use it are skipped where ``redis-server`` is not installed)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis


class PrivateRedis:
    """A ``redis-server`` on a free loopback port, with nothing saved."""

    def __init__(self, directory: Path) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port: int = sock.getsockname()[1]
        self.directory = directory
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [shutil.which("redis-server") or "redis-server", "--port", str(self.port)]
        command += ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        command += ["--dir", str(self.directory)]
        self.process = subprocess.Popen(  # noqa: S603 - fixed command
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(self.url, socket_timeout=0.5).ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None

    def clients(self) -> int:
        """How many connections other than this question's are open."""
        return len(redis.Redis.from_url(self.url, socket_timeout=0.5).client_list()) - 1

    def channels(self) -> set[bytes | str]:
        """The pub/sub channels someone is subscribed to."""
        return set(redis.Redis.from_url(self.url, socket_timeout=0.5).pubsub_channels())


@contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    """A private Redis, started, stopped however the test ends."""
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server")
    with tempfile.TemporaryDirectory(prefix="tarabish-redis-") as directory:
        server = PrivateRedis(Path(directory))
        server.start()
        try:
            yield server
        finally:
            server.stop()


def pubsub_layers(url: str, connection: dict[str, object], prefix: str) -> dict[str, object]:
    """``CHANNEL_LAYERS`` for Redis' pubsub layer at ``url``, as the settings make it."""
    return {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": url, **connection}], "prefix": prefix},
        }
    }
