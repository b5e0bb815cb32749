"""Built-in bots (LP-4): each decides from its own seat's view alone.

A game's bot is its engine's ``bot_action(view, seed) -> action text``. It receives exactly
what ``engine.view(state, seat)`` gives that seat (whose ``moves`` are the seat's legal
actions), so it cannot read a hidden card even by mistake. Its only other
input is a seed derived from the game's seed, the seat and the ply, which makes it
deterministic without telling it anything about the deal.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.engine import TABLE_SEAT, get_engine
from games.engine.rng import derive_seed


def bot_seed(game_seed: int, seat: int, ply: int) -> int:
    """The seed a bot uses for its move at ``ply`` (the number of actions so far)."""
    return derive_seed(game_seed, "bot", seat, ply)


def bots_play(game: str, config: Mapping[str, object], seed: int) -> list[str]:
    """A whole game played by the bots at every seat, as the site would play it: its action
    texts (the table's own steps, dealing and tie replays, take its first legal action)."""
    engine = get_engine(game)
    state = engine.initial_state(dict(config), seed)
    texts: list[str] = []
    while (seat := engine.current_player(state)) is not None:
        if seat == TABLE_SEAT:
            text = str(engine.legal_actions(state)[0])
        else:
            text = engine.bot_action(engine.view(state, seat), bot_seed(seed, seat, len(texts)))
        texts.append(text)
        state = engine.apply(state, text)
    return texts
