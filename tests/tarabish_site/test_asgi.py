"""tarabish_site/asgi.py, imported in a process of its own (it freezes the garbage collector
of the process that imports it, as the ASGI server does)."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_SCRIPT = """
import gc, json, sys
default = gc.get_threshold()
import tarabish_site.asgi
print(json.dumps({
    "views": "scoring.api.views" in sys.modules,
    "frozen": gc.get_freeze_count(),
    "tracked": len(gc.get_objects()),
    "default": default,
    "threshold": gc.get_threshold(),
}))
"""


def test_the_server_freezes_what_it_loaded_and_collects_less_often() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tarabish_site.settings"}
    done = subprocess.run(  # noqa: S603 - a fixed script
        [sys.executable, "-c", _SCRIPT],
        check=False,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["views"]
    # Everything loaded is frozen; the collector still sees what is made afterwards.
    assert found["frozen"] > 50_000
    assert found["tracked"] < found["frozen"] / 10
    assert found["threshold"][0] > found["default"][0]
