"""A bench-only WebSocket consumer: the bare fan-out that ``bench/tables.py --bare`` measures
the live tables against. Routed only with ``CAPSTONE_BENCH_ROUTES=1`` (config/routing.py).

Each "move" a client sends (``{"action": ..., "version": "v"}``, as a table's page sends)
is answered as a real move is announced: one group_send of the new version (v + 1) to the
table's group of sockets, through the same channel layer, and each socket then sends its
client a fixed frame of a real frame's size, with no database work and no render: what the
transport alone costs, beside what a real move costs.
"""

from __future__ import annotations

import json
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

FRAME_CHARS = 7500
"""About the size of a real frame: the Pyramid Poker frames the harness's sockets received
on 2026-11-24 were 6,300 to 7,600 characters on average, 9,800 at most (``bench/tables.py``
prints the mean of those it receives)."""
ERROR = '{"type": "error", "error": "a move is JSON with a version"}'
# One string shared by every frame, so each is made with one copy, not a render.
_PADDING = "." * FRAME_CHARS


def frame(version: int) -> str:
    """The fixed frame at ``version``, in the markup the harness reads a real table's from."""
    head = f'<div id="table-live" data-version="{version}" data-bench="fanout">'
    return head + _PADDING[: max(0, FRAME_CHARS - len(head) - 6)] + "</div>"


def fanout_group(table_id: int) -> str:
    return f"bench.fanout.{table_id}"


class FanoutConsumer(AsyncWebsocketConsumer):
    """The bare table: frame 0 on connect, then a frame to the whole group per move."""

    async def connect(self) -> None:
        self.group = fanout_group(int(self.scope["url_route"]["kwargs"]["table_id"]))
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=frame(0))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            version = int(json.loads(text_data or "")["version"])
        except (ValueError, KeyError, TypeError):
            await self.send(text_data=ERROR)
            return
        await self.channel_layer.group_send(self.group, {"type": "bench.frame", "version": version + 1})

    async def bench_frame(self, event: dict[str, Any]) -> None:
        await self.send(text_data=frame(int(event["version"])))

    async def layer_gap(self, event: dict[str, Any]) -> None:
        """The bench counts what the pub/sub layer loses as errors: nothing is made good here."""
