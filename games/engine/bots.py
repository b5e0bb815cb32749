"""Built-in bots (LP-4): each decides from its own seat's view alone.

A bot is a function ``choose(view, seed) -> action text``. It receives exactly what
``engine.view(state, seat)`` gives that seat (which lists the seat's legal actions
under ``"legal"``), so it cannot read a hidden card even by mistake. Its only other
input is a seed derived from the game's seed, the seat and the ply, which makes it
deterministic without telling it anything about the deal.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from games.engine.rng import derive_seed

Bot = Callable[[dict[str, Any], int], str]

_BOTS = {"triad": "games.engine.triad_bot", "blocks": "games.engine.blocks_bot"}


def get_bot(game: str) -> Bot:
    """The built-in bot of a multiplayer game; ``ValueError`` if it has none."""
    if game not in _BOTS:
        raise ValueError(f"no built-in bot for {game!r}; bots exist for {sorted(_BOTS)}")
    return importlib.import_module(_BOTS[game]).choose


def bot_seed(game_seed: int, seat: int, ply: int) -> int:
    """The seed a bot uses for its move at ``ply`` (the number of actions so far)."""
    return derive_seed(game_seed, "bot", seat, ply)
