"""Random legal playouts of Pyramid over many seeds and configs (PY-1 .. PY-8, LP-3).

Every game ends on its own (PY-5), so a playout just picks random legal actions,
resigning only now and then, and checks the invariants at every step.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from itertools import combinations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import get_engine
from games.engine.cards import STANDARD_DECK, rank_value
from games.engine.pyramid import PyramidEngine, PyramidState
from tests.engine.solitaire_support import answer

ENGINE = get_engine("pyramid")
assert isinstance(ENGINE, PyramidEngine)

MAX_STEPS = 3000
"""More than any game lasts: at most 53 passes (PY-5) of 31 draws and a redeal, and 52 removals."""

# Every action text that could ever be legal: each card alone, each pair making 13, the words.
CANDIDATES = [
    *STANDARD_DECK,
    *(
        str(ENGINE.parse_action(f"{a}+{b}"))
        for a, b in combinations(STANDARD_DECK, 2)
        if rank_value(a) + rank_value(b) == 13
    ),
    "draw",
    "redeal",
    "resign",
]


def _playable(config: dict[str, Any]) -> dict[str, Any]:
    """Par scoring only goes with up to two redeals (PY-8)."""
    if config.get("scoring") == "par" and config.get("redeals", 2) not in (0, 1, 2):
        config = {**config, "scoring": "points"}
    return config


configs = st.fixed_dictionaries(
    {},
    optional={
        "rows": st.sampled_from([7, 6]),
        "redeals": st.one_of(st.none(), st.integers(0, 3)),
        "reserve": st.booleans(),
        "clear_the_board": st.booleans(),
        "waste_off_limits": st.booleans(),
        "reshuffle": st.booleans(),
        "overlap_pairs": st.booleans(),
        "scoring": st.sampled_from(["points", "par"]),
    },
).map(_playable)
seeds = st.integers(0, 2**63 - 1)


def cards_in_play(state: PyramidState) -> list[str]:
    return [
        *(card for card in state.tableau if card is not None),
        *(card for card in state.reserve if card is not None),
        *state.stock,
        *state.waste,
        *state.removed,
    ]


def choose(state: PyramidState, rnd: random.Random) -> str:
    actions = [str(action) for action in ENGINE.legal_actions(state)]
    if rnd.random() < 0.005:
        return "resign"
    return rnd.choice([action for action in actions if action != "resign"])


def playout(config: dict[str, Any], seed: int, rnd: random.Random) -> tuple[list[PyramidState], list[str]]:
    states = [ENGINE.initial_state(config, seed)]
    actions: list[str] = []
    while ENGINE.current_player(states[-1]) is not None:
        assert len(actions) < MAX_STEPS, "the game did not end"
        actions.append(choose(states[-1], rnd))
        states.append(ENGINE.apply(states[-1], actions[-1]))
    return states, actions


def rehide(state: PyramidState, rnd: random.Random) -> PyramidState:
    """The same position with the unseen cards (the stock below its top) in another order."""
    hidden = list(state.stock[1:])
    rnd.shuffle(hidden)
    return replace(state, stock=state.stock[:1] + tuple(hidden))


@settings(max_examples=150, deadline=None)
@given(config=configs, seed=seeds, rnd=st.randoms(use_true_random=False))
def test_random_playouts_keep_every_invariant(config: dict[str, Any], seed: int, rnd: random.Random) -> None:
    """PY-1 .. PY-8: games end, cards are conserved, apply never mutates, replay reproduces,
    action texts round-trip, and the view hides the stock below its top (LP-3)."""
    states, actions = playout(config, seed, rnd)
    assert ENGINE.replay(config, seed, actions) == states
    for state, action in zip(states, [*actions, None], strict=True):
        assert sorted(cards_in_play(state)) == sorted(STANDARD_DECK)
        assert state.points >= 0
        legal = ENGINE.legal_actions(state)
        assert (ENGINE.current_player(state) == 0) == bool(legal) == (ENGINE.outcome(state) is None)
        for legal_action in legal:
            assert ENGINE.parse_action(str(legal_action)) == legal_action
        before = (repr(state), hash(state))
        view = ENGINE.view(state, 0)
        if action is not None:
            ENGINE.apply(state, action)
        assert (repr(state), hash(state)) == before
        assert ENGINE.view(rehide(state, rnd), 0) == view
        text = json.dumps(view.data())
        assert not any(card in text for card in state.stock[1:])
        if seed >= 10**6:  # a short seed could match a count by chance
            assert str(seed) not in text


@settings(max_examples=10, deadline=None)
@given(config=configs, seed=seeds, rnd=st.randoms(use_true_random=False))
def test_apply_accepts_exactly_the_legal_actions(
    config: dict[str, Any], seed: int, rnd: random.Random
) -> None:
    """PY-3 .. PY-5: every possible action text applies if and only if it is listed as legal; a
    refused one raises IllegalAction, leaves the state as it was, and reads the same whatever
    the order of the unseen stock (LP-3)."""
    states, _ = playout(config, seed, rnd)
    for state in states[:: max(1, len(states) // 25)] + states[-1:]:
        legal = {str(action) for action in ENGINE.legal_actions(state)}
        other = rehide(state, rnd)
        for text in CANDIDATES:
            assert (answer(ENGINE, state, text) == "legal") == (text in legal)
            assert answer(ENGINE, state, text) == answer(ENGINE, other, text)


@settings(max_examples=30, deadline=None)
@given(seed=seeds, rnd=st.randoms(use_true_random=False))
def test_unlimited_redeals_still_end(seed: int, rnd: random.Random) -> None:
    """PY-5: with unlimited redeals every pass must remove a card, so even a player who only
    draws and redeals reaches the end."""
    state = ENGINE.initial_state({"redeals": None}, seed)
    steps = 0
    while ENGINE.current_player(state) is not None:
        legal = [str(action) for action in ENGINE.legal_actions(state)]
        moves = [action for action in ("draw", "redeal") if action in legal]
        state = ENGINE.apply(state, moves[0] if moves and rnd.random() < 0.95 else rnd.choice(legal[:-1]))
        steps += 1
        assert steps < MAX_STEPS
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome["reason"] in {"idle_pass", "no_moves", "cleared"}
