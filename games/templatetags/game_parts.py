"""``{% include game|game_part:"variant" %}``: a game's own template for a part of a page."""

from __future__ import annotations

from django import template

from games import kinds

register = template.Library()


@register.filter
def game_part(game: str, part: str) -> str:
    return kinds.get(game).template(part)
