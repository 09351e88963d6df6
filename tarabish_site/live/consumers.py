"""The one consumer every live page uses: watch a topic's key, receive "changed" messages."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from tarabish_site import live

# Close codes in the application range (4000-4999), as a page's HTTP answer would be.
NOT_FOUND = 4404


class WatchConsumer(AsyncJsonWebsocketConsumer):
    """``/ws/watch/<topic>/<key>/``: accepted when the topic is registered and the session's
    user may watch the key, then sends ``{"event": "watching", ...}`` once and
    ``{"event": "changed", ...}`` for every :func:`live.publish` to it. Refused (closed with
    4404 before accepting) otherwise. It takes no messages from the client."""

    group: str | None = None

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        name, key = kwargs["topic"], kwargs["key"]
        found = live.topic(name)
        user = self.scope.get("user")
        if found is None or user is None:
            await self.close(code=NOT_FOUND)
            return
        allowed = await database_sync_to_async(found.can_watch)(user, key)
        if not allowed:
            await self.close(code=NOT_FOUND)
            return
        self.group = live.group_name(name, key)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"event": "watching", "topic": name, "key": key})

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Watching is one way: anything a client sends is ignored."""

    async def live_changed(self, message: dict[str, Any]) -> None:
        await self.send_json(
            {
                "event": "changed",
                "topic": message["topic"],
                "key": message["key"],
                **message["details"],
            }
        )
