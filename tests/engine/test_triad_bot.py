"""The built-in Triad bot (LP-4): legal, sensible, deterministic moves from its view alone."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from games.engine import TABLE_SEAT, get_engine
from games.engine.bots import bot_seed
from games.engine.triad import TriadState
from games.engine.triad_bot import choose
from tests.engine.test_triad_properties import redeal_hidden
from tests.engine.test_triad_rules import MEDIUM, STRONG, WEAK, play, start

ENGINE = get_engine("triad")


def bot_game(
    config: dict[str, object], seed: int, bot_seats: set[int]
) -> tuple[TriadState, list[TriadState]]:
    """A match with the bot in ``bot_seats`` and uniformly random legal players elsewhere."""
    chooser = random.Random(seed)
    state = ENGINE.initial_state(config, seed)
    states = [state]
    ply = 0
    while (seat := ENGINE.current_player(state)) is not None:
        if seat == TABLE_SEAT:
            action = "tie-replay"
        elif seat in bot_seats:
            view = ENGINE.view(state, seat)
            action = choose(view, bot_seed(seed, seat, ply))
            assert action in view.legal
        else:
            action = str(chooser.choice(ENGINE.legal_actions(state)))
        state = ENGINE.apply(state, action)
        states.append(state)
        ply += 1
    return state, states


@pytest.mark.parametrize(
    "config",
    [
        {"players": 3, "hands": 2},
        {"players": 4, "cards": 8, "hands": 2},
        {"players": 2, "discard_twice": True, "face_up": True, "hands": 2},
        {"players": 5, "no_discard": True, "max_bet": 3, "hands": 2},
    ],
)
def test_lp4_the_bot_plays_legal_moves_in_every_variant(config: dict[str, Any]) -> None:
    final, _ = bot_game(config, 11, set(range(config["players"])))
    assert ENGINE.outcome(final) is not None


def test_lp4_the_bot_is_the_registered_one_and_deterministic() -> None:
    view = ENGINE.view(ENGINE.initial_state(None, 3), 1)
    assert ENGINE.bot_action(view, 17) == choose(view, 17)
    _, states = bot_game({"players": 3, "hands": 1}, 4, {0, 1, 2})
    for state in states:
        seat = ENGINE.current_player(state)
        if seat is None or seat == TABLE_SEAT:
            continue
        view = ENGINE.view(state, seat)
        frozen = copy.deepcopy(view)
        first = choose(view, 99)
        assert view == frozen, "the bot changed its view"
        assert choose(frozen, 99) == first  # a copy of the view: the same move
        assert ENGINE.bot_action(view, 99) == first


def test_lp4_the_bot_reads_only_its_view() -> None:
    """Re-dealing every card the seat cannot see changes nothing the bot does."""
    _, states = bot_game({"players": 3, "hands": 1}, 8, {0, 1, 2})
    shuffler = random.Random(3)
    for state in states:
        seat = ENGINE.current_player(state)
        if seat is None or seat == TABLE_SEAT:
            continue
        other = redeal_hidden(state, seat, shuffler)
        assert choose(ENGINE.view(other, seat), 5) == choose(ENGINE.view(state, seat), 5)


def test_the_bot_is_sensible() -> None:
    """Bets a full pyramid, keeps it in the draw, folds a weak hand against a big bet,
    and hides a beaten hand at the showdown."""
    strong = start([WEAK, STRONG])
    assert choose(ENGINE.view(strong, 1), 1).startswith("bet")
    assert choose(ENGINE.view(play(strong, "check", "check"), 1), 1) == "discard -"
    weak = play(start([MEDIUM, WEAK, STRONG], players=3, stack=30), "check", "bet 3", "raise 6")
    assert choose(ENGINE.view(weak, 1), 1) == "fold"
    showdown = play(
        start([WEAK, STRONG]), "check", "check", "discard -", "discard -", "check", "check", "show"
    )
    assert choose(ENGINE.view(showdown, 0), 1) == "fold"


def test_the_bot_beats_a_random_player() -> None:
    """A short version of bench/triad_bot_strength.py: 40 heads-up matches, seats alternating."""
    wins = 0
    for game in range(40):
        bot = game % 2
        final, _ = bot_game({"players": 2, "hands": 4}, 1000 + game, {bot})
        outcome = ENGINE.outcome(final)
        assert outcome is not None
        wins += outcome["winner"] == bot
    assert wins >= 32, f"the bot won only {wins} of 40"
