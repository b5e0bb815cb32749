"""A signed-in person's notice socket, open on every page of the site (static/js/notices.js).

It joins the person's group (``accounts.notices.group_name``) and passes on what arrives
there: a new notice, notices read on another page, or how many turn-based games now wait for
the person (``{"type": "turns", "count": 3}``, LP-8). On connecting it sends the unread
notices as they stand, so a notice made between the page's render and the socket's
opening (or while a dropped socket reconnected) is not missed. It takes two frames:
``{"type": "read", "ids": [1, 2]}`` (or ``"ids": "all"``), and the page's heartbeat
``{"type": "here"}``; any other is answered with an error and changes nothing. Frames pass
the site's rate limit first, as every socket's do.

The socket is also its person's presence (``accounts.presence``): a row while it is open,
with the table its page is at (``?table=12`` in its address, from a table's page), which the
heartbeat keeps fresh.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import Any, Literal

from channels.db import database_sync_to_async
from django.utils.translation import gettext, gettext_lazy

from accounts import notices, presence, waiting
from accounts.models import User
from games.live.socket_limits import Rate
from web import safe_json
from web.consumers import FRAME_DEPTH, FrameLimitedJsonConsumer, frame_limiter

NOTICES = Rate(frames=20, per_s=20, burst=10, patience=10)
"""A page marks a notice read when its person clicks one: a few frames a minute at most."""
MAX_FRAME = 1024
MAX_IDS = 50
MAX_ID = 2**63 - 1
"""A notice's id is a BigAutoField: PostgreSQL's bigint and SQLite's INTEGER end here, and a
larger number sent to the database fails there (sqlite3's OverflowError closed the socket)."""
READ_FRAME = '{"type": "read", "ids": [notice ids] or "all"}'
HERE_FRAME = '{"type": "here"}'


def read_request(text_data: str | None) -> Collection[int] | Literal["all", "here"]:
    """The notices a "read" frame names, or "here" for the heartbeat; ``ValueError`` saying
    what is wrong with any other frame."""
    if text_data is None or len(text_data) > MAX_FRAME:
        raise ValueError(gettext("frames are JSON text of at most 1 KB"))
    try:
        message = safe_json.loads(text_data, max_depth=FRAME_DEPTH)
    except safe_json.TooDeeplyNested:
        raise
    except ValueError as exc:
        raise ValueError(gettext("frames must be JSON objects")) from exc
    if message == {"type": "here"}:
        return "here"
    if not isinstance(message, dict) or message.get("type") != "read" or set(message) != {"type", "ids"}:
        raise ValueError(gettext("expected %(read)s or %(here)s") % {"read": READ_FRAME, "here": HERE_FRAME})
    ids = message["ids"]
    if ids == "all":
        return "all"
    if (
        not isinstance(ids, list)
        or not 1 <= len(ids) <= MAX_IDS
        or not all(type(n) is int and 0 < n <= MAX_ID for n in ids)
    ):
        raise ValueError(gettext('ids are 1 to %(count)d notice numbers, or "all"') % {"count": MAX_IDS})
    return set(ids)


class NoticeConsumer(FrameLimitedJsonConsumer):
    too_fast = gettext_lazy("too many frames: slow down")

    async def connect(self) -> None:
        self.group: str | None = None
        self.present_since: float | None = None
        user = self.person
        if user is None:
            await self.close()  # before accepting: the handshake is refused (HTTP 403)
            return
        self.limiter = frame_limiter(self.scope, NOTICES)
        self.group = notices.group_name(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await database_sync_to_async(presence.connected)(
            channel_name=self.channel_name,
            user=user,
            table_id=presence.table_in_query(self.scope.get("query_string", b"")),
        )
        self.present_since = time.monotonic()
        await self.sync(user)

    async def sync(self, user: User) -> None:
        """The unread notices as they stand: the page shows these and no others; and how many
        turn-based games wait for the person (LP-8), for the header's "Your turn"."""
        unread = await database_sync_to_async(notices.unread)(user)
        turns = await database_sync_to_async(waiting.count)(user.pk)
        await self.send_json(
            {
                "type": "sync",
                "notices": [notices.as_json(n) for n in unread.notices],
                "unread": unread.count,
                "turns": turns,
            }
        )

    async def layer_gap(self, event: dict[str, Any]) -> None:
        """Notices may have been lost (web/channel_layer.py): the unread ones as they stand."""
        user = self.person
        if user is not None:
            await self.sync(user)

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        user = self.person
        if self.present_since is not None and user is not None:
            await database_sync_to_async(presence.disconnected)(channel_name=self.channel_name, user=user)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        # Parsed here rather than in receive_json, so that a malformed frame gets an answer.
        try:
            ids = read_request(text_data)
        except ValueError as exc:
            await self.send_error(gettext("%(why)s; nothing was marked read") % {"why": exc})
            return
        user = self.person
        if ids == "here":
            await self.heartbeat()
        elif user is not None:
            await database_sync_to_async(notices.mark_read)(user=user, ids=ids)

    async def heartbeat(self) -> None:
        """Refreshes the presence row, at most once a ``presence.HEARTBEAT`` however often
        the page says it is there: a heartbeat is a frame, a write is a query."""
        now = time.monotonic()
        if self.present_since is not None and now - self.present_since >= presence.HEARTBEAT.total_seconds():
            self.present_since = now
            await database_sync_to_async(presence.refreshed)(channel_name=self.channel_name)

    async def notice_new(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "notice", "notice": event["notice"], "unread": event["unread"]})

    async def notice_read(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "read", "ids": event["ids"], "unread": event["unread"]})

    async def turns_count(self, event: dict[str, Any]) -> None:
        """How many turn-based games wait for the person now (``accounts.turn_notices``)."""
        await self.send_json({"type": "turns", "count": event["count"]})
