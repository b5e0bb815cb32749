"""Random legal playouts of Pyramid Poker (DESIGN.md, "Tests we expect"; LP-3).

Every playout must end; every block is in exactly one place at every step; ``apply``
never changes its input; ``replay`` rebuilds every state; a seat's view is the same
whatever the blocks it cannot see are; no view shows a block its viewer may not know.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import TABLE_SEAT, get_engine
from games.engine.base import MAX_SEED
from games.engine.blocks import BLOCKS, JOKERS, BlocksState
from games.engine.rng import SeededRNG, shuffled

ENGINE = get_engine("blocks")
SEEDS = st.integers(0, MAX_SEED)
CONFIGS = st.sampled_from([None, {"scoring": "advanced"}, {"scoring": "advanced", "target": 11}])
BLOCK_SET = frozenset(BLOCKS)


def locations(state: BlocksState) -> list[str]:
    """Every block of the current deal, wherever it is."""
    out = [*state.supplies[0], *state.supplies[1], *state.general, *state.revealed, *state.discards]
    out += [block[0] for block in state.pyramid if block is not None]
    out += [card for seat in state.hands for hand in seat for card in hand]
    if state.holding is not None:
        out.append(state.holding.face)
    return out


def public(state: BlocksState) -> set[str]:
    cards = {*state.revealed, *state.discards}
    cards |= {card for seat in state.hands for hand in seat for card in hand}
    cards |= {card for result in state.results for seat in result.hands for hand in seat for card in hand}
    if state.holding is not None and state.holding.placer is None:
        cards.add(state.holding.face)
    return cards


def known_to(state: BlocksState, seat: int) -> set[str]:
    cards = public(state) | {block[0] for block in state.pyramid if block is not None and block[1] == seat}
    if state.phase == "build" and state.to_act == seat:
        cards.add(state.supplies[seat][0])
    if state.holding is not None and state.phase == "hand" and seat in (state.to_act, state.holding.placer):
        cards.add(state.holding.face)
    return cards


def card_texts(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        if data in BLOCK_SET:
            yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from card_texts(value)
    elif isinstance(data, (list, tuple)):
        for item in data:
            yield from card_texts(item)


def random_playout(
    config: dict[str, Any] | None, seed: int, choices: int
) -> tuple[list[BlocksState], list[str]]:
    rng = SeededRNG(choices)
    states, actions = [ENGINE.initial_state(config, seed)], []
    while ENGINE.current_player(states[-1]) is not None:
        legal = ENGINE.legal_actions(states[-1])
        action = str(legal[rng.below(len(legal))])
        actions.append(action)
        states.append(ENGINE.apply(states[-1], action))
    return states, actions


@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, config=CONFIGS, choices=SEEDS)
def test_random_playouts_end_conserve_blocks_and_replay(seed: int, config: Any, choices: int) -> None:
    states, actions = random_playout(config, seed, choices)
    outcome = ENGINE.outcome(states[-1])
    assert outcome is not None and outcome["winner"] in (0, 1)
    scores = outcome["scores"]
    assert scores[outcome["winner"]] > scores[1 - outcome["winner"]]
    for state in states:
        assert sorted(locations(state)) == sorted(BLOCKS)
    assert ENGINE.replay(config, seed, actions) == states


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, choices=SEEDS)
def test_apply_never_mutates_and_views_show_only_what_a_seat_knows(seed: int, choices: int) -> None:
    rng = SeededRNG(choices)
    state = ENGINE.initial_state(None, seed)
    while True:
        snapshot = copy.deepcopy(state)
        spectator = ENGINE.view(state, None)
        assert set(card_texts(spectator.data())) <= public(state)
        for seat in (0, 1):
            view = ENGINE.view(state, seat)
            assert set(card_texts(view.data())) <= known_to(state, seat)
            legal = tuple(str(a) for a in ENGINE.legal_actions(state))
            assert view.legal == (legal if ENGINE.current_player(state) == seat else ())
        if ENGINE.current_player(state) is None:
            break
        legal = ENGINE.legal_actions(state)
        after = ENGINE.apply(state, legal[rng.below(len(legal))])
        assert state == snapshot and after is not state
        if ENGINE.current_player(after) == TABLE_SEAT:
            after = ENGINE.apply(after, "tie-replay")
        state = after


@settings(max_examples=60, deadline=None)
@given(
    seed=SEEDS,
    config=CONFIGS,
    choices=SEEDS,
    cut=st.integers(0, 95),
    seat=st.sampled_from([0, 1, None]),
    redeal=SEEDS,
)
def test_redealing_unseen_blocks_leaves_a_view_unchanged(
    seed: int, config: Any, choices: int, cut: int, seat: int | None, redeal: int
) -> None:
    deck = shuffled(BLOCKS, seed)
    rng = SeededRNG(choices)
    state, actions = ENGINE.initial_state(config, seed, deck), []
    # Only the first deal comes from ``deck``; later games are dealt from the seed.
    while len(actions) < cut and state.game == 0 and state.phase not in ("over", "tie-replay"):
        legal = ENGINE.legal_actions(state)
        actions.append(str(legal[rng.below(len(legal))]))
        state = ENGINE.apply(state, actions[-1])
    if state.game != 0:
        state = ENGINE.replay(config, seed, actions[:-1], deck)[-1]
        actions.pop()
    hidden = sorted(set(BLOCKS) - (public(state) if seat is None else known_to(state, seat)))
    mapping = dict(zip(hidden, SeededRNG(redeal).shuffled(hidden), strict=True))
    held = state.holding.face if state.holding is not None and state.phase == "hand" else None
    if held in mapping and mapping[held] in JOKERS:
        # A taken Joker is shown at once (BL-5), so every viewer knows a held block is no
        # Joker: a re-deal that makes it one is not a deal this viewer cannot rule out.
        swap = next(b for b in hidden if b != held and mapping[b] not in JOKERS)
        mapping[held], mapping[swap] = mapping[swap], mapping[held]
    other_deck = [mapping.get(block, block) for block in deck]
    other = ENGINE.replay(config, seed, actions, other_deck)[-1]
    assert ENGINE.view(other, seat) == ENGINE.view(state, seat)


@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, config=CONFIGS, choices=SEEDS)
def test_each_place_shows_its_face_to_its_placer_alone(seed: int, config: Any, choices: int) -> None:
    """BL-3 place by place: a seat's pyramid is made from the spectators' (engine's
    ``_pyramid_view``), and must still show the seat every block it placed, and no other."""
    states, _ = random_playout(config, seed, choices)
    for state in states:
        for viewer in (None, 0, 1, "all"):
            view = ENGINE.full_view(state) if viewer == "all" else ENGINE.view(state, viewer)
            for place, block in zip(view.pyramid, state.pyramid, strict=True):
                assert place.filled == (block is not None)
                assert place.placer == (None if block is None else block[1])
                seen = block is not None and viewer in ("all", block[1])
                assert place.face == (block[0] if seen else None)
