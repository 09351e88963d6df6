"""Set-up shared by the long-lived server processes (gunicorn's workers, the ASGI server)."""

import gc


def freeze_loaded() -> None:
    """Load every view now, then take what is loaded out of the garbage collector's sight.

    A server process holds a few hundred thousand objects that live as long as it does
    (modules, classes, the URL tree, the engine). Python's full collection walks all of them,
    for tens of milliseconds (150-270 ms with a hundred online tables) in which the process
    serves nothing. Frozen, they are never walked again; what requests create is collected
    as before.
    """
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports every view, serializer and the engine
    gc.collect()
    gc.freeze()
