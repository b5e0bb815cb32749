"""The built-in Tauron Hold-Em bot (LP-4, TH-6): legal, sensible, deterministic moves
from its own seat's view alone."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import TABLE_SEAT
from games.engine.bots import bot_seed
from games.engine.tauron import ENGINE, TauronState
from games.engine.tauron_bot import choose
from tests.engine.test_tauron_properties import redeal_hidden
from tests.engine.test_tauron_rules import MEDIUM, STRONG, WEAK, checked_through, play, start


def bot_game(config: dict[str, Any], seed: int, bot_seats: set[int]) -> tuple[TauronState, list[TauronState]]:
    """A match with the bot in ``bot_seats`` and uniformly random legal players elsewhere
    (the table, whose one action is a tie-replay deal, among them)."""
    chooser = random.Random(seed)
    states = [ENGINE.initial_state(config, seed)]
    while (seat := ENGINE.current_player(states[-1])) is not None:
        state = states[-1]
        if seat in bot_seats:
            view = ENGINE.view(state, seat)
            text = choose(view, bot_seed(seed, seat, len(states) - 1))
            assert text in view.legal
        else:
            text = str(chooser.choice(ENGINE.legal_actions(state)))
        states.append(ENGINE.apply(state, text))
    return states[-1], states


@pytest.mark.parametrize(
    "config",
    [
        {"players": 3, "hands": 2},
        {"players": 6, "max_bet": 3, "hands": 2},
        {"players": 2, "stack": 5, "ante": 2, "hands": 3},
        {"players": 4, "max_raises": 0, "hands": 2},
    ],
)
def test_lp4_the_bot_plays_legal_moves_in_every_config(config: dict[str, Any]) -> None:
    final, _ = bot_game(config, 11, set(range(config["players"])))
    assert ENGINE.outcome(final) is not None


def seat_views(states: list[TauronState]) -> list[tuple[TauronState, int]]:
    return [
        (state, seat)
        for state in states
        if (seat := ENGINE.current_player(state)) is not None and seat != TABLE_SEAT
    ]


def test_lp4_the_bot_is_the_engines_and_deterministic() -> None:
    """The same view and seed give the same move; the engine's bot_action is this bot."""
    _, states = bot_game({"players": 3, "hands": 1}, 4, {0, 1, 2})
    for state, seat in seat_views(states):
        first = choose(ENGINE.view(state, seat), 99)
        assert choose(ENGINE.view(state, seat), 99) == first
        assert ENGINE.bot_action(ENGINE.view(state, seat), 99) == first


def test_lp4_the_bot_reads_only_its_view() -> None:
    """Re-dealing every card the seat cannot see (the deck, the other holes, folded holes)
    changes nothing the bot does: it cannot read hidden cards."""
    _, states = bot_game({"players": 3, "hands": 2}, 8, {0, 1, 2})
    shuffler = random.Random(3)
    for state, seat in seat_views(states):
        other = redeal_hidden(state, seat, shuffler)
        assert choose(ENGINE.view(other, seat), 5) == choose(ENGINE.view(state, seat), 5)


def test_the_bot_needs_a_turn() -> None:
    state = start([WEAK, STRONG])
    with pytest.raises(ValueError, match="no legal action"):
        choose(ENGINE.view(state, 0), 1)


def test_the_bot_is_sensible() -> None:
    """Bets the best possible hand, folds the worst against a big bet, checks rather than
    bets a poor hand, and hides a beaten hand at the showdown."""
    river = checked_through(start([WEAK, STRONG]), 3)
    assert (river.phase, len(river.board)) == ("bet", 6)
    assert choose(ENGINE.view(river, 1), 1).startswith("bet")
    assert choose(ENGINE.view(play(river, "check"), 0), 1) == "check"
    assert choose(ENGINE.view(play(river, "bet 2"), 0), 1) == "fold"
    showdown = play(checked_through(start([WEAK, STRONG])), "show")
    assert choose(ENGINE.view(showdown, 0), 1) == "fold"
    first = checked_through(start([STRONG, MEDIUM]))
    assert choose(ENGINE.view(first, 1), 1) == "show"


def test_the_bot_beats_a_random_player() -> None:
    """A short version of bench/tauron_bot_strength.py: 40 heads-up matches, seats alternating."""
    wins = 0
    for game in range(40):
        bot = game % 2
        final, _ = bot_game({"players": 2, "hands": 6}, 1000 + game, {bot})
        outcome = ENGINE.outcome(final)
        assert outcome is not None
        wins += outcome["winner"] == bot
    assert wins >= 34, f"the bot won only {wins} of 40"
