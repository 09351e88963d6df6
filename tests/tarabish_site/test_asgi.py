"""tarabish_site/asgi.py, imported in a process of its own (it freezes the garbage collector
of the process that imports it, as the ASGI server does)."""

from tests.helpers import json_of_python

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
    found = json_of_python(_SCRIPT)
    assert found["views"]
    # Everything loaded is frozen; the collector still sees what is made afterwards.
    assert found["frozen"] > 50_000
    assert found["tracked"] < found["frozen"] / 10
    assert found["threshold"][0] > found["default"][0]
