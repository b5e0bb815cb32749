"""A room's last messages, as a newcomer to the table or the page reads them."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db.models import Q
from django.utils.safestring import SafeString

from talk import lines
from talk.models import Message

SHOWN = 50


def recent(
    reader_id: int | None, blocked: Collection[int], *, room: str, limit: int = SHOWN, **where: Any
) -> list[SafeString]:
    """The room's last ``limit`` messages the reader may see, oldest first, drawn as lines.
    ``where``: ``table_id=`` or ``tournament_id=``."""
    found = Message.objects.filter(room=room, **where).exclude(user_id__in=blocked)
    found = found.filter(Q(hidden=False) | Q(user_id=reader_id)) if reader_id else found.filter(hidden=False)
    rows = found.order_by("-created_at", "-pk").values(
        "id", "room", "user", "user__username", "text", "preset", "hidden"
    )[:limit]
    shown = [
        {**row, "name": row["user__username"]}
        for row in reversed(rows)
        if lines.shown_to({**row}, reader_id, blocked)
    ]
    return [lines.line(row, reader_id) for row in shown]
