"""Site-wide WebSocket plumbing: the ping socket, and the rate limit every socket applies
to the frames it receives (games.live.socket_limits)."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Mapping
from functools import cached_property
from typing import Any, ClassVar, cast

from asgiref.typing import WebSocketConnectEvent
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer, AsyncWebsocketConsumer
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from accounts.models import User
from games.live.socket_limits import PING, FrameLimiter, Rate, SharedBuckets, Verdict
from web import languages, safe_json

FLOODING = 4429
"""The close code for a client that kept sending once refused (HTTP's 429, in the
4000-4999 range WebSockets leave to applications)."""
ACCOUNT_CLOSED = 4403
"""The close code for a socket whose person's account was closed (HTTP's 403): its page no
longer has a signed-in person, and is not served as one (accounts.closing)."""
FRAME_DEPTH = 8
"""How deep a frame's JSON may nest; the site's own frames nest two levels at most."""


_shared = SharedBuckets()


def person_group(user_id: int) -> str:
    """The group every signed-in socket of a person is in, whatever its page."""
    return f"person.{user_id}"


def frame_limiter(scope: Mapping[str, Any], rate: Rate, limiter: FrameLimiter | None = None) -> FrameLimiter:
    """The limit of a socket at ``rate``. A signed-in person's sockets of one rate share
    their frames in this process (a new socket starts where the closed one left off); an
    anonymous socket has its own. With ``limiter``, that socket changes to ``rate``."""
    now = time.monotonic()
    user = scope.get("user")
    shared = (
        _shared.bucket((user.pk, rate), rate, now) if user is not None and user.is_authenticated else None
    )
    if limiter is None:
        return FrameLimiter(rate, now, shared)
    limiter.change_rate(rate, now, shared)
    return limiter


class FrameLimitedConsumer(AsyncWebsocketConsumer):
    """A consumer whose every frame first passes ``self.limiter`` (set in ``connect``).

    The check comes before any other work, and a refused frame sends nothing to the one
    thread that all database work of this process shares: a flood would queue every table's
    moves behind it. A refused frame gets ``too_fast`` (small: it must cost next to nothing;
    a lazy message is worded in the socket's language);
    once the client has kept flooding, the socket is closed with ``FLOODING`` and the
    consumer stops.
    """

    @cached_property
    def person(self) -> User | None:
        """The socket's signed-in person, or ``None`` for an anonymous socket: the user itself,
        not channels' lazy object around it, each of whose attribute reads goes through a proxy
        (3% of a saturated table server's samples, py-spy). A socket's user does not change."""
        user = self.scope.get("user")
        if not (isinstance(user, User) and user.is_authenticated):
            return None
        return cast(User, getattr(user, "_wrapped", user))

    @cached_property
    def language(self) -> str:
        """The language of the socket's frames, chosen at its first frame (web.languages)."""
        return languages.of_socket(self.scope)

    def refusal(self) -> str:
        """The frame a refused frame gets: ``too_fast`` in the socket's language."""
        with translation.override(self.language):
            return str(self.too_fast)

    too_fast: ClassVar[str | Promise]
    limiter: FrameLimiter

    async def websocket_connect(self, message: WebSocketConnectEvent) -> None:
        # channels joins ``self.groups`` before ``connect`` and leaves them on disconnect.
        person = self.person
        self.groups = [] if person is None else [person_group(person.pk)]
        await super().websocket_connect(message)

    async def account_closed(self, event: dict[str, Any]) -> None:
        """The person's account was closed (by them, in another tab, or by staff): the socket
        ends now, as their sessions did, rather than acting for them until its page reloads."""
        await self.close(code=ACCOUNT_CLOSED, reason="account closed")
        await self.websocket_disconnect(
            {"type": "websocket.disconnect", "code": ACCOUNT_CLOSED, "reason": "account closed"}
        )

    # channels' WebSocket consumers change AsyncConsumer.send's signature (their stub ignores
    # the same override).
    async def send(  # type: ignore[override]
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        # The client may leave while a frame is on its way (a table change, the lobby's next
        # drawing): nobody is left to tell, and the disconnect follows.
        with contextlib.suppress(Disconnected):
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    async def dispatch(self, message: dict[str, Any]) -> None:
        if message.get("type") == "websocket.receive":
            verdict = self.limiter.check(time.monotonic())
            if verdict is Verdict.REFUSE:
                await self.send(text_data=self.refusal())
            elif verdict is Verdict.CLOSE:
                await self.close(code=FLOODING, reason="too many frames")
                # Done with this socket now, not when daphne drops it (a second later, if the
                # client ignores the close): what the flood still sends is never dispatched.
                await self.websocket_disconnect(
                    {"type": "websocket.disconnect", "code": FLOODING, "reason": "too many frames"}
                )
            if verdict is not Verdict.ADMIT:
                return
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message.get('type')!r}")
        # channels' own dispatch would first send Django's close_old_connections to the database
        # thread: a trip there for every frame and every group message (four a move at a table),
        # where each database call (database_sync_to_async) runs it before and after anyway.
        # Every frame is drawn in the socket's language (its task's own context: other sockets'
        # are not touched, and the database thread's calls carry it).
        with translation.override(self.language):
            await handler(message)


class FrameLimitedJsonConsumer(FrameLimitedConsumer, AsyncJsonWebsocketConsumer):
    """A JSON socket whose replies go through ``FrameLimitedConsumer.send``: channels' own
    ``send_json`` calls the send after its class's, around that one, so a reply to a client
    that had just left raised in daphne ("Attempt to send on a closed protocol", fuzzed)."""

    async def send_json(self, content: Any, close: bool = False) -> None:
        await self.send(text_data=await self.encode_json(content), close=close)

    def refusal(self) -> str:
        """``too_fast`` is the error's words: the frame is ``{"type": "error", "error": ...}``."""
        return json.dumps({"type": "error", "error": super().refusal()})

    async def send_error(self, error: str) -> None:
        await self.send_json({"type": "error", "error": error})


class PingConsumer(FrameLimitedJsonConsumer):
    """Answers ``{"type": "ping"}`` with ``{"type": "pong", "user": ...}``: proof the socket path works."""

    too_fast = gettext_lazy("too many frames: slow down")

    async def connect(self) -> None:
        self.limiter = frame_limiter(self.scope, PING)
        await self.accept()

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        # Parse here rather than in receive_json so a malformed frame gets an answer, not a crash.
        try:
            message = safe_json.loads(text_data or "", max_depth=FRAME_DEPTH)
        except safe_json.TooDeeplyNested as exc:
            await self.send_error(gettext("frames must be JSON objects: %(why)s") % {"why": exc})
            return
        except ValueError:
            await self.send_error(gettext("frames must be JSON objects"))
            return
        if not isinstance(message, dict) or message.get("type") != "ping":
            await self.send_error(gettext("expected %(frame)s") % {"frame": '{"type": "ping"}'})
            return
        user = self.scope.get("user")
        name = user.get_username() if user is not None and user.is_authenticated else None
        await self.send_json({"type": "pong", "user": name, "echo": message.get("echo")})
