"""Django's Redis cache, keeping one client object per connection pool.

Django's ``RedisCacheClient`` builds a new ``redis.Redis`` object for every cache call. The
connections themselves are pooled either way, but building the client object costs more than
the round trip it makes: a write request that checks its rate limit did so twice. A client
object is safe to share between threads (it takes a connection from its pool for each
command), so this one keeps it.

Set with ``"BACKEND": "tarabish_site.cache.RedisCache"``; everything else is Django's.

:func:`count_in_window` counts hits in a window of time (the write rate limit does, on every
write): one round trip on Redis, Django's ``add`` and ``incr`` on any other cache.
"""

import threading
from typing import Any

from django.core.cache.backends import redis as django_redis
from django.core.cache.backends.base import BaseCache


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}
        self._clients_lock = threading.Lock()

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # The stubs leave out the private parts used here: the pools and the client class.
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            with self._clients_lock:
                client = self._clients.setdefault(
                    id(pool),
                    self._client(connection_pool=pool),  # type: ignore[attr-defined]
                )
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient

    def redis(self, *, write: bool = False) -> Any:
        """The ``redis.Redis`` client behind the cache (the one it keeps)."""
        return self._cache.get_client(write=write)  # type: ignore[attr-defined]


def count_in_window(cache: BaseCache, key: str, seconds: int) -> int:
    """Add one to the counter ``key`` and return it; the counter is dropped ``seconds`` after
    its first count, so a key that names a window of time counts the hits in that window."""
    redis = getattr(cache, "redis", None)  # this module's RedisCache, or the proxy to it
    if redis is not None:
        redis_key = cache.make_and_validate_key(key)
        pipeline = redis(write=True).pipeline(transaction=False)
        pipeline.incr(redis_key)
        pipeline.expire(redis_key, seconds, nx=True)
        count, _ = pipeline.execute()
        return int(count)
    if cache.add(key, 1, seconds):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # the counter expired between the two calls
        cache.add(key, 1, seconds)
        return 1
