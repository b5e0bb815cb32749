"""The header's notices on every page (templates/base.html)."""

from __future__ import annotations

from typing import Any

from django import template

from accounts import notices

register = template.Library()


@register.simple_tag
def unread_notices(user: Any) -> notices.Unread | None:
    """A signed-in person's unread notices (one query); ``None`` for anyone else."""
    if not getattr(user, "is_authenticated", False):
        return None
    return notices.unread(user)
