"""Built-in bots (LP-4): each decides from its own seat's view alone.

A game's bot is its engine's ``bot_action(view, seed) -> action text``. It receives exactly
what ``engine.view(state, seat)`` gives that seat (whose ``moves`` are the seat's legal
actions), so it cannot read a hidden card even by mistake. Its only other
input is a seed derived from the game's seed, the seat and the ply, which makes it
deterministic without telling it anything about the deal.
"""

from __future__ import annotations

from games.engine.rng import derive_seed


def bot_seed(game_seed: int, seat: int, ply: int) -> int:
    """The seed a bot uses for its move at ``ply`` (the number of actions so far)."""
    return derive_seed(game_seed, "bot", seat, ply)
