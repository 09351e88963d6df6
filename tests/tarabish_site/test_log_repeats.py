"""A failure a library logs every second is logged once a period, with its count."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from tarabish_site import logs


def records(filter_: logs.RepeatFilter, *texts: tuple[str, tuple[Any, ...]]) -> list[str]:
    """The messages of the records ``filter_`` lets through, from ``texts`` logged in turn."""
    kept = []
    for msg, args in texts:
        record = logging.LogRecord("lib", logging.ERROR, __file__, 1, msg, args, None)
        if filter_.filter(record):
            kept.append(record.getMessage())
    return kept


def test_the_first_goes_through_and_the_next_after_the_period_says_how_many_were_held() -> None:
    clock = [100.0]
    repeats = logs.RepeatFilter(seconds=60, clock=lambda: clock[0])
    failure = ("Unexpected exception in receive task", ())
    assert records(repeats, *[failure] * 30) == ["Unexpected exception in receive task"]
    clock[0] += 59.9
    assert records(repeats, failure) == []
    clock[0] += 0.2
    assert records(repeats, failure) == ["Unexpected exception in receive task (30 more like it)"]
    # another message of the same logger is its own kind; its arguments are kept
    assert records(repeats, ("lost %s of %d", ("shard", 2))) == ["lost shard of 2"]
    assert records(repeats, ("50%% of %s", ("it",))) == ["50% of it"]


def test_the_channel_layers_receiving_task_is_held_back_by_the_settings(
    caplog: pytest.LogCaptureFixture,
) -> None:
    library = logging.getLogger("channels_redis.pubsub")
    with caplog.at_level(logging.ERROR, logger="channels_redis.pubsub"):
        for _ in range(5):
            try:
                raise ConnectionError("Error 111 connecting to 127.0.0.1:6379")
            except ConnectionError:
                library.exception("Unexpected exception in receive task (a test)")
    assert len(caplog.records) == 1
    assert caplog.records[0].exc_info is not None  # the first keeps its traceback
