"""deploy/gunicorn.conf.py: its worker hook, run in a process of its own (it freezes the
garbage collector of the process it runs in), and the workers it asks for."""

import multiprocessing
import runpy
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import json_of_python

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
    found = json_of_python(_SCRIPT)
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
