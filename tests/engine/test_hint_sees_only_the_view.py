"""LP-7: a hint is computed from the player's view alone.

Twins are two positions that differ only in what the player cannot see (LP-3): Pyramid's
stock below its top card (and, with PY-6 reshuffle, the seed, which decides the shuffles
to come); Tri-Peaks' face-down layout cards and its stock. Their views are equal, so
their hints must be: the tests check both, over many positions of both games and their
variants, and that each hint is a legal move.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from games.engine import get_engine, rng
from games.engine.solitaire_common import Resign
from games.engine.solver import HINT_SOLVE_NODES, hint, solve, solve_state
from games.engine.solver.hint import HINT_SAMPLES, hidden_cards, sample_states
from games.engine.solver.hint_check import count_differences, full_knowledge_hint, random_positions
from games.engine.tripeaks import is_face_up

VARIANTS: list[tuple[str, dict[str, Any] | None]] = [
    ("pyramid", None),
    ("pyramid", {"rows": 6, "reserve": True}),
    ("pyramid", {"redeals": None}),
    ("pyramid", {"reshuffle": True}),
    ("pyramid", {"reshuffle": True, "redeals": None}),
    ("pyramid", {"waste_off_limits": True, "overlap_pairs": True}),
    ("pyramid", {"scoring": "par", "clear_the_board": True}),
    ("tripeaks", None),
    ("tripeaks", {"face_up": True}),
]


def positions(game: str, config: dict[str, Any] | None, count: int, seed: int) -> list[Any]:
    """Running positions from the deal (no move yet) to 40 moves in, by seeded random play."""
    return random_positions(game, count, config=config, seed=seed, fewest_moves=0)


def hidden_slots(state: Any) -> list[int]:
    """Tri-Peaks: the layout slots whose card is face down (TP-1, TP-5)."""
    return [k for k, card in enumerate(state.layout) if card is not None and not is_face_up(state, k)]


def hidden_in(game: str, state: Any) -> list[str]:
    """The cards of ``state`` its player cannot see (LP-3), sorted, read from the state."""
    if game == "pyramid":
        return sorted(state.stock[1:])
    return sorted([state.layout[k] for k in hidden_slots(state)] + list(state.stock))


def twin(game: str, state: Any, seed: int) -> Any:
    """The same position with its hidden cards in another order (and another seed)."""
    rnd = rng.SeededRNG(seed)
    if game == "pyramid":
        stock = (*state.stock[:1], *rnd.shuffled(state.stock[1:]))
        return replace(state, stock=stock, seed=rnd.below(10**9))
    slots = hidden_slots(state)
    cards = rnd.shuffled([state.layout[k] for k in slots] + list(state.stock))
    layout = list(state.layout)
    for k, card in zip(slots, cards, strict=False):
        layout[k] = card
    return replace(state, layout=tuple(layout), stock=tuple(cards[len(slots) :]))


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[f"{g}-{c}" for g, c in VARIANTS])
def test_twins_get_the_same_legal_hint(game: str, config: dict[str, Any] | None) -> None:
    engine = get_engine(game)
    for n, state in enumerate(positions(game, config, 10, seed=len(str(config)))):
        other = twin(game, state, seed=n)
        view = engine.view(state, 0)
        assert engine.view(other, 0) == view  # a twin: nothing the player sees differs
        if len(hidden_cards(game, view)) > 1:
            assert other != state
        move = hint(game, view)
        assert move == hint(game, engine.view(other, 0))
        assert move in [str(a) for a in engine.legal_actions(state) if not isinstance(a, Resign)]


def test_twins_are_told_apart_by_a_hint_that_reads_the_state() -> None:
    """The twins are real ones: the pre-LP-7 hint, which read every card, differs on some of
    them (35 of the 399 Tri-Peaks deals of ``hint_check``), the view's hint on none."""
    engine = get_engine("tripeaks")
    told_apart = 0
    for seed in range(1, 61):
        state = engine.initial_state(None, seed)
        other = twin("tripeaks", state, seed)
        told_apart += full_knowledge_hint("tripeaks", state) != full_knowledge_hint("tripeaks", other)
    assert told_apart > 0
    assert count_differences("tripeaks", None, first=1, deals=60) == (0, 0)


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[f"{g}-{c}" for g, c in VARIANTS])
def test_samples_are_positions_the_view_could_be(game: str, config: dict[str, Any] | None) -> None:
    engine = get_engine(game)
    for state in positions(game, config, 6, seed=7):
        view = engine.view(state, 0)
        hidden = sorted(hidden_cards(game, view))
        samples = sample_states(game, view)
        assert samples == sample_states(game, view)  # seeded from the view: the same every time
        for sample in samples:
            assert engine.view(sample, 0) == view
            assert [str(a) for a in engine.legal_actions(sample)] == list(view.legal)
        if len(hidden) > 1:
            assert len(samples) == HINT_SAMPLES
            assert len({repr(sample) for sample in samples}) > 1
        # Every sample deals the very cards the player cannot see, only in other places.
        assert hidden_in(game, state) == hidden
        assert all(hidden_in(game, sample) == hidden for sample in samples)


def test_the_real_seed_is_never_used_with_reshuffle() -> None:
    """PY-6 reshuffle: the seed decides the waste's next orders, and the view hides it, so
    the samples draw seeds of their own."""
    engine = get_engine("pyramid")
    state = positions("pyramid", {"reshuffle": True}, 1, seed=3)[0]
    view = engine.view(state, 0)
    assert view.seed is None
    assert {sample.seed for sample in sample_states("pyramid", view)} != {state.seed}
    assert len({sample.seed for sample in sample_states("pyramid", view)}) == HINT_SAMPLES


def test_a_hint_takes_a_view_not_a_state() -> None:
    state = get_engine("tripeaks").initial_state(None, 5)
    with pytest.raises(TypeError, match="view"):
        hint("tripeaks", state)  # type: ignore[arg-type]


def test_a_hint_takes_the_players_own_view() -> None:
    """A spectator's view offers no move, and a full view shows the hidden cards (LP-3):
    neither is a view to hint from."""
    engine = get_engine("pyramid")
    state = engine.initial_state(None, 5)
    for other in (engine.view(state, None), engine.full_view(state)):
        with pytest.raises(ValueError, match="player's own view"):
            hint("pyramid", other)
    with pytest.raises(ValueError, match="pyramid view"):
        hint("pyramid", get_engine("tripeaks").view(get_engine("tripeaks").initial_state(None, 5), 0))


def test_with_nothing_hidden_the_hint_keeps_a_winnable_game_winnable() -> None:
    """Tri-Peaks with every card face up and the stock drawn to its last card: the view shows
    the whole position, one sample is the position itself, and the hint is exact."""
    engine = get_engine("tripeaks")
    checked = 0
    for seed in range(1, 400):
        solution = solve("tripeaks", {"face_up": True}, seed, node_limit=200_000)
        if not solution.winnable:
            continue
        states = engine.replay({"face_up": True}, seed, solution.actions)[:-1]
        open_states = [s for s in states if len(s.stock) <= 1]
        if not open_states:
            continue
        state = open_states[0]
        view = engine.view(state, 0)
        (sample,) = sample_states("tripeaks", view)
        assert (sample.layout, sample.stock, sample.waste) == (state.layout, state.stock, state.waste)
        move = hint("tripeaks", view)
        assert solve_state("tripeaks", engine.apply(state, move), node_limit=HINT_SOLVE_NODES).winnable
        checked += 1
        if checked == 5:
            break
    assert checked == 5
