"""LP-3: ``full_view`` shows a finished solitaire game's every card; ``view`` never does."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from games.engine import View, get_engine
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


def filled(view: View) -> set[str]:
    """The fields ``view`` sets (hidden parts are ``None`` where they are not shown)."""
    return {key for key, value in view.data().items() if value is not None}


def cards_in(view: View) -> set[str]:
    text = json.dumps(view.data())
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
    full = engine.full_view(state)
    # The same shape, plus what was hidden: every field the view fills, the full view fills too.
    assert type(full) is type(shown)
    assert filled(replace(shown, seat=None)) <= filled(full)
    assert full.stock is not None and shown.stock is None
    assert full.seat is None and full.moves == ()  # a full view is for replays: no one acts on it


def test_pyramid_full_view_gives_the_stock_in_order() -> None:
    engine = get_engine("pyramid")
    deck = list(reversed(STANDARD_DECK))
    state = engine.initial_state(None, 0, deck=deck)
    assert engine.full_view(state).stock == tuple(deck[28:])
    assert engine.full_view(state).seed == 0
    assert engine.view(state, 0).stock is None and engine.view(state, None).seed is None
