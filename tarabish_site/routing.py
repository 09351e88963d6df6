"""Every WebSocket route of the service, all under ``/ws/`` (where nginx sends daphne)."""

from play.routing import websocket_urlpatterns as play_patterns
from tarabish_site.live.routing import websocket_urlpatterns as live_patterns

websocket_urlpatterns = [*live_patterns, *play_patterns]
