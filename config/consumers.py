"""Site-wide WebSocket plumbing."""

from __future__ import annotations

import json
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer


class PingConsumer(AsyncJsonWebsocketConsumer):
    """Answers ``{"type": "ping"}`` with ``{"type": "pong", "user": ...}``: proof the socket path works."""

    async def connect(self) -> None:
        await self.accept()

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        # Parse here rather than in receive_json so a malformed frame gets an answer, not a crash.
        try:
            message = json.loads(text_data or "")
        except ValueError:
            await self.send_json({"type": "error", "error": "frames must be JSON objects"})
            return
        if not isinstance(message, dict) or message.get("type") != "ping":
            await self.send_json({"type": "error", "error": 'expected {"type": "ping"}'})
            return
        user = self.scope.get("user")
        name = user.get_username() if user is not None and user.is_authenticated else None
        await self.send_json({"type": "pong", "user": name, "echo": message.get("echo")})
