"""Pure rule engines for the Pyramid family of card games.

``get_engine(name)`` returns the engine for ``"pyramid"``, ``"tripeaks"``, ``"triad"``
or ``"blocks"``. Nothing under this package imports Django, Channels or Celery.
"""

from __future__ import annotations

import importlib
from typing import Any

from games.engine.base import TABLE_SEAT, Engine, IllegalAction, ReplayError

GAMES: tuple[str, ...] = ("pyramid", "tripeaks", "triad", "blocks")

__all__ = ["GAMES", "TABLE_SEAT", "Engine", "IllegalAction", "ReplayError", "get_engine"]


def get_engine(name: str) -> Engine[Any, Any]:
    """The engine of game ``name``; ``ValueError`` for a game we do not have."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; known games: {list(GAMES)}")
    engine: Engine[Any, Any] = importlib.import_module(f"games.engine.{name}").ENGINE
    return engine
