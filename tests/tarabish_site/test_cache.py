"""The Redis cache keeps one client per connection pool and works as Django's does."""

import os
import threading

import pytest
from django.conf import settings
from django.core.cache.backends.locmem import LocMemCache

from tarabish_site.cache import RedisCache, count_in_window


@pytest.mark.services
def test_one_client_serves_every_call_and_the_cache_works() -> None:
    cache = RedisCache(settings.REDIS_URL, {"KEY_PREFIX": "test-cache"})
    client = cache.redis(write=True)
    assert cache.redis() is client
    cache.delete("counter")
    assert cache.add("counter", 1, 60)
    assert not cache.add("counter", 5, 60)
    assert cache.incr("counter") == 2
    assert cache.get("counter") == 2
    cache.delete("counter")


@pytest.mark.services
def test_a_window_counter_on_redis_counts_and_expires() -> None:
    cache = RedisCache(settings.REDIS_URL, {"KEY_PREFIX": "test-cache"})
    cache.delete("window")
    assert [count_in_window(cache, "window", 60) for _ in range(3)] == [1, 2, 3]
    client = cache.redis()
    ttl = client.ttl(cache.make_and_validate_key("window"))
    assert 0 < ttl <= 60  # set by the first count, not pushed back by the later ones
    cache.delete("window")


def test_a_window_counter_on_any_other_cache_counts() -> None:
    cache = LocMemCache("window-test", {})
    assert [count_in_window(cache, "window", 60) for _ in range(3)] == [1, 2, 3]


@pytest.mark.services
def test_the_default_cache_counts_in_one_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.cache import cache, caches

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("add and incr are two round trips or more")

    monkeypatch.setattr(type(caches["default"]), "add", refused)
    cache.delete("proxied")
    assert [count_in_window(cache, "proxied", 60) for _ in range(2)] == [1, 2]
    cache.delete("proxied")


@pytest.mark.services
def test_the_counter_loads_its_script_again_when_redis_has_forgotten_it() -> None:
    cache = RedisCache(settings.REDIS_URL, {"KEY_PREFIX": "test-cache"})
    cache.delete("forgotten")
    assert count_in_window(cache, "forgotten", 60) == 1
    cache.redis(write=True).script_flush()  # as after a restart of Redis
    assert count_in_window(cache, "forgotten", 60) == 2
    cache.delete("forgotten")


@pytest.mark.services
def test_each_thread_and_process_counts_over_a_connection_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache = RedisCache(settings.REDIS_URL, {"KEY_PREFIX": "test-cache"})
    client = cache._cache  # type: ignore[attr-defined]  # the counters: one per thread and process
    cache.delete("threads")
    connections = []
    together = threading.Barrier(4)  # every thread alive at once, each with its connection

    def count() -> None:
        count_in_window(cache, "threads", 60)
        count_in_window(cache, "threads", 60)
        connections.append(client._counter().connection)
        together.wait(timeout=10)

    threads = [threading.Thread(target=count) for _ in range(3)]
    for thread in threads:
        thread.start()
    count()
    for thread in threads:
        thread.join()
    assert len({id(connection) for connection in connections}) == 4
    assert count_in_window(cache, "threads", 60) == 9

    held = client._counter()
    monkeypatch.setattr(os, "getpid", lambda: -1)  # a forked child must not use the socket
    assert client._counter() is not held
    cache.delete("threads")
