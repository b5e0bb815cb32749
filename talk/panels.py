"""The chat panels: a table's (on its page and sent again over its socket when the reader's
rooms change), a tournament's, and the finished game's beside its replay."""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from accounts.blocks import blocked_ids
from accounts.models import User
from games.models import Table
from talk import history, rooms, text
from talk.presets import PRESETS

TITLES = {
    rooms.PLAYERS: _("Players' chat"),
    rooms.SPECTATORS: _("Spectators' chat"),
    rooms.TOURNAMENT: _("Tournament chat"),
}


def _reader(user: User | None) -> tuple[int | None, set[int]]:
    if user is None or not user.is_authenticated:
        return None, set()
    return user.pk, blocked_ids(user)


def _presets() -> list[tuple[str, str]]:
    return [(key, str(words)) for key, words in PRESETS.items()]


def table_panel(table: Table, user: User | None, session: SessionBase | None) -> dict[str, Any]:
    """What the table's chat panel shows ``user``: the rooms they read (the last messages of
    each), the room they write in, and the switches."""
    standing = rooms.table_standing(table, user, session) or rooms.standing(
        seated=False, over=False, signed_in=False
    )
    signed_in = user is not None and user.is_authenticated
    hidden = signed_in and bool(getattr(user, "hide_chat", False))
    shown: list[dict[str, Any]] = []
    if table.chat_enabled and not hidden:
        reader, blocked = _reader(user)
        for room in rooms.TABLE_ROOMS:
            if room in standing.reads:
                lines = history.recent(reader, blocked, room=room, table_id=table.pk)
                shown.append({"key": room, "title": TITLES[room], "lines": lines})
    return {
        "table": table,
        "rooms": shown,
        "writes": standing.writes,
        "writes_title": TITLES.get(standing.writes or "", ""),
        "spectators_wait": standing.seated and not standing.over,
        "enabled": table.chat_enabled,
        "hidden": hidden,
        "signed_in": signed_in,
        "creator": signed_in and table.created_by_id == getattr(user, "pk", None),
        "presets": _presets(),
        "max_length": text.MAX_LENGTH,
    }


def render_table_panel(table_id: int, user: User | None, session: SessionBase | None) -> str:
    """The table's chat panel as a socket sends it (it replaces the panel on the page, by its
    id); "" if the table is gone."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return ""
    return render_to_string("talk/table_chat.html", {"chat": table_panel(table, user, session)})


def replay_panel(table: Table, user: User | None, session: SessionBase | None) -> dict[str, Any]:
    """A game's chat beside its replay: both rooms once it is over; while it runs, the rooms
    the reader may read at its table. Read only."""
    panel = table_panel(table, user, session)
    return {"rooms": panel["rooms"], "hidden": panel["hidden"], "enabled": panel["enabled"]}


def tournament_panel(tournament: Any, user: User | None, notice: str = "") -> dict[str, Any]:
    signed_in = user is not None and user.is_authenticated
    hidden = signed_in and bool(getattr(user, "hide_chat", False))
    reader, blocked = _reader(user)
    lines = (
        [] if hidden else history.recent(reader, blocked, room=rooms.TOURNAMENT, tournament_id=tournament.pk)
    )
    return {
        "tournament": tournament,
        "title": TITLES[rooms.TOURNAMENT],
        "lines": lines,
        "since": newest_id(tournament.pk),
        "writes": not hidden and rooms.is_entrant(tournament.pk, user),
        "hidden": hidden,
        "signed_in": signed_in,
        "presets": _presets(),
        "max_length": text.MAX_LENGTH,
        "notice": notice,
        "live": tournament.status in ("open", "running"),
    }


def newest_id(tournament_id: int) -> int:
    """The tournament chat's newest message id (0 for none): what the page's poll compares."""
    from talk.models import Message

    found = (
        Message.objects.filter(room=rooms.TOURNAMENT, tournament_id=tournament_id)
        .order_by("-created_at", "-pk")
        .values_list("pk", flat=True)
        .first()
    )
    return found or 0
