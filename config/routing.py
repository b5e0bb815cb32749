"""Every WebSocket address of the site."""

from __future__ import annotations

from django.conf import settings
from django.urls import path

from accounts.consumers import NoticeConsumer
from games.live.consumers import LobbyConsumer, TableConsumer
from web.consumers import PingConsumer

# django-stubs types path() for views only; channels routes ASGI consumers through it too.
websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/lobby/", LobbyConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/notices/", NoticeConsumer.as_asgi()),  # type: ignore[arg-type]
]

# Off by default: a socket there makes the server fan frames out for nobody's game, unlimited.
if settings.BENCH_ROUTES:
    from web.bench_consumers import FanoutConsumer

    websocket_urlpatterns.append(
        path("ws/bench/fanout/<int:table_id>/", FanoutConsumer.as_asgi())  # type: ignore[arg-type]
    )
