"""ASGI entry point: HTTP goes to Django, WebSockets under ``/ws/`` to Channels' consumers.

The WebSocket side checks the ``Origin`` header against ``ALLOWED_HOSTS`` (a page of another
site cannot open a socket with our visitors' cookies) and reads the Django session, so every
consumer has ``scope["user"]``. In production daphne serves this application for ``/ws/``
behind nginx, and gunicorn serves HTTP through ``wsgi.py``; the development server
(``runserver``, daphne's) serves both from here.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarabish_site.settings")

# Django is set up (models loaded) before anything that imports a consumer.
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from tarabish_site.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))  # type: ignore[arg-type]
        ),
    }
)
