"""tarabish_site.live: watch a game, match or tournament; publish after commit."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db import connections, transaction
from django.test import override_settings

from tarabish_site import live
from tarabish_site.live.consumers import NOT_FOUND
from tests.redis_server import private_redis, pubsub_layers
from tests.scoring.factories import GameFactory, UserFactory
from tests.tarabish_site.live_layers import RecordingLayer
from tests.tournaments.factories import TournamentFactory
from tests.websockets import connect

pytestmark = [pytest.mark.django_db(transaction=True)]


async def test_a_watcher_hears_of_a_change_only_once_it_is_committed() -> None:
    game = await database_sync_to_async(GameFactory.create)(public=True)
    socket, accepted, _ = await connect(f"/ws/watch/game/{game.pk}/")
    assert accepted
    assert await socket.receive_json_from() == {
        "event": "watching",
        "topic": "game",
        "key": str(game.pk),
    }

    def store_a_hand() -> None:
        with transaction.atomic():
            live.publish(live.GAME, game.pk, hand=3)
            assert transaction.get_connection().run_on_commit  # waiting for the commit

    await database_sync_to_async(store_a_hand)()
    assert await socket.receive_json_from(timeout=2) == {
        "event": "changed",
        "topic": "game",
        "key": str(game.pk),
        "hand": 3,
    }
    await socket.disconnect()


async def test_a_rolled_back_change_is_never_announced() -> None:
    game = await database_sync_to_async(GameFactory.create)(public=True)
    socket, accepted, _ = await connect(f"/ws/watch/game/{game.pk}/")
    assert accepted
    await socket.receive_json_from()

    def fail_to_store() -> None:
        with transaction.atomic():
            live.publish(live.GAME, game.pk)
            transaction.set_rollback(True)

    await database_sync_to_async(fail_to_store)()
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


async def test_only_the_watchers_of_that_key_hear_it() -> None:
    one = await database_sync_to_async(TournamentFactory.create)(public=True, slug="one")
    await database_sync_to_async(TournamentFactory.create)(public=True, slug="two")
    first, ok_first, _ = await connect(f"/ws/watch/tournament/{one.slug}/")
    second, ok_second, _ = await connect("/ws/watch/tournament/two/")
    assert ok_first
    assert ok_second
    await first.receive_json_from()
    await second.receive_json_from()

    await database_sync_to_async(live.publish)(live.TOURNAMENT, "two", stage=4)
    assert (await second.receive_json_from())["stage"] == 4
    assert await first.receive_nothing(timeout=0.2)
    await first.disconnect()
    await second.disconnect()


async def test_a_private_game_is_watched_only_by_those_who_may_see_it() -> None:
    owner = await database_sync_to_async(UserFactory.create)()
    game = await database_sync_to_async(GameFactory.create)(public=False, created_by=owner)

    socket, accepted, code = await connect(f"/ws/watch/game/{game.pk}/")
    assert not accepted
    assert code == NOT_FOUND
    socket, accepted, _ = await connect(f"/ws/watch/game/{game.pk}/", user=owner)
    assert accepted
    await socket.disconnect()


async def test_a_private_tournaments_matches_are_not_watched_by_strangers() -> None:
    tournament = await database_sync_to_async(TournamentFactory.create)(public=False)
    _, accepted, code = await connect(f"/ws/watch/tournament/{tournament.slug}/")
    assert (accepted, code) == (False, NOT_FOUND)
    _, accepted, code = await connect("/ws/watch/match/999/")
    assert (accepted, code) == (False, NOT_FOUND)


@pytest.mark.parametrize("path", ["/ws/watch/nothing/1/", "/ws/watch/game/999999/"])
async def test_an_unknown_topic_or_key_is_refused_as_not_found(path: str) -> None:
    _, accepted, code = await connect(path)
    assert (accepted, code) == (False, NOT_FOUND)


@pytest.mark.parametrize("origin", [b"https://elsewhere.example", None])
async def test_a_socket_from_another_site_is_refused(origin: bytes | None) -> None:
    game = await database_sync_to_async(GameFactory.create)(public=True)
    _, accepted, _ = await connect(f"/ws/watch/game/{game.pk}/", origin=origin)
    assert not accepted


def test_group_names_refuse_what_a_group_cannot_hold() -> None:
    assert live.group_name(live.GAME, 12) == "live.game.12"
    with pytest.raises(ValueError, match="a key is"):
        live.group_name(live.TOURNAMENT, "two words")


@override_settings(
    CHANNEL_LAYERS=pubsub_layers("redis://127.0.0.1:1/0", settings.CHANNEL_LAYER_CONNECTION, "t")
)
def test_a_layer_that_cannot_be_reached_never_fails_the_write(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="tarabish_site.live"):
        live.publish(live.GAME, 1)  # outside a transaction: sent at once
    assert "live update to live.game.1 not sent" in caplog.text


@pytest.fixture
def silent_redis() -> Iterator[str]:
    """An address that takes connections and never answers, as a Redis that hangs does."""
    server = socket.create_server(("127.0.0.1", 0), backlog=16)
    try:
        yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    finally:
        server.close()


async def test_an_idle_watcher_outlasts_the_layers_read_timeout() -> None:
    # The subscribed connection waits for messages with its own short reads: a socket that
    # hears nothing for longer than the read timeout still hears the next change.
    assert settings.CHANNEL_LAYER_TIMEOUTS["socket_connect_timeout"] <= 2
    connection = {**settings.CHANNEL_LAYER_CONNECTION, "socket_timeout": 0.2}
    game = await database_sync_to_async(GameFactory.create)(public=True)
    with private_redis() as server:
        layers = pubsub_layers(server.url, connection, "idle")
        with override_settings(CHANNEL_LAYERS=layers):
            socket, accepted, _ = await connect(f"/ws/watch/game/{game.pk}/")
            assert accepted
            await socket.receive_json_from()
            assert await socket.receive_nothing(timeout=0.6)  # three read timeouts
            await asyncio.to_thread(live.publish_now, live.GAME, game.pk, hand=1)
            assert (await socket.receive_json_from(timeout=2))["hand"] == 1
            await socket.disconnect()
            layer = get_channel_layer()
            assert layer is not None
            await layer.flush()  # this loop's subscriptions and connection


def test_new_settings_close_the_old_layers_connections() -> None:
    with private_redis() as server:
        layers = pubsub_layers(server.url, settings.CHANNEL_LAYER_CONNECTION, "close")
        with override_settings(CHANNEL_LAYERS=layers):
            live.publish_now(live.GAME, 1)
            live.publish_now(live.GAME, 1)
        assert server.clients() == 1  # the sending loop's layer keeps its connection
        recording = {"default": {"BACKEND": "tests.tarabish_site.live_layers.RecordingLayer"}}
        with override_settings(CHANNEL_LAYERS=recording):
            live.publish_now(live.GAME, 2)
        RecordingLayer.sent.clear()
        deadline = time.monotonic() + 2
        while server.clients():
            assert time.monotonic() < deadline, "the old layer's connection is still open"
            time.sleep(0.02)


def test_a_layer_that_hangs_is_given_up_on_and_never_fails_the_write(
    silent_redis: str, caplog: pytest.LogCaptureFixture
) -> None:
    connection = {**settings.CHANNEL_LAYER_CONNECTION, "socket_timeout": 0.5}
    layers = pubsub_layers(silent_redis, connection, "hangs")
    with override_settings(CHANNEL_LAYERS=layers), caplog.at_level(logging.WARNING):
        started = time.monotonic()
        live.publish(live.GAME, 1)
        waited = time.monotonic() - started
    assert "live update to live.game.1 not sent" in caplog.text
    assert waited < live.SEND_TIMEOUT + 0.5  # the write went on without it


@pytest.fixture
def recording() -> Iterator[type[RecordingLayer]]:
    RecordingLayer.sent.clear()
    layers = {"default": {"BACKEND": "tests.tarabish_site.live_layers.RecordingLayer"}}
    with override_settings(CHANNEL_LAYERS=layers):
        yield RecordingLayer
    RecordingLayer.delay = RecordingLayer.block = 0.0


def _publish_in_a_thread(key: int) -> None:
    """A game's change published by a thread of its own, which then closes its database
    connection as a server's threads do (``publish`` asks the connection whether it is in a
    transaction, which connects), so the test database can be dropped at the end."""
    try:
        live.publish(live.GAME, key)
    finally:
        connections.close_all()


def test_messages_go_through_one_event_loop_a_process_run_by_the_sender(
    recording: type[RecordingLayer], monkeypatch: pytest.MonkeyPatch
) -> None:
    for key in (1, 2):
        live.publish(live.GAME, key)
    other = threading.Thread(target=_publish_in_a_thread, args=(3,))
    other.start()
    other.join()
    assert [sent.group for sent in recording.sent] == [f"live.game.{n}" for n in (1, 2, 3)]
    assert len({id(sent.loop) for sent in recording.sent}) == 1
    # Sent by the thread that published, before publish returned: no other thread's time.
    threads = [sent.thread for sent in recording.sent]
    assert threads == [threading.current_thread()] * 2 + [other]
    # A forked child (another process id) has its own loop and layer: its parent's
    # connections are not its own.
    monkeypatch.setattr(os, "getpid", lambda: -1)
    live.publish(live.GAME, 4)
    assert recording.sent[-1].loop is not recording.sent[0].loop
    assert recording.sent[-1].layer is not recording.sent[0].layer


def test_the_loop_sends_through_a_layer_no_other_loop_uses(
    recording: type[RecordingLayer],
) -> None:
    live.publish(live.GAME, 1)
    live.publish(live.GAME, 2)
    first, second = recording.sent
    assert first.layer is second.layer  # kept from one message to the next
    assert first.layer is not get_channel_layer()  # not the one the consumers' loop uses
    # New settings, a new shared layer: the loop makes a layer of its own again from them.
    layers = {"default": {"BACKEND": "tests.tarabish_site.live_layers.RecordingLayer"}}
    with override_settings(CHANNEL_LAYERS=layers):
        live.publish(live.GAME, 3)
    assert recording.sent[-1].layer is not first.layer
    assert recording.sent[-1].loop is first.loop


async def test_synchronous_code_in_a_thread_running_a_loop_still_publishes(
    recording: type[RecordingLayer],
) -> None:
    # As a test driving a browser through Playwright's synchronous API does: its thread runs
    # the client's event loop while the test's own code (which stores and publishes) runs.
    live.publish_now(live.GAME, 7)
    (sent,) = recording.sent
    assert sent.group == "live.game.7"
    assert sent.thread is not threading.current_thread()  # a thread of its own sent it


def test_a_failure_in_the_thread_of_its_own_is_logged_as_any_other(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def refused(*args: Any) -> None:
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(live, "_loop_running_here", lambda: True)
    monkeypatch.setattr(live, "_deliver", refused)
    with caplog.at_level(logging.WARNING, logger="tarabish_site.live"):
        live.publish_now(live.GAME, 8)
    assert "live update to live.game.8 not sent" in caplog.text
    assert "Redis is down" in caplog.text


@override_settings(CHANNEL_LAYERS={"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}})
def test_the_in_memory_layer_is_sent_to_as_it_is_shared() -> None:
    # Its groups and queues live in the one instance: another would reach nobody.
    layer = get_channel_layer()
    assert isinstance(layer, InMemoryChannelLayer)
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)("live.game.5", channel)
    live.publish(live.GAME, 5, hand=2)

    async def received() -> dict[str, Any]:
        return await asyncio.wait_for(layer.receive(channel), timeout=1)

    assert async_to_sync(received)() == {
        "type": "live.changed",
        "topic": "game",
        "key": "5",
        "details": {"hand": 2},
    }


def test_a_layer_too_slow_to_answer_is_given_up(
    recording: type[RecordingLayer],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    recording.delay = 5.0
    monkeypatch.setattr(live, "SEND_TIMEOUT", 0.05)
    with caplog.at_level(logging.WARNING, logger="tarabish_site.live"):
        started = time.monotonic()
        live.publish(live.GAME, 1)
        assert time.monotonic() - started < 1
    assert "live update to live.game.1 not sent" in caplog.text
    assert recording.sent == []  # given up, not sent later


def test_threads_send_one_at_a_time_each_waiting_a_while_at_most(
    recording: type[RecordingLayer],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    recording.delay = 0.2
    threads = [threading.Thread(target=_publish_in_a_thread, args=(n,)) for n in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(sent.group for sent in recording.sent) == ["live.game.1", "live.game.2"]
    # A thread that waited for another's message longer than a message may take gives up.
    recording.delay, recording.block = 0.0, 1.0  # stuck where it cannot be cancelled
    monkeypatch.setattr(live, "SEND_TIMEOUT", 0.3)
    slow = threading.Thread(target=_publish_in_a_thread, args=(3,))
    with caplog.at_level(logging.WARNING, logger="tarabish_site.live"):
        slow.start()
        time.sleep(0.1)  # the slow message is being sent
        started = time.monotonic()
        live.publish(live.GAME, 4)
        waited = time.monotonic() - started
        slow.join()
    assert 0.25 < waited < 0.8
    assert "live update to live.game.4 not sent" in caplog.text
    assert "another thread has been sending" in caplog.text
