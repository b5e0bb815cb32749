"""HTTP and WebSockets on one ASGI app, served by daphne."""

from __future__ import annotations

import gc
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
# Django must be set up before anything imports models (the consumers do).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from twisted.internet import reactor  # noqa: E402 - daphne's asyncio reactor, installed by its app

from config.routing import websocket_urlpatterns  # noqa: E402
from games.outages import WEB, Heartbeat  # noqa: E402

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

# A daphne draws its tables' frames on the event loop's thread and stores their moves on the
# database thread (games.shared_frames, games.queued_moves). Once a statement is back, the
# database thread waits for the loop to let go of the GIL: up to Python's switch interval, by
# default 5 ms. At 1 ms, saturated daphnes made more moves in every A/B pair on both databases,
# and used less CPU a move in 5 pairs of 6 (docs/benchmarks.md, issue 21's twelfth round).
GIL_SWITCH_S = 0.001
sys.setswitchinterval(GIL_SWITCH_S)


# A frame makes many short-lived containers, and a table's kept versions (states, views, rows)
# live a while: every young collection walked the ones still kept, and passed them on to be
# walked again. At Python's default thresholds (700, 10, 10) the collector took 9.3% to 10.6%
# of a saturated daphne's CPU (two runs, two daphnes each); at these, 3.6% to 5.0%
# (docs/benchmarks.md, issue 21's fourteenth round). The price: a cycle of garbage that lived
# through a young collection waits longer for a full one (after 2,000,000 new containers
# instead of 70,000, about two minutes of a saturated daphne); one that dies young goes within
# 20,000, a few megabytes at most.
GC_THRESHOLDS = (20_000, 10, 10)
gc.set_threshold(*GC_THRESHOLDS)


def _freeze_startup_objects() -> None:
    """The objects of the site as it starts (Django, its apps, the engines) live as long as the
    process: kept out of the garbage collector's full passes, which otherwise walk them all,
    again and again, under the many short-lived objects a busy table's frames make."""
    gc.collect()
    gc.freeze()


reactor.callWhenRunning(_freeze_startup_objects)

# LP-5: a web process says it is up every few seconds. Daphne has no ASGI lifespan events,
# so the heartbeat starts when its reactor runs: a process that only imports this module
# (a test driving the app in-process) serves nobody and must not report the web as up.
reactor.callWhenRunning(Heartbeat(WEB).start)
