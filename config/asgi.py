"""HTTP and WebSockets on one ASGI app, served by daphne."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
# Django must be set up before anything imports models (the consumers do).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from twisted.internet import reactor  # noqa: E402 - daphne's asyncio reactor, installed by its app

from config.routing import websocket_urlpatterns  # noqa: E402
from games.live.outages import WEB, Heartbeat  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The ignore: channels' stub wants its own (check-only) pattern type in an invariant
        # list, which Django's path() cannot return.
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))  # type: ignore[arg-type]
        ),
    }
)

# LP-5: a web process says it is up every few seconds. Daphne has no ASGI lifespan events,
# so the heartbeat starts when its reactor runs: a process that only imports this module
# (a test driving the app in-process) serves nobody and must not report the web as up.
reactor.callWhenRunning(Heartbeat(WEB).start)
