"""A room's last messages, as a newcomer to the table or the page reads them, and those a
table's socket sends its page on connecting (said after the page was drawn)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.safestring import SafeString

from talk import lines
from talk.models import Message

SHOWN = 50


def _readable(reader_id: int | None, blocked: Collection[int], found: QuerySet[Message]) -> QuerySet[Message]:
    found = found.exclude(user_id__in=blocked)
    return found.filter(Q(hidden=False) | Q(user_id=reader_id)) if reader_id else found.filter(hidden=False)


def _payloads(rows: Any, reader_id: int | None, blocked: Collection[int]) -> list[dict[str, Any]]:
    """Rows as ``lines.payload`` has them, oldest first, those the reader sees."""
    shown = [{**row, "name": row["user__username"]} for row in reversed(rows)]
    return [row for row in shown if lines.shown_to(row, reader_id, blocked)]


FIELDS = ("id", "room", "user", "user__username", "text", "preset", "hidden")


def recent_payloads(
    reader_id: int | None, blocked: Collection[int], *, room: str, limit: int = SHOWN, **where: Any
) -> list[dict[str, Any]]:
    """The room's last ``limit`` messages the reader may see, oldest first.
    ``where``: ``table_id=`` or ``tournament_id=``."""
    found = _readable(reader_id, blocked, Message.objects.filter(room=room, **where))
    return _payloads(found.order_by("-created_at", "-pk").values(*FIELDS)[:limit], reader_id, blocked)


def recent(
    reader_id: int | None, blocked: Collection[int], *, room: str, limit: int = SHOWN, **where: Any
) -> list[SafeString]:
    """``recent_payloads`` drawn as lines."""
    return [
        lines.line(row, reader_id)
        for row in recent_payloads(reader_id, blocked, room=room, limit=limit, **where)
    ]


def since(
    reader_id: int | None, blocked: Collection[int], *, table_id: int, rooms: Collection[str], after: int
) -> list[dict[str, Any]]:
    """The messages of the table's ``rooms`` that the reader may see, newer than message
    ``after`` (the newest the page showed), oldest first: what a socket that joined its rooms
    after the page was drawn would otherwise never show. At most ``SHOWN``."""
    found = _readable(
        reader_id, blocked, Message.objects.filter(table_id=table_id, room__in=list(rooms), pk__gt=after)
    )
    return _payloads(found.order_by("-created_at", "-pk").values(*FIELDS)[:SHOWN], reader_id, blocked)
