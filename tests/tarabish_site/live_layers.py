"""A channel layer for the live-update tests: it records the event loop and thread each
message was sent from, and waits ``delay`` seconds first."""

import asyncio
import threading
from typing import Any, ClassVar

from channels.layers import BaseChannelLayer


class RecordingLayer(BaseChannelLayer):
    sent: ClassVar[list[tuple[asyncio.AbstractEventLoop, threading.Thread, str]]] = []
    delay: ClassVar[float] = 0.0

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await asyncio.sleep(self.delay)
        self.sent.append((asyncio.get_running_loop(), threading.current_thread(), group))
