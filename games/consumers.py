"""WebSockets of live tables and the lobby: thin, each frame goes to one service.

The table's group carries only "the table changed, now at version v"; every connection
then renders its own seat's view (a spectator's if it has no seat), so a card never
reaches a socket that may not see it (LP-3). Frames from the browser are htmx's
``ws-send`` JSON: ``{"action": "...", "version": "...", ...}``.
"""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games import tables
from games.table_presenter import compose_action, render_lobby, render_table

MAX_FRAME = 4096


class TableConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.sent_version: int | None = None
        await self.accept()
        if not await database_sync_to_async(tables.table_exists)(self.table_id):
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(tables.table_group(self.table_id), self.channel_name)
        await self.send_table()

    async def disconnect(self, code: int) -> None:
        # LP-2: leaving ends nothing; the seat keeps its clock and the game goes on.
        await self.channel_layer.group_discard(tables.table_group(self.table_id), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            if text_data is None or len(text_data) > MAX_FRAME:
                raise ValueError("frames are JSON text of at most 4 KB")
            message = json.loads(text_data)
            if not isinstance(message, dict):
                raise ValueError("frames are JSON objects")
            text = compose_action(message)
            version = int(message["version"])
        except (ValueError, KeyError, TypeError) as exc:
            await self.send_table(error=f"That message could not be read ({exc}); nothing was played.")
            return
        user = self.scope.get("user")
        try:
            await database_sync_to_async(tables.act)(
                table_id=self.table_id, user=user, text=text, expected_version=version
            )
        except tables.GameError as exc:
            await self.send_table(error=str(exc))

    async def table_changed(self, event: dict[str, Any]) -> None:
        version = event.get("version")
        if version is not None and self.sent_version is not None and version <= self.sent_version:
            return  # this socket already shows that version or a later one
        await self.send_table()

    async def send_table(self, error: str = "") -> None:
        html, version = await database_sync_to_async(render_table)(
            self.table_id, self.scope.get("user"), error
        )
        self.sent_version = version
        await self.send(text_data=html)


class LobbyConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()
        await self.channel_layer.group_add(tables.LOBBY_GROUP, self.channel_name)

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(tables.LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.lobby_changed({})  # any frame asks for a fresh list

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=await database_sync_to_async(render_lobby)())
