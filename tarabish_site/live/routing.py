"""WebSocket routes of the live updates."""

from django.urls import re_path

from tarabish_site.live.consumers import WatchConsumer

websocket_urlpatterns = [
    re_path(
        r"^ws/watch/(?P<topic>[A-Za-z0-9_-]{1,80})/(?P<key>[A-Za-z0-9_-]{1,80})/$",
        WatchConsumer.as_asgi(),  # type: ignore[arg-type]  # an ASGI app, as Channels routes
    ),
]
