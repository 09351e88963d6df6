"""Small helpers shared by tests."""

import time
from collections.abc import Callable


def wait_for(predicate: Callable[[], object], timeout: float = 30.0, interval: float = 0.1) -> bool:
    """Poll ``predicate()`` until it is true or ``timeout`` seconds pass; say which."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return False
