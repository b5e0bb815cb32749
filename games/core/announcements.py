"""What is said to a group of sockets once a change has committed.

A table's change is one ``TableChanged``: the table, its game and the version, and nothing
else. Every socket at the table then draws its own seat's view of that version (LP-3): an
announcement never carries a card, nor a move's words (a Triad discard's names the cards
thrown), so nothing hidden ever travels through Redis.

A change made on a socket's behalf (on the database thread) hands its announcements back to
the consumer, which sends them from the event loop (``send_async``): sent from the thread,
each would hold it until the loop got round to the send, and every move of the process
would wait behind it. Everything else (a view, a Celery task) sends at once (``send``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


@dataclass(frozen=True)
class TableChanged:
    table_id: int
    game_id: int | None
    """``None`` while the table is open (its seats change without a version)."""
    version: int | None
    lobby: bool = False
    """Whether the lobby's list changed too (seats, or the table's status)."""

    def messages(self) -> list[tuple[str, dict[str, Any]]]:
        said: list[tuple[str, dict[str, Any]]] = [
            (
                table_group(self.table_id),
                {
                    "type": "table.changed",
                    "table": self.table_id,
                    "game": self.game_id,
                    "version": self.version,
                },
            )
        ]
        if self.lobby:
            said.append((LOBBY_GROUP, {"type": "lobby.changed"}))
        return said


def send(events: Iterable[TableChanged]) -> None:
    for event in events:
        for group, message in event.messages():
            send_to_group(group, message)


async def send_async(events: Iterable[TableChanged]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for event in events:
        for group, message in event.messages():
            try:
                await layer.group_send(group, message)
            except Exception as exc:
                _lost(group, exc)


def send_to_group(group: str, message: dict[str, Any]) -> None:
    """``message`` to ``group``, from synchronous code: after commit only, so that what it tells
    of can be read."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception as exc:
        _lost(group, exc)


def _lost(group: str, exc: Exception) -> None:
    # The change stands: the table's sockets find the version they missed at their process's
    # next stale-socket check (LP-2, games.live.stale_sockets).
    logger.warning("a message to %s was lost (%s: %s)", group, type(exc).__name__, exc)
