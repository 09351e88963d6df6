"""WebSocket routes of online play."""

from django.urls import re_path

from play.consumers import TableConsumer

websocket_urlpatterns = [
    re_path(r"^ws/play/(?P<table>[0-9]{1,18})/$", TableConsumer.as_asgi()),  # type: ignore[arg-type]
]
