"""Values every page template needs."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import get_language


def site(request: HttpRequest) -> dict[str, Any]:
    return {"SITE_NAME": settings.SITE_NAME}


def games(request: HttpRequest) -> dict[str, Any]:
    """The games' names for page copy, from the registry (no page lists them by hand)."""
    return _game_words(get_language())


@cache
def _game_words(language: str) -> dict[str, str]:
    """Worded once per process and language: the registry does not change while the site runs."""
    from games import kinds  # the registry imports the apps' models

    return {
        "game_names": kinds.names(kinds.GAMES),
        "table_game_names": kinds.names(kinds.TABLE_GAMES),
        "tournament_game_names": kinds.names(tuple(s for s in kinds.TABLE_GAMES if s.in_tournaments)),
        "game_invitation": kinds.invitation(),
    }
