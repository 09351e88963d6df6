"""ASGI entry point: HTTP goes to Django, WebSockets under ``/ws/`` to Channels' consumers.

The WebSocket side checks the ``Origin`` header against ``ALLOWED_HOSTS`` (a page of another
site cannot open a socket with our visitors' cookies) and reads the Django session, so every
consumer has ``scope["user"]``. In production daphne serves this application for ``/ws/``
behind nginx, and gunicorn serves HTTP through ``wsgi.py``; the development server
(``runserver``, daphne's) serves both from here.
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarabish_site.settings")

# Django is set up (models loaded) before anything that imports a consumer.
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from tarabish_site.process import freeze_loaded  # noqa: E402
from tarabish_site.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))  # type: ignore[arg-type]
        ),
    }
)


def _freeze() -> None:
    """Freeze what start-up loaded, as gunicorn's workers do
    (:func:`tarabish_site.process.freeze_loaded`), and let the collector run less often.

    With a hundred tables playing, a full collection came every ten seconds or so and stopped
    the event loop and every database thread for 150 to 270 ms, the slowest moment of the
    moves under way at every table. The youngest generation is collected after 10 000 new
    objects instead of 700: what a move makes is almost all freed by reference counting once
    it is sent, so far fewer collections run and fewer short-lived objects are promoted and
    walked again in the older generations (the event loop's slowest tick in ten seconds went
    from 120-300 ms to 20-40 ms).
    """
    freeze_loaded()
    gc.set_threshold(10_000, 10, 10)


_freeze()
