"""``{% include game|game_part:"variant" %}``: a game's own template for a part of a page;
``config|full_config:game``: the config it is given, with the game's defaults filled in."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from games import kinds

register = template.Library()


@register.filter
def game_part(game: str, part: str) -> str:
    return kinds.get(game).template(part)


@register.filter
def full_config(config: Mapping[str, Any] | None, game: str) -> Mapping[str, Any]:
    """A config saved without the options left at their defaults (a tournament's) says them
    all, as the games it starts will play them; one the engine refuses is shown as it is."""
    try:
        return kinds.get(game).engine.normalize_config(dict(config or {}))
    except ValueError:
        return config or {}
