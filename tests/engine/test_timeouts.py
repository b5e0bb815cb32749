"""LP-1: what a seat does when its turn clock runs out."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.engine import TABLE_SEAT, get_engine
from games.engine.bots import bot_seed
from games.engine.triad import TriadView

TRIAD = get_engine("triad")
BLOCKS = get_engine("blocks")


def triad_view(*legal: str) -> TriadView:
    """A real Triad view of the seat to act, offering exactly the moves ``legal``."""
    view = TRIAD.view(TRIAD.initial_state(None, 0), 1)
    assert isinstance(view, TriadView) and view.legal
    return replace(view, moves=tuple(TRIAD.parse_action(text).move() for text in legal))


def test_lp1_triad_checks_when_it_may_else_folds() -> None:
    assert TRIAD.timeout_action(triad_view("check", "bet 1", "bet 2", "fold"), 0) == "check"
    assert TRIAD.timeout_action(triad_view("call", "raise 1", "fold"), 0) == "fold"
    # The same from the engine's own views: the opening seat, then facing a bet.
    state = TRIAD.initial_state(None, 0)
    assert TRIAD.timeout_action(TRIAD.view(state, 1), 0) == "check"
    assert TRIAD.timeout_action(TRIAD.view(TRIAD.apply(state, "bet 1"), 0), 0) == "fold"


def test_lp1_triad_stands_pat_in_the_draw_and_shows_at_the_showdown() -> None:
    assert TRIAD.timeout_action(triad_view("discard -", "discard P3", "fold"), 0) == "discard -"
    assert TRIAD.timeout_action(triad_view("show", "fold"), 0) == "show"
    draw = TRIAD.apply(TRIAD.apply(TRIAD.initial_state(None, 0), "check"), "check")
    assert TRIAD.timeout_action(TRIAD.view(draw, 1), 0) == "discard -"
    showdown = draw
    for text in ("discard -", "discard -", "check", "check"):
        showdown = TRIAD.apply(showdown, text)
    assert TRIAD.timeout_action(TRIAD.view(showdown, 1), 0) == "show"


def test_lp1_blocks_plays_the_bots_move() -> None:
    engine = get_engine("blocks")
    state = engine.initial_state(None, 5)
    for ply in range(40):
        seat = engine.current_player(state)
        view = engine.view(state, seat)
        seed = bot_seed(5, seat, ply)
        assert BLOCKS.timeout_action(view, seed) == BLOCKS.bot_action(view, seed)
        state = engine.apply(state, BLOCKS.timeout_action(view, seed))


@pytest.mark.parametrize("seed", range(20))
def test_lp1_a_triad_match_of_timeouts_is_legal_and_ends(seed: int) -> None:
    engine = get_engine("triad")
    chooser = random.Random(seed)
    state = engine.initial_state({"players": 3, "hands": 3}, seed)
    while (seat := engine.current_player(state)) is not None:
        if seat == TABLE_SEAT:
            state = engine.apply(state, "tie-replay")
            continue
        view = engine.view(state, seat)
        # Half the seats time out every turn; the others act at random.
        text = TRIAD.timeout_action(view, 0) if seat % 2 else chooser.choice(view.legal)
        state = engine.apply(state, text)
    assert engine.outcome(state) is not None


def test_lp1_no_move_to_make_is_an_error() -> None:
    with pytest.raises(ValueError, match="no move"):
        TRIAD.timeout_action(triad_view(), 0)
    with pytest.raises(ValueError, match="no move"):  # not this seat's turn
        TRIAD.timeout_action(TRIAD.view(TRIAD.initial_state(None, 0), 0), 0)
    with pytest.raises(ValueError, match="no turn clock"):
        get_engine("pyramid").timeout_action({"legal": ["draw"]}, 0)
