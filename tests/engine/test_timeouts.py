"""LP-1: what a seat does when its turn clock runs out."""

from __future__ import annotations

import random

import pytest

from games.engine import TABLE_SEAT, get_engine
from games.engine.bots import bot_seed, get_bot
from games.engine.timeouts import timeout_action


def test_lp1_triad_checks_when_it_may_else_folds() -> None:
    assert timeout_action("triad", {"legal": ["check", "bet 1", "bet 2", "fold"]}, 0) == "check"
    assert timeout_action("triad", {"legal": ["call", "raise 1", "fold"]}, 0) == "fold"


def test_lp1_triad_stands_pat_in_the_draw_and_shows_at_the_showdown() -> None:
    assert timeout_action("triad", {"legal": ["discard -", "discard P3", "fold"]}, 0) == "discard -"
    assert timeout_action("triad", {"legal": ["show", "fold"]}, 0) == "show"


def test_lp1_blocks_plays_the_bots_move() -> None:
    engine = get_engine("blocks")
    state = engine.initial_state(None, 5)
    for ply in range(40):
        seat = engine.current_player(state)
        view = engine.view(state, seat)
        seed = bot_seed(5, seat, ply)
        assert timeout_action("blocks", view, seed) == get_bot("blocks")(view, seed)
        state = engine.apply(state, timeout_action("blocks", view, seed))


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
        text = timeout_action("triad", view, 0) if seat % 2 else chooser.choice(view["legal"])
        state = engine.apply(state, text)
    assert engine.outcome(state) is not None


def test_lp1_no_move_to_make_is_an_error() -> None:
    with pytest.raises(ValueError, match="no move"):
        timeout_action("triad", {"legal": []}, 0)
    with pytest.raises(ValueError, match="no turn clock"):
        timeout_action("pyramid", {"legal": ["draw"]}, 0)
