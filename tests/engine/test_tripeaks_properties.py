"""Random legal playouts of Tri-Peaks over many seeds, both layouts (TP-1 .. TP-6, LP-3).

A game cannot last more than 23 draws and 28 plays (TP-3 has no redeal), so a
playout just picks random legal actions, resigning only now and then.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import get_engine
from games.engine.cards import STANDARD_DECK
from games.engine.tripeaks import TriPeaksEngine, TriPeaksState, is_face_up
from tests.engine.solitaire_support import answer

ENGINE = get_engine("tripeaks")
assert isinstance(ENGINE, TriPeaksEngine)

MAX_STEPS = 23 + 28 + 1
CANDIDATES = [*STANDARD_DECK, "draw", "resign"]

configs = st.fixed_dictionaries({}, optional={"face_up": st.booleans()})
seeds = st.integers(0, 2**63 - 1)


def choose(state: TriPeaksState, rnd: random.Random) -> str:
    actions = [str(action) for action in ENGINE.legal_actions(state)]
    if rnd.random() < 0.01:
        return "resign"
    return rnd.choice([action for action in actions if action != "resign"])


def playout(config: dict[str, Any], seed: int, rnd: random.Random) -> tuple[list[TriPeaksState], list[str]]:
    states = [ENGINE.initial_state(config, seed)]
    actions: list[str] = []
    while ENGINE.current_player(states[-1]) is not None:
        assert len(actions) < MAX_STEPS, "the game did not end"
        actions.append(choose(states[-1], rnd))
        states.append(ENGINE.apply(states[-1], actions[-1]))
    return states, actions


def hidden_slots(state: TriPeaksState) -> list[int]:
    return [k for k, card in enumerate(state.layout) if card is not None and not is_face_up(state, k)]


def rehide(state: TriPeaksState, rnd: random.Random) -> TriPeaksState:
    """The same position with every unseen card (face down or in the stock) dealt elsewhere among them."""
    slots = hidden_slots(state)
    hidden = [card for k in slots if (card := state.layout[k]) is not None] + list(state.stock)
    rnd.shuffle(hidden)
    layout = list(state.layout)
    for k, card in zip(slots, hidden[: len(slots)], strict=True):
        layout[k] = card
    return replace(state, layout=tuple(layout), stock=tuple(hidden[len(slots) :]))


@settings(max_examples=100, deadline=None)
@given(config=configs, seed=seeds, rnd=st.randoms(use_true_random=False))
def test_random_playouts_keep_every_invariant(config: dict[str, Any], seed: int, rnd: random.Random) -> None:
    """TP-1 .. TP-6: games end, cards are conserved, apply never mutates, replay reproduces,
    action texts round-trip, and the view shows no face-down or stock card (LP-3)."""
    states, actions = playout(config, seed, rnd)
    assert ENGINE.replay(config, seed, actions) == states
    for state, action in zip(states, [*actions, None], strict=True):
        in_play = [card for card in state.layout if card is not None] + list(state.stock + state.waste)
        assert sorted(in_play) == sorted(STANDARD_DECK)
        assert state.score >= 0
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
        unseen = [*(state.layout[k] for k in hidden_slots(state)), *state.stock]
        assert not any(card in text for card in unseen if card is not None)
        if config.get("face_up"):
            assert hidden_slots(state) == []
        if seed >= 10**6:  # a short seed could match a count by chance
            assert str(seed) not in text


@settings(max_examples=25, deadline=None)
@given(config=configs, seed=seeds, rnd=st.randoms(use_true_random=False))
def test_apply_accepts_exactly_the_legal_actions(
    config: dict[str, Any], seed: int, rnd: random.Random
) -> None:
    """TP-3, TP-4: every possible action text applies if and only if it is listed as legal; a
    refused one raises IllegalAction, leaves the state as it was, and reads the same wherever
    the unseen cards lie (LP-3)."""
    states, _ = playout(config, seed, rnd)
    for state in states:
        legal = {str(action) for action in ENGINE.legal_actions(state)}
        other = rehide(state, rnd)
        for text in CANDIDATES:
            assert (answer(ENGINE, state, text) == "legal") == (text in legal)
            assert answer(ENGINE, state, text) == answer(ENGINE, other, text)
