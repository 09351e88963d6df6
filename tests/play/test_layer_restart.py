"""A table keeps playing when the channel layer's Redis restarts: the layer subscribes again to
its groups once Redis is back, and the next move reaches every seat.

The Redis here is a ``redis-server`` of the test's own (``tests.redis_server``), stopped and
started again by the test."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async

from play.models import OnlineHand
from play.services import cutter_of
from tests.play.test_consumers import _close, _everyone, _four_people, _send
from tests.redis_server import PrivateRedis, private_redis, pubsub_layers

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def layer_redis(settings: Any) -> Iterator[PrivateRedis]:
    settings.PLAY_COMPUTER_DELAY = (0.0, 0.0)
    with private_redis() as server:
        connection = settings.CHANNEL_LAYER_CONNECTION
        settings.CHANNEL_LAYERS = pubsub_layers(server.url, connection, "tarabish-restart")
        yield server


async def test_a_table_plays_on_after_its_redis_restarts(layer_redis: PrivateRedis) -> None:
    table, users, watcher = await database_sync_to_async(_four_people)()
    conns = await _everyone(table, users, watcher)
    await _send(conns[0], {"type": "start"}, conns)  # every seat hears it through Redis
    subscribed = await asyncio.to_thread(layer_redis.channels)
    assert subscribed  # the table's group and each connection's own channel

    await asyncio.to_thread(layer_redis.stop)
    await asyncio.to_thread(layer_redis.start)  # empty: it knows no subscriber
    deadline = time.monotonic() + 10
    while await asyncio.to_thread(layer_redis.channels) != subscribed:
        assert time.monotonic() < deadline, "the layer did not subscribe again"
        await asyncio.sleep(0.05)
    print(f"\nsubscribed again {10 - (deadline - time.monotonic()):.2f} s after the restart")  # noqa: T201

    hand = await database_sync_to_async(OnlineHand.objects.get)(table=table)
    await _send(conns[cutter_of(hand.dealer)], {"type": "cut", "at": 4}, conns)
    assert len({conn.state["version"] for conn in conns}) == 1  # every seat, and the watcher
    await _close(conns)
