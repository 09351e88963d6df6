"""Counting hits in a window: one command on Redis, add and incr on any other cache."""

import os
import threading
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import override_settings

from tarabish_site import cache as counting
from tarabish_site.cache import count_in_window

REDIS_CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": settings.REDIS_URL,
        "KEY_PREFIX": "test-cache",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
    }
}


@pytest.mark.services
@override_settings(CACHES=REDIS_CACHES)
def test_a_window_counter_on_redis_counts_and_expires() -> None:
    cache = caches["default"]
    cache.delete("window")
    assert [count_in_window("window", 60) for _ in range(3)] == [1, 2, 3]
    client, _script = counting._counter("default")._client()
    ttl = client.ttl(cache.make_and_validate_key("window"))
    assert 0 < ttl <= 60  # set by the first count, not pushed back by the later ones
    cache.delete("window")


def test_a_window_counter_on_any_other_cache_counts() -> None:
    local = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    with override_settings(CACHES=local):
        assert [count_in_window("window", 60) for _ in range(3)] == [1, 2, 3]


@pytest.mark.services
@override_settings(CACHES=REDIS_CACHES)
def test_the_counter_counts_in_one_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("add and incr are two round trips or more")

    cache = caches["default"]
    monkeypatch.setattr(type(cache), "add", refused)
    cache.delete("one-trip")
    client, _script = counting._counter("default")._client()
    sent: list[Any] = []
    real = client.execute_command

    def recorded(*args: Any, **kwargs: Any) -> Any:
        sent.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(client, "execute_command", recorded)
    assert [count_in_window("one-trip", 60) for _ in range(2)] == [1, 2]
    assert [command[0] for command in sent] == ["EVALSHA", "EVALSHA"]
    cache.delete("one-trip")


@pytest.mark.services
@override_settings(CACHES=REDIS_CACHES)
def test_the_counter_loads_its_script_again_when_redis_has_forgotten_it() -> None:
    cache = caches["default"]
    cache.delete("forgotten")
    assert count_in_window("forgotten", 60) == 1
    client, _script = counting._counter("default")._client()
    client.script_flush()  # as after a restart of Redis
    assert count_in_window("forgotten", 60) == 2
    cache.delete("forgotten")


@pytest.mark.services
@override_settings(CACHES=REDIS_CACHES)
def test_each_thread_and_process_counts_over_a_connection_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counter = counting._counter("default")
    caches["default"].delete("threads")
    connections = []
    together = threading.Barrier(4)  # every thread alive at once, each with its connection

    def count() -> None:
        count_in_window("threads", 60)
        count_in_window("threads", 60)
        connections.append(counter._client()[0].connection)
        together.wait(timeout=10)

    threads = [threading.Thread(target=count) for _ in range(3)]
    for thread in threads:
        thread.start()
    count()
    for thread in threads:
        thread.join()
    assert len({id(connection) for connection in connections}) == 4
    assert count_in_window("threads", 60) == 9

    held = counter._client()[0]
    monkeypatch.setattr(os, "getpid", lambda: -1)  # a forked child must not use the socket
    assert counter._client()[0] is not held
    caches["default"].delete("threads")
