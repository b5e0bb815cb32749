"""Random legal playouts of whole Tauron Hold-Em matches over many seeds and configs.

At every step: the 55 cards are each in exactly one place, chips are conserved (stacks +
pot + held pot), ``apply`` leaves its input alone, and the legal texts a view offers parse
back to the legal actions and apply. Per playout: the match ends, and replay reproduces
every state. Views (LP-3): re-dealing the cards a seat cannot see leaves its view
unchanged, and a view holds exactly the cards that seat may know, counted card by card
(texts repeat in this deck, so the check counts them where they may appear); the seed
never appears.
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

from games.engine import TABLE_SEAT, get_engine, tauron
from games.engine.tauron import DECK, TauronEngine, TauronState

ENGINE: TauronEngine = tauron.ENGINE
assert get_engine("tauron") is ENGINE
CARD = re.compile(r'"([PGO][123]|X)"')
MAX_STEPS = 5000

configs = st.fixed_dictionaries(
    {
        "players": st.integers(2, 6),
        "hands": st.integers(1, 3),
        "stack": st.sampled_from([2, 4, 30]),
        "max_bet": st.sampled_from([None, 1, 6]),
        "max_raises": st.integers(0, 3),
    },
    optional={"ante": st.just(2)},
)
seeds = st.integers(0, 2**63 - 1)


def check_moves(state: TauronState) -> None:
    """The view of the seat to act offers exactly the legal actions; each text parses back,
    each move's form fields give the same action, and the first and last apply."""
    seat = ENGINE.current_player(state)
    actions = ENGINE.legal_actions(state)
    if seat is None or seat == TABLE_SEAT:
        return
    view = ENGINE.view(state, seat)
    assert list(view.legal) == [str(action) for action in actions]
    for move, action in zip(view.moves, actions, strict=True):
        assert ENGINE.parse_action(move.text) == action and move.kind == action.kind
        fields = (
            {"action": move.kind} if move.amount is None else {"action": move.kind, "amount": move.amount}
        )
        assert ENGINE.action_from_fields(fields) == action
    for text in (view.legal[0], view.legal[-1]):
        ENGINE.apply(state, text)


def check_step(state: TauronState, action: str, total: int) -> TauronState:
    """Apply ``action``, checking that the input is left alone and cards and chips are conserved."""
    before = pickle.dumps(state)
    after = ENGINE.apply(state, action)
    assert pickle.dumps(state) == before, "apply changed its input"
    cards = Counter(after.deck) + Counter(after.board)
    for hole, muck in zip(after.holes, after.mucked, strict=True):
        cards += Counter(hole) + Counter(muck)
    assert cards == Counter(DECK)
    assert sum(after.chips) + after.pot + after.held == total and min(after.chips) >= 0
    return after


def playout(config: dict[str, Any], seed: int, chooser: random.Random) -> tuple[list[TauronState], list[str]]:
    """A whole match of uniformly random legal actions, checking the invariants at each step."""
    states = [ENGINE.initial_state(config, seed)]
    actions: list[str] = []
    while ENGINE.current_player(states[-1]) is not None:
        assert len(actions) < MAX_STEPS, "the match does not end"
        check_moves(states[-1])
        actions.append(str(chooser.choice(ENGINE.legal_actions(states[-1]))))
        states.append(check_step(states[-1], actions[-1], config["players"] * config["stack"]))
    return states, actions


@settings(max_examples=80, deadline=None)
@given(config=configs, seed=seeds, chooser=st.randoms(use_true_random=False))
def test_random_matches_end_conserve_and_replay(
    config: dict[str, Any], seed: int, chooser: random.Random
) -> None:
    """Every match ends with all seats ranked by chips; replaying its actions, as texts or
    parsed, gives the same states (a game is (config, seed, actions))."""
    states, actions = playout(config, seed, chooser)
    outcome = ENGINE.outcome(states[-1])
    assert outcome is not None and sorted(outcome["ranking"]) == list(range(config["players"]))
    by_rank = [outcome["chips"][seat] for seat in outcome["ranking"]]
    assert by_rank == sorted(by_rank, reverse=True)
    assert ENGINE.replay(config, seed, actions) == states
    assert ENGINE.replay(config, seed, [ENGINE.parse_action(a) for a in actions]) == states


def known_cards(state: TauronState, viewer: int | None) -> Counter[str]:
    """Every card text ``viewer`` (``None``: a spectator) may see, as often as its view shows it."""
    seen = Counter(state.board)
    for seat, hole in enumerate(state.holes):
        if seat == viewer or state.shown[seat]:
            seen.update(hole)
    if viewer is not None:
        seen.update(state.holes[viewer])  # again, as the view's own ``hole``
    if state.last is not None:
        seen.update(state.last.board)
        for hand in state.last.shown:
            seen.update(hand.hole * 2 + state.last.board)  # the hole, then hole + board split up
    return seen


def cards_in(text: str) -> Counter[str]:
    """The card texts in a view's JSON: every string that is exactly one card."""
    return Counter(CARD.findall(text))


def redeal_hidden(state: TauronState, seat: int, rng: random.Random) -> TauronState:
    """The same state with every card ``seat`` cannot see shuffled among the hidden places:
    the deck, the others' unshown holes and every folded hole but its own."""
    hidden = [other for other in range(state.rules.players) if other != seat and not state.shown[other]]
    others = [other for other in range(state.rules.players) if other != seat]
    pool = (
        list(state.deck)
        + [c for o in hidden for c in state.holes[o]]
        + [c for o in others for c in state.mucked[o]]
    )
    rng.shuffle(pool)
    cards = iter(pool)
    deck = tuple(next(cards) for _ in state.deck)
    holes = tuple(
        tuple(next(cards) for _ in hole) if o in hidden else hole for o, hole in enumerate(state.holes)
    )
    mucked = tuple(
        tuple(next(cards) for _ in muck) if o in others else muck for o, muck in enumerate(state.mucked)
    )
    return replace(state, deck=deck, holes=holes, mucked=mucked)


@settings(max_examples=25, deadline=None)
@given(config=configs, seed=seeds, chooser=st.randoms(use_true_random=False))
def test_views_hide_what_they_should(config: dict[str, Any], seed: int, chooser: random.Random) -> None:
    """LP-3: a seat's view does not depend on cards it cannot see and holds no card beyond
    its own hole, the board and shown hands; a spectator's holds only public cards."""
    states, _ = playout(config, seed, chooser)
    for state in [*states[:: max(1, len(states) // 12)], states[-1]]:
        spectator = ENGINE.view(state, None)
        assert cards_in(json.dumps(spectator.data())) == known_cards(state, None)
        assert ENGINE.view(state, TABLE_SEAT) == spectator
        for seat in range(config["players"]):
            view = ENGINE.view(state, seat)
            text = json.dumps(view.data())
            assert cards_in(text) == known_cards(state, seat)
            assert "seed" not in text and view.deck is None
            if state.seed > 10**9:  # a short number could be a chip count
                assert str(state.seed) not in text
            assert ENGINE.view(redeal_hidden(state, seat, chooser), seat) == view
            if ENGINE.current_player(state) != seat:
                assert view.moves == ()
