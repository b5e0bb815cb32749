"""LP-11: the chance to win from here, computed from the player's view alone (as LP-7).

The figures are checked against a brute force that reads the state: every order of the
cards the player cannot see (LP-3) put back into the state and solved with no budget.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from games.engine import get_engine
from games.engine.solitaire_common import PLAYING, Resign
from games.engine.solver import solve, solve_state
from games.engine.solver.odds import ODDS_SAMPLES, Odds, chance, wilson
from tests.engine.test_hint_sees_only_the_view import hidden_slots, positions, twin


def first_moves(game: str, config: dict[str, Any] | None, seed: int, moves: int) -> Any:
    """The deal of ``seed`` after ``moves`` moves, each the first the engine lists."""
    engine = get_engine(game)
    state = engine.initial_state(config, seed)
    for _ in range(moves):
        state = engine.apply(state, next(a for a in engine.legal_actions(state) if not isinstance(a, Resign)))
    assert state.status == PLAYING
    return state


def every_order(game: str, state: Any) -> list[Any]:
    """``state`` with its hidden cards in each of their orders, read from the state itself."""
    if game == "pyramid":
        top, hidden = state.stock[0], state.stock[1:]
        return [replace(state, stock=(top, *order)) for order in itertools.permutations(hidden)]
    slots = hidden_slots(state)
    orders = []
    for order in itertools.permutations([state.layout[k] for k in slots] + list(state.stock)):
        layout = list(state.layout)
        for k, card in zip(slots, order, strict=False):
            layout[k] = card
        orders.append(replace(state, layout=tuple(layout), stock=order[len(slots) :]))
    return orders


def brute_force(game: str, state: Any, node_limit: int | None = None) -> Odds:
    verdicts = Counter(solve_state(game, s, node_limit=node_limit).winnable for s in every_order(game, state))
    return Odds(wins=verdicts[True], losses=verdicts[False], unknown=verdicts[None], exact=True)


def view_of(game: str, state: Any) -> Any:
    return get_engine(game).view(state, 0)


# (game, config, seed, moves): positions of first-listed play with 4 or 5 hidden cards,
# chosen where some orders win and some lose (a figure of 0% or 100% proves less).
SMALL = [
    ("tripeaks", None, 3, 44),  # 2 face-down layout cards and 2 in the stock: 2 of 24 win
    ("tripeaks", {"face_up": True}, 10, 45),  # the stock's 4: 16 of 24
    ("pyramid", None, 3, 28),  # the stock's 4 below its top: 12 of 24
    ("tripeaks", None, 2, 44),  # 3 face down and 2 in the stock: 8 of 120
    ("pyramid", None, 3, 27),  # 60 of 120
]


@pytest.mark.parametrize(("game", "config", "seed", "moves"), SMALL)
def test_few_hidden_cards_give_the_exact_share_of_their_orders(
    game: str, config: dict[str, Any] | None, seed: int, moves: int
) -> None:
    state = first_moves(game, config, seed, moves)
    expected = brute_force(game, state)
    assert 0 < expected.wins < expected.samples  # the position is an interesting one
    orders = expected.samples
    figure = chance(game, view_of(game, state), samples=orders)
    assert figure == expected
    # Some orders win and some lose, yet every one shows the player the same view, so the
    # same figure (LP-7): the figure cannot have read the state.
    for other in every_order(game, state)[1::5]:
        assert view_of(game, other) == view_of(game, state)
        assert chance(game, view_of(game, other), samples=orders) == figure
    assert (figure.percent, figure.margin) == (round(100 * expected.wins / orders), 0)
    # One order fewer than there are: sampled, so not exact, and the exact share lies
    # within the margin it states.
    sampled = chance(game, view_of(game, state), samples=orders - 1)
    assert not sampled.exact and sampled.samples == orders - 1
    assert sampled.percent is not None and sampled.margin is not None and sampled.margin > 0
    assert abs(sampled.percent - 100 * expected.wins / orders) <= sampled.margin


def test_by_default_every_order_is_solved_when_there_are_no_more_than_samples() -> None:
    for moves in (27, 28):  # 5 and 4 cards below the stock's top
        state = first_moves("pyramid", None, 3, moves)
        orders = math.factorial(len(state.stock) - 1)
        assert chance("pyramid", view_of("pyramid", state)).exact == (orders <= ODDS_SAMPLES)


def test_nothing_hidden_is_exact_from_one_solve() -> None:
    """Tri-Peaks with every card face up and one stock card left: the view is the position."""
    engine = get_engine("tripeaks")
    state = first_moves("tripeaks", {"face_up": True}, 10, 45)
    while len(state.stock) > 1:
        state = engine.apply(state, "draw")
    figure = chance("tripeaks", view_of("tripeaks", state))
    won = bool(solve_state("tripeaks", state).winnable)
    assert figure == Odds(wins=int(won), losses=int(not won), unknown=0, exact=True)


def test_a_shuffle_ahead_is_never_enumerated() -> None:
    """PY-6 reshuffle: the seed, which the player cannot see, orders every later pass, so
    even with no card hidden in the stock the figure samples seeds."""
    engine = get_engine("pyramid")
    state = engine.initial_state({"reshuffle": True}, 4)
    while state.stock:
        state = engine.apply(state, "draw")
    figure = chance("pyramid", view_of("pyramid", state), samples=40)
    assert not figure.exact and figure.samples == 40


TWINS: list[tuple[str, dict[str, Any] | None]] = [
    ("pyramid", None),
    ("pyramid", {"reshuffle": True}),
    ("tripeaks", None),
    ("tripeaks", {"face_up": True}),
]


@pytest.mark.parametrize(("game", "config"), TWINS)
def test_twins_get_the_same_figure(game: str, config: dict[str, Any] | None) -> None:
    """Two positions that differ only in what the player cannot see (and with reshuffle, in
    their seeds) have one view, so one figure, sampled as it is here."""
    engine = get_engine(game)
    sampled = 0
    for n, state in enumerate(positions(game, config, 8, seed=5)):
        other = twin(game, state, seed=n)
        assert engine.view(other, 0) == view_of(game, state)
        figures = [chance(game, view_of(game, s), samples=30, node_limit=3_000) for s in (state, other)]
        assert figures[0] == figures[1]
        sampled += not figures[0].exact
    assert sampled >= 4


def test_samples_the_budget_cannot_settle_are_counted_as_unknown() -> None:
    state = first_moves("pyramid", None, 3, 28)
    full = brute_force("pyramid", state)
    tight = chance("pyramid", view_of("pyramid", state), samples=24, node_limit=2)
    assert tight == brute_force("pyramid", state, node_limit=2)
    assert tight.unknown > 0 and tight.samples == 24
    # Never guessed: an unknown sample is neither a win nor a loss.
    assert tight.wins <= full.wins and tight.losses <= full.losses


def test_no_sample_settled_gives_no_figure() -> None:
    state = get_engine("tripeaks").initial_state(None, 1)
    figure = chance("tripeaks", view_of("tripeaks", state), samples=40, node_limit=1)
    assert figure == Odds(wins=0, losses=0, unknown=40, exact=False)
    assert (figure.percent, figure.margin) == (None, None)


def test_a_finished_game_is_certain() -> None:
    engine = get_engine("tripeaks")
    config = {"face_up": True}
    seed = next(s for s in range(1, 50) if solve("tripeaks", config, s).winnable)
    won = engine.replay(config, seed, solve("tripeaks", config, seed).actions)[-1]
    resigned = engine.apply(engine.initial_state(config, seed), "resign")
    assert won.status != PLAYING and resigned.status != PLAYING
    assert chance("tripeaks", view_of("tripeaks", won)) == Odds(wins=1, losses=0, unknown=0, exact=True)
    lost = chance("tripeaks", view_of("tripeaks", resigned))
    assert lost == Odds(wins=0, losses=1, unknown=0, exact=True)
    assert (lost.percent, lost.margin) == (0, 0)


def test_only_the_players_own_view_of_the_named_game_is_read() -> None:
    engine = get_engine("pyramid")
    state = engine.initial_state(None, 5)
    with pytest.raises(TypeError, match="player's view"):
        chance("pyramid", state)  # type: ignore[arg-type]
    for other in (engine.view(state, None), engine.full_view(state)):
        with pytest.raises(ValueError, match="player's own view"):
            chance("pyramid", other)
    tripeaks = get_engine("tripeaks")
    with pytest.raises(ValueError, match="pyramid view"):
        chance("pyramid", tripeaks.view(tripeaks.initial_state(None, 5), 0))
    with pytest.raises(ValueError, match="triad"):
        chance("triad", view_of("pyramid", state))
    with pytest.raises(ValueError, match="at least 1"):
        chance("pyramid", view_of("pyramid", state), samples=0)
    with pytest.raises(ValueError, match="at least 1"):
        chance("pyramid", view_of("pyramid", state), node_limit=0)


def test_the_margin_holds_the_95_percent_interval_and_little_more() -> None:
    low, high = wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    for settled in (1, 2, 7, 30, 119, 120, 500):
        for wins in range(settled + 1):
            figure = Odds(wins=wins, losses=settled - wins, unknown=3, exact=False)
            low, high = wilson(wins, settled)
            assert figure.percent is not None and figure.margin is not None
            assert figure.percent - figure.margin <= 100 * low + 1e-9
            assert figure.percent + figure.margin >= 100 * high - 1e-9
            assert figure.margin <= 100 * max(high - wins / settled, wins / settled - low) + 2


def test_only_a_certain_share_shows_as_0_or_100_percent() -> None:
    assert Odds(wins=199, losses=1, unknown=0, exact=False).percent == 99
    assert Odds(wins=1, losses=199, unknown=0, exact=False).percent == 1
    assert Odds(wins=5, losses=0, unknown=0, exact=False).percent == 100
    assert Odds(wins=5, losses=0, unknown=0, exact=False).margin == 44  # 5 of 5: 56.6% .. 100%
    assert Odds(wins=3, losses=5, unknown=0, exact=True).percent == 38  # 37.5, half up
