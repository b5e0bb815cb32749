"""The Pyramid Poker bot (LP-4): legal, deterministic, decides from its view alone, beats random.

The 1,000-game strength figure is bench/blocks_bot_strength.py's; this is the quick check.
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

import pytest

from games.engine import TABLE_SEAT, get_engine
from games.engine.blocks import BLOCKS, PLACES, BlocksState
from games.engine.blocks_bot import choose
from games.engine.bots import bot_seed
from games.engine.rng import SeededRNG

ENGINE = get_engine("blocks")


def play(config: dict[str, Any] | None, seed: int, bot_seats: set[int], moves: list[float]) -> BlocksState:
    """A whole game; ``bot_seats`` play the bot (checked at every move), the others at random."""
    state, ply, rng = ENGINE.initial_state(config, seed), 0, SeededRNG(seed)
    while (seat := ENGINE.current_player(state)) is not None:
        if seat == TABLE_SEAT:
            action = "tie-replay"
        elif seat in bot_seats:
            view = ENGINE.view(state, seat)
            started = time.perf_counter()
            action = choose(view, bot_seed(seed, seat, ply))
            moves.append(time.perf_counter() - started)
            assert action in view.legal
            # The view is plain, JSON-ready data, and the bot decides from it alone: an equal
            # view, built afresh, gets the same move.
            assert json.loads(json.dumps(view.data()))["seat"] == seat
            fresh = ENGINE.view(state, seat)
            assert fresh == view and fresh is not view
            assert choose(fresh, bot_seed(seed, seat, ply)) == action
        else:
            legal = ENGINE.legal_actions(state)
            action = str(legal[rng.below(len(legal))])
        state = ENGINE.apply(state, action)
        ply += 1
    return state


def test_lp4_the_engine_plays_its_bot() -> None:
    state = ENGINE.initial_state(None, 3)
    view = ENGINE.view(state, ENGINE.current_player(state))
    assert ENGINE.bot_action(view, 17) == choose(view, 17)


def test_lp4_bot_self_play_is_legal_and_deterministic() -> None:
    for seed, config in [(1, None), (2, {"scoring": "advanced"})]:
        first = play(config, seed, {0, 1}, [])
        again = play(config, seed, {0, 1}, [])
        assert first == again and ENGINE.outcome(first) is not None


def test_lp4_bot_beats_a_random_player_clearly_and_quickly() -> None:
    moves: list[float] = []
    wins = 0
    games = 60
    for game in range(games):
        seat = game % 2
        state = play(None, 9000 + game, {seat}, moves)
        wins += ENGINE.outcome(state)["winner"] == seat
    assert wins / games >= 0.75, wins
    assert statistics.quantiles(moves, n=20)[-1] < 0.05  # 95th percentile under 50 ms


def test_lp4_bot_wins_advanced_matches_against_random() -> None:
    wins = sum(
        ENGINE.outcome(play({"scoring": "advanced"}, 700 + g, {g % 2}, []))["winner"] == g % 2
        for g in range(6)
    )
    assert wins >= 5


def test_bot_puts_a_card_with_its_pair() -> None:
    # Scripted: build in place order; seat 0 then takes place 29 (Kh) and later place 27 (Kd).
    deck = [block for block in BLOCKS if block not in ("Kh", "Kd")]
    deck[28:28] = ["Kd", "Kh"]
    state = ENGINE.initial_state(None, 0, deck)
    for row, index in PLACES[:30]:
        state = ENGINE.apply(state, f"place {row},{index}")
    for action in ["take 4,3", "hand 2", "take 4,2", "hand 1", "take 4,1"]:
        state = ENGINE.apply(state, action)
    assert state.hands[0] == ((), ("Kh",), ())
    assert choose(ENGINE.view(state, 0), 0) == "hand 2"


def test_bot_refuses_a_view_with_nothing_to_do() -> None:
    with pytest.raises(ValueError, match="no legal action"):
        choose(ENGINE.view(ENGINE.initial_state(None, 0), 1), 0)


def test_bot_plays_from_one_seats_view_only() -> None:
    with pytest.raises(ValueError, match="one seat's view"):
        choose(ENGINE.full_view(ENGINE.initial_state(None, 0)), 0)
