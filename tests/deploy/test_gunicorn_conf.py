"""deploy/gunicorn.conf.py: its worker hook, run in a process of its own (it freezes the
garbage collector of the process it runs in), and the workers it asks for."""

import json
import multiprocessing
import os
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

_SCRIPT = """
import gc, json, runpy, sys
import django
django.setup()  # what gunicorn's load_wsgi does before the hook
before = "scoring.api.views" in sys.modules
conf = runpy.run_path("deploy/gunicorn.conf.py")
conf["post_worker_init"](None)
print(json.dumps({
    "views_before": before,
    "views_after": "scoring.api.views" in sys.modules,
    "frozen": gc.get_freeze_count(),
    "tracked": len(gc.get_objects()),
}))
"""


def test_a_worker_loads_every_view_then_freezes_what_it_loaded() -> None:
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
    assert (found["views_before"], found["views_after"]) == (False, True)
    # Everything loaded is frozen; the collector still sees what is made afterwards.
    assert found["frozen"] > 50_000
    assert found["tracked"] < found["frozen"] / 10


def _conf(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    for name in ("GUNICORN_WORKERS", "GUNICORN_WORKER_CLASS", "GUNICORN_THREADS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))


def test_workers_are_synchronous_one_per_core_and_one_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    conf = _conf(monkeypatch)
    assert (conf["worker_class"], conf["threads"]) == ("sync", 1)
    assert conf["workers"] == multiprocessing.cpu_count() + 1


def test_a_directly_exposed_server_can_choose_threaded_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    conf = _conf(
        monkeypatch, GUNICORN_WORKER_CLASS="gthread", GUNICORN_THREADS="4", GUNICORN_WORKERS="2"
    )
    assert (conf["worker_class"], conf["threads"], conf["workers"]) == ("gthread", 4, 2)


def test_gunicorn_opens_no_control_socket() -> None:
    # its default place, ~/.gunicorn, is not writable for the image's user: an error each start
    assert runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))["control_socket_disable"]
