"""Every WebSocket address of the site."""

from __future__ import annotations

from django.urls import path

from config.consumers import PingConsumer
from games.consumers import LobbyConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]
