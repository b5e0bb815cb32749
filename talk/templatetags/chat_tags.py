"""``{% table_chat table %}``, ``{% tournament_chat tournament %}`` and ``{% replay_chat record %}``:
the chat panels, drawn with the page's person and session."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import GameRecord, Table
from talk import panels

register = template.Library()


def _person(context: template.Context) -> Any:
    request = context.get("request")
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


@register.inclusion_tag("talk/table_chat.html", takes_context=True)
def table_chat(context: template.Context, table: Table) -> dict[str, Any]:
    request = context.get("request")
    chat = panels.table_panel(table, _person(context), getattr(request, "session", None))
    return {"chat": chat, "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("talk/tournament_chat.html", takes_context=True)
def tournament_chat(context: template.Context, tournament: Any) -> dict[str, Any]:
    return {
        "chat": panels.tournament_panel(tournament, _person(context)),
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("talk/replay_chat.html", takes_context=True)
def replay_chat(context: template.Context, record: GameRecord | None) -> dict[str, Any]:
    """A table game's chat; nothing for a solitaire game or an imported one (no table)."""
    table = None if record is None or record.pk is None else Table.objects.filter(record=record).first()
    if table is None:
        return {"chat": None}
    request = context.get("request")
    return {"chat": panels.replay_panel(table, _person(context), getattr(request, "session", None))}
