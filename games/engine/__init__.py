"""Pure rule engines for the Pyramid family of card games.

``get_engine(name)`` returns the engine of a game. A game's engine is the ``ENGINE`` of
the module ``games.engine.<name>``: adding a game's module is all it takes for the engine
package to know it (the site's list of games is ``games.kinds``). Nothing under this
package imports Django, Channels or Celery.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

from games.engine.base import FORFEIT, TABLE_SEAT, Engine, IllegalAction, Move, ReplayError, View

__all__ = [
    "FORFEIT",
    "TABLE_SEAT",
    "Engine",
    "IllegalAction",
    "Move",
    "ReplayError",
    "View",
    "engine_names",
    "get_engine",
]


@cache
def engine_names() -> tuple[str, ...]:
    """Every game the engine package has rules for, by module name."""
    return tuple(
        info.name
        for info in pkgutil.iter_modules(__path__)
        if isinstance(getattr(importlib.import_module(f"{__name__}.{info.name}"), "ENGINE", None), Engine)
    )


def get_engine(name: str) -> Engine[Any, Any]:
    """The engine of game ``name``; ``ValueError`` for a game we do not have."""
    if not isinstance(name, str) or name not in engine_names():
        raise ValueError(f"unknown game {name!r}; known games: {list(engine_names())}")
    return _engine(name)


@cache
def _engine(name: str) -> Engine[Any, Any]:
    # Looked up a few times for every frame a live table draws: importing anew was a
    # fortieth of the drawing.
    engine: Engine[Any, Any] = importlib.import_module(f"{__name__}.{name}").ENGINE
    return engine
