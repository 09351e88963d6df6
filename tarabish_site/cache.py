"""Counting hits in a window of time: the write rate limit counts every write.

With the cache on Redis (Django's own ``RedisCache`` backend), a count is one command: a
script, through redis-py's ``register_script`` (which loads it again if Redis restarted and
forgot it). Each thread counts over a client of its own holding one connection (redis-py's
``single_connection_client``): a connection taken from a pool for every command is first
polled for stale data, which costs more system calls than the command itself. On any other
cache it is Django's ``add`` and ``incr``.

The counter reaches Redis with the cache's own ``LOCATION`` and ``OPTIONS`` (the short
connect and read timeouts in ``settings.CACHES``), so a Redis that does not answer costs a
write a fraction of a second, and the rate limit then lets the write through (see
:mod:`tarabish_site.api.throttles`).
"""

import os
import threading
from typing import Any

import redis
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

#: Count one hit and start the window's clock with the first; a script runs as one command,
#: so the counter never exists without its expiry.
_COUNT_SCRIPT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return count
"""

#: The errors of a cache that cannot be reached or does not answer in time.
UNREACHABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)

#: The options of ``settings.CACHES`` that redis-py's client takes as they are.
_CLIENT_OPTIONS = ("socket_connect_timeout", "socket_timeout", "health_check_interval")


class WindowCounter:
    """Counters on the Redis at ``url``, one client (and connection) per thread and process."""

    def __init__(self, url: str, options: dict[str, Any]) -> None:
        self.url = url
        self.options = options
        self._held = threading.local()

    def count(self, key: str, seconds: int) -> int:
        """Add one to the counter ``key`` (a full Redis key) and return it; a new counter
        expires ``seconds`` later."""
        client, script = self._client()
        return int(script(keys=[key], args=[seconds], client=client))

    def _client(self) -> tuple[redis.Redis, Any]:
        """This thread's client and script, made again in a forked process (which must not
        share its parent's socket)."""
        held = getattr(self._held, "client", None)
        if held is None or held[0] != os.getpid():
            client = redis.Redis.from_url(self.url, single_connection_client=True, **self.options)
            held = self._held.client = (os.getpid(), client, client.register_script(_COUNT_SCRIPT))
        return held[1], held[2]


_counters: dict[tuple[str, str, tuple[tuple[str, Any], ...]], WindowCounter] = {}
_counters_lock = threading.Lock()


def _counter(alias: str) -> WindowCounter:
    config = settings.CACHES[alias]
    options = {
        name: value for name, value in config.get("OPTIONS", {}).items() if name in _CLIENT_OPTIONS
    }
    location = config["LOCATION"]
    url = location[0] if isinstance(location, list | tuple) else str(location).split(",")[0]
    key = (alias, url, tuple(sorted(options.items())))
    counter = _counters.get(key)
    if counter is None:
        with _counters_lock:
            counter = _counters.setdefault(key, WindowCounter(url, options))
    return counter


def count_in_window(key: str, seconds: int, *, alias: str = "default") -> int:
    """Add one to the counter ``key`` of the cache ``alias`` and return it; the counter is
    dropped ``seconds`` after its first count, so a key that names a window of time counts the
    hits in that window. Raises one of :data:`UNREACHABLE` when the cache cannot be reached."""
    cache = caches[alias]
    if isinstance(cache, RedisCache):
        return _counter(alias).count(cache.make_and_validate_key(key), seconds)
    if cache.add(key, 1, seconds):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # the counter expired between the two calls
        cache.add(key, 1, seconds)
        return 1
