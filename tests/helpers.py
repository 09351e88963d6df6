"""Small helpers shared by tests."""

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def wait_for(predicate: Callable[[], object], timeout: float = 30.0, interval: float = 0.1) -> bool:
    """Poll ``predicate()`` until it is true or ``timeout`` seconds pass; say which."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return False


def json_of_python(script: str) -> Any:
    """Run ``script`` in a Python process of its own at the project's root, with the site's
    settings, and answer the JSON it prints last (for what changes a whole process, such as
    freezing its garbage collector)."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tarabish_site.settings"}
    done = subprocess.run(  # noqa: S603 - the tests' own scripts
        [sys.executable, "-c", script],
        check=False,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])
