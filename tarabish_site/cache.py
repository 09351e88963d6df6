"""Django's Redis cache, keeping one client object per connection pool.

Django's ``RedisCacheClient`` builds a new ``redis.Redis`` object for every cache call. The
connections themselves are pooled either way, but building the client object costs more than
the round trip it makes: a write request that checks its rate limit did so twice. A client
object is safe to share between threads (it takes a connection from its pool for each
command), so this one keeps it.

Set with ``"BACKEND": "tarabish_site.cache.RedisCache"``; everything else is Django's.

:func:`count_in_window` counts hits in a window of time (the write rate limit does, on every
write): one command on Redis, Django's ``add`` and ``incr`` on any other cache. Each thread
counts over a connection of its own that it keeps (redis-py's ``single_connection_client``):
a connection taken from the pool for every command is first polled for stale data, which
costs more system calls than the command itself.
"""

import os
import threading
from typing import Any

import redis
from django.core.cache.backends import redis as django_redis
from django.core.cache.backends.base import BaseCache

#: Count one hit and start the window's clock with the first; a script runs as one command,
#: so the counter never exists without its expiry.
_COUNT_SCRIPT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return count
"""


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}
        self._clients_lock = threading.Lock()
        self._counters = threading.local()
        self._count_sha: str | None = None

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

    def count(self, key: str, seconds: int) -> int:
        """Add one to the counter ``key`` (a full Redis key) and return it; a new counter
        expires ``seconds`` later."""
        counter = self._counter()
        if self._count_sha is None:
            self._count_sha = counter.script_load(_COUNT_SCRIPT)
        try:
            return int(counter.evalsha(self._count_sha, 1, key, seconds))
        except redis.exceptions.NoScriptError:  # Redis restarted and forgot the script
            self._count_sha = counter.script_load(_COUNT_SCRIPT)
            return int(counter.evalsha(self._count_sha, 1, key, seconds))

    def _counter(self) -> Any:
        """This thread's client holding one connection of the write pool (made again in a
        forked process, which must not share its parent's socket)."""
        held = getattr(self._counters, "held", None)
        if held is None or held[0] != os.getpid():
            pool = self._get_connection_pool(True)  # type: ignore[attr-defined]
            client = self._client(connection_pool=pool, single_connection_client=True)  # type: ignore[attr-defined]
            held = self._counters.held = (os.getpid(), client)
        return held[1]


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient

    def redis(self, *, write: bool = False) -> Any:
        """The ``redis.Redis`` client behind the cache (the one it keeps)."""
        return self._cache.get_client(write=write)  # type: ignore[attr-defined]

    def count_in_window(self, key: str, seconds: int) -> int:
        """See :func:`count_in_window`."""
        return self._cache.count(self.make_and_validate_key(key), seconds)  # type: ignore[attr-defined, no-any-return]


def count_in_window(cache: BaseCache, key: str, seconds: int) -> int:
    """Add one to the counter ``key`` and return it; the counter is dropped ``seconds`` after
    its first count, so a key that names a window of time counts the hits in that window."""
    count = getattr(cache, "count_in_window", None)  # this module's RedisCache, or its proxy
    if count is not None:
        return int(count(key, seconds))
    if cache.add(key, 1, seconds):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # the counter expired between the two calls
        cache.add(key, 1, seconds)
        return 1
