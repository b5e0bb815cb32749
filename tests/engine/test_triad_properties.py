"""Random legal playouts of whole Triad matches over many seeds and configs.

At every step: the 55 cards are each in exactly one place, chips are conserved, ``apply``
leaves its input alone. Per playout: the match ends, replay reproduces every state.
Views (LP-3): re-dealing the cards a seat cannot see leaves its view unchanged, and a
spectator's view holds exactly the public cards, counted card by card (texts repeat in
this deck, so the check counts them where they may appear).
"""

from __future__ import annotations

import json
import pickle
import random
import re
from collections import Counter
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import TABLE_SEAT, get_engine, triad
from games.engine.triad import DECK, TriadEngine, TriadState

ENGINE: TriadEngine = triad.ENGINE
assert get_engine("triad") is ENGINE
CARD = re.compile(r"[PGO][123]|X")
MAX_STEPS = 5000

configs = st.fixed_dictionaries(
    {
        "players": st.integers(2, 6),
        "cards": st.sampled_from([6, 8]),
        "hands": st.integers(1, 3),
        "stack": st.sampled_from([2, 4, 30]),
        "max_bet": st.sampled_from([None, 1, 6]),
        "max_raises": st.integers(0, 3),
        "face_up": st.booleans(),
    },
    optional={"no_discard": st.just(True), "discard_twice": st.just(True), "ante": st.just(2)},
).filter(lambda config: not (config.get("no_discard") and config.get("discard_twice")))
seeds = st.integers(0, 2**63 - 1)


def playout(config: dict[str, Any], seed: int, chooser: random.Random) -> tuple[list[TriadState], list[str]]:
    """A whole match of uniformly random legal actions, checking the per-step invariants."""
    states = [ENGINE.initial_state(config, seed)]
    actions: list[str] = []
    total = config["players"] * config["stack"]
    while ENGINE.current_player(states[-1]) is not None:
        assert len(actions) < MAX_STEPS, "the match does not end"
        state = states[-1]
        before = pickle.dumps(state)
        action = str(chooser.choice(ENGINE.legal_actions(state)))
        after = ENGINE.apply(state, action)
        assert pickle.dumps(state) == before, "apply changed its input"
        places = [after.deck, after.pile, *after.hands, *after.mucked]
        assert sum((Counter(place) for place in places), Counter()) == Counter(DECK)
        assert sum(after.chips) + after.pot + after.held == total
        assert min(after.chips) >= 0
        states.append(after)
        actions.append(action)
    return states, actions


@settings(max_examples=120, deadline=None)
@given(config=configs, seed=seeds, chooser=st.randoms(use_true_random=False))
def test_random_matches_end_conserve_and_replay(
    config: dict[str, Any], seed: int, chooser: random.Random
) -> None:
    states, actions = playout(config, seed, chooser)
    outcome = ENGINE.outcome(states[-1])
    assert outcome is not None
    assert sorted(outcome["ranking"]) == list(range(config["players"]))
    chips = outcome["chips"]
    assert all(chips[a] >= chips[b] for a, b in zip(outcome["ranking"], outcome["ranking"][1:], strict=False))
    assert ENGINE.replay(config, seed, actions) == states
    assert ENGINE.replay(config, seed, [ENGINE.parse_action(a) for a in actions]) == states


def public_cards(state: TriadState) -> Counter[str]:
    """Every card text a spectator may see, as often as the view may show it."""
    seen: Counter[str] = Counter()
    for seat, hand in enumerate(state.hands):
        if state.rules.face_up or state.shown[seat]:
            seen.update(hand)
    if state.last is not None:
        for _, cards in state.last.shown:
            seen.update(cards * 2)  # the cards, then again split into pyramid and kickers
    return seen


def cards_in(data: Any) -> Counter[str]:
    if isinstance(data, dict):
        return sum((cards_in(value) for value in data.values()), Counter())
    if isinstance(data, list):
        return sum((cards_in(value) for value in data), Counter())
    return Counter([data]) if isinstance(data, str) and CARD.fullmatch(data) else Counter()


def redeal_hidden(state: TriadState, seat: int, rng: random.Random) -> TriadState:
    """The same state with every card ``seat`` cannot see shuffled among the hidden places."""
    hidden = [
        other
        for other in range(state.rules.players)
        if other != seat and not state.rules.face_up and not state.shown[other]
    ]
    others = [other for other in range(state.rules.players) if other != seat]
    pool = (
        list(state.deck)
        + [c for o in hidden for c in state.hands[o]]
        + [c for o in others for c in state.mucked[o]]
    )
    rng.shuffle(pool)
    cards = iter(pool)
    deck = tuple(next(cards) for _ in state.deck)
    hands = tuple(
        tuple(next(cards) for _ in hand) if o in hidden else hand for o, hand in enumerate(state.hands)
    )
    mucked = tuple(
        tuple(next(cards) for _ in muck) if o in others else muck for o, muck in enumerate(state.mucked)
    )
    return replace(state, deck=deck, hands=hands, mucked=mucked)


@settings(max_examples=25, deadline=None)
@given(config=configs, seed=seeds, chooser=st.randoms(use_true_random=False))
def test_views_hide_what_they_should(config: dict[str, Any], seed: int, chooser: random.Random) -> None:
    """LP-3: a seat's view does not depend on cards it cannot see; a spectator sees only public cards."""
    states, _ = playout(config, seed, chooser)
    for state in [*states[:: max(1, len(states) // 12)], states[-1]]:
        spectator = ENGINE.view(state, None)
        assert cards_in(json.loads(json.dumps(spectator.data()))) == public_cards(state)
        assert ENGINE.view(state, TABLE_SEAT) == spectator
        for seat in range(config["players"]):
            view = ENGINE.view(state, seat)
            assert "seed" not in view.data()
            if state.seed > 10**9:  # a short number could be a chip count
                assert str(state.seed) not in json.dumps(view.data())
            assert ENGINE.view(redeal_hidden(state, seat, chooser), seat) == view
            if ENGINE.current_player(state) == seat:
                assert view.legal == tuple(str(a) for a in ENGINE.legal_actions(state))
                assert view.moves == tuple(a.move() for a in ENGINE.legal_actions(state))
            else:
                assert view.legal == ()
