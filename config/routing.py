"""Every WebSocket address of the site."""

from __future__ import annotations

from django.urls import path

from config.consumers import PingConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
]
