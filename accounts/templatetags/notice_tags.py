"""The header's notices and "Your turn" count on every page (templates/base.html)."""

from __future__ import annotations

from typing import Any

from django import template

from accounts import notices, waiting

register = template.Library()


@register.simple_tag
def unread_notices(user: Any) -> notices.Unread | None:
    """A signed-in person's unread notices (one query); ``None`` for anyone else."""
    if not getattr(user, "is_authenticated", False):
        return None
    return notices.unread(user)


@register.simple_tag
def waiting_turns(user: Any) -> int | None:
    """How many turn-based games wait for a signed-in person's move (one indexed count, LP-8);
    ``None`` for anyone else."""
    if not getattr(user, "is_authenticated", False):
        return None
    return waiting.count(user.pk)
