"""LP-3: ``full_view`` shows a finished solitaire game's every card; ``view`` never does."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import get_engine
from games.engine.cards import STANDARD_DECK


def played(game: str, seed: int, moves: int) -> object:
    engine = get_engine(game)
    chooser = random.Random(seed)
    state = engine.initial_state(None, seed)
    for _ in range(moves):
        actions = [a for a in engine.legal_actions(state) if str(a) != "resign"]
        if not actions:
            break
        state = engine.apply(state, chooser.choice(actions))
    return state


def cards_in(data: object) -> set[str]:
    text = json.dumps(data)
    return {card for card in STANDARD_DECK if f'"{card}"' in text}


@pytest.mark.parametrize("game", ["pyramid", "tripeaks"])
@pytest.mark.parametrize("moves", [0, 10, 1000])
def test_full_view_shows_every_card_and_view_does_not(game: str, moves: int) -> None:
    engine = get_engine(game)
    state = played(game, seed=moves + 7, moves=moves)
    assert cards_in(engine.full_view(state)) == set(STANDARD_DECK)
    shown = engine.view(state, 0)
    if moves == 0:
        assert len(cards_in(shown)) < len(STANDARD_DECK)  # the stock (and face-down cards) stay hidden
    assert set(shown) <= set(engine.full_view(state))  # the same shape, plus what was hidden


def test_pyramid_full_view_gives_the_stock_in_order() -> None:
    engine = get_engine("pyramid")
    deck = list(reversed(STANDARD_DECK))
    state = engine.initial_state(None, 0, deck=deck)
    assert engine.full_view(state)["stock"] == deck[28:]
    assert "stock" not in engine.view(state, 0) and "seed" not in engine.view(state, None)
