"""A channel layer for the live-update tests: it records each message's group, the event loop
and thread it was sent from and the layer instance that sent it, and waits ``delay`` seconds
first (``block`` seconds more without yielding, as a layer stuck in a call that cannot be
cancelled)."""

import asyncio
import threading
import time
from typing import Any, ClassVar, NamedTuple

from channels.layers import BaseChannelLayer


class Sent(NamedTuple):
    loop: asyncio.AbstractEventLoop
    thread: threading.Thread
    layer: BaseChannelLayer
    group: str


class RecordingLayer(BaseChannelLayer):
    sent: ClassVar[list[Sent]] = []
    delay: ClassVar[float] = 0.0
    block: ClassVar[float] = 0.0

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await asyncio.sleep(self.delay)
        time.sleep(self.block)
        self.sent.append(Sent(asyncio.get_running_loop(), threading.current_thread(), self, group))
