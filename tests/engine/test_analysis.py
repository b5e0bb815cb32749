"""Issue 46, where a solitaire game was lost: the chance to win at every step (LP-11) and
the move after which the deal could no longer be won with every card known.

Lost games are built by hand from a winnable deal: the solver's winning line is played
until the first move where some other legal move loses the deal; that move is played, and
then the first move the engine lists, until the game ends. The losing step is thus known
before the search runs, and every claim is checked against unbudgeted solves.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import get_engine
from games.engine.base import ReplayError
from games.engine.cards import STANDARD_DECK
from games.engine.solitaire_common import LOST, PLAYING, WON, Resign
from games.engine.solver import solve, solve_state
from games.engine.solver.analysis import Outcome, TurningPoint, WhereLost, curve, turning_point
from games.engine.solver.hint_check import random_positions
from games.engine.solver.odds import chance


def play_out(game: str, state: Any, texts: list[str]) -> list[str]:
    """``texts`` followed by the first move the engine lists (never resign) until the end."""
    engine = get_engine(game)
    texts = list(texts)
    while state.status == PLAYING:
        move = next(str(a) for a in engine.legal_actions(state) if not isinstance(a, Resign))
        texts.append(move)
        state = engine.apply(state, move)
    return texts


def thrown_away(game: str, seed: int) -> tuple[int, str, list[str]]:
    """A lost game of the standard deal ``seed``: (the losing step, the move played there,
    every move of the game)."""
    engine = get_engine(game)
    state = engine.initial_state(None, seed)
    line = solve(game, None, seed).actions
    assert line, "the deal must be winnable"
    for step, good in enumerate(line):
        for action in engine.legal_actions(state):
            move = str(action)
            if isinstance(action, Resign) or move == good:
                continue
            after = engine.apply(state, move)
            if solve_state(game, after).winnable is False:
                return step, move, play_out(game, after, [*line[:step], move])
        state = engine.apply(state, good)
    raise AssertionError("no move of the line had a losing alternative")


def played_at_random(game: str, seed: int) -> list[str]:
    """A game of the standard deal ``seed`` played to its end by seeded random moves, plays
    preferred to draws (so that it seldom ends at once)."""
    engine = get_engine(game)
    rnd = random.Random(seed)
    state = engine.initial_state(None, seed)
    texts: list[str] = []
    while state.status == PLAYING:
        moves = [str(a) for a in engine.legal_actions(state) if not isinstance(a, Resign)]
        plays = [move for move in moves if move not in ("draw", "redeal")]
        texts.append(rnd.choice(plays if plays and rnd.random() < 0.8 else moves))
        state = engine.apply(state, texts[-1])
    return texts


def winnable_at_every_step(game: str, seed: int, texts: list[str]) -> list[bool]:
    states = get_engine(game).replay(None, seed, texts)
    verdicts = [solve_state(game, state).winnable for state in states]
    assert None not in verdicts  # no budget: every verdict is settled
    return [bool(v) for v in verdicts]


# (game, seed, the losing step, the move played there, the solver's move there instead):
# in Pyramid seed 2 the 4 of spades went with the 9 of hearts where the 4 of clubs wins.
THROWN = [
    ("pyramid", 2, 22, "4s+9h", "4c+9h"),
    ("pyramid", 3, 15, "2d+Jh", "draw"),
    ("tripeaks", 1, 8, "3c", "3s"),
    ("tripeaks", 5, 11, "draw", "6h"),
    ("tripeaks", 9, 0, "draw", "8c"),  # the very first move
]


@pytest.mark.parametrize(("game", "seed", "step", "played", "instead"), THROWN)
def test_a_game_that_threw_the_win_away_is_lost_at_that_move(
    game: str, seed: int, step: int, played: str, instead: str
) -> None:
    losing, move, texts = thrown_away(game, seed)
    assert (losing, move) == (step, played)
    engine = get_engine(game)
    assert engine.replay(None, seed, texts)[-1].status == LOST

    found = turning_point(game, None, seed, texts)
    assert found.outcome is Outcome.LOST_AT and found.settled
    assert found.point == TurningPoint(step=step, played=played, instead=instead)
    # A binary search: a handful of solves, not one per move.
    assert found.solves <= 8 < len(texts)

    before = engine.replay(None, seed, texts[:step])[-1]
    assert solve_state(game, engine.apply(before, instead)).winnable is True
    assert solve_state(game, engine.apply(before, played)).winnable is False
    # Checked move by move: winnable through step ``step``, never again after it.
    verdicts = winnable_at_every_step(game, seed, texts)
    assert verdicts == [True] * (step + 1) + [False] * (len(texts) - step)


def test_resigning_a_winnable_game_is_where_it_was_lost() -> None:
    line = list(solve("pyramid", None, 2).actions)
    found = turning_point("pyramid", None, 2, [*line[:10], "resign"])
    assert found.outcome is Outcome.LOST_AT
    assert found.point is not None and (found.point.step, found.point.played) == (10, "resign")
    engine = get_engine("pyramid")
    before = engine.replay(None, 2, line[:10])[-1]
    assert solve_state("pyramid", engine.apply(before, found.point.instead)).winnable is True


def test_a_won_game_has_no_turning_point_and_solves_nothing() -> None:
    line = list(solve("tripeaks", None, 1).actions)
    assert get_engine("tripeaks").replay(None, 1, line)[-1].status == WON
    assert turning_point("tripeaks", None, 1, line) == WhereLost(Outcome.WON, None, 0)


def test_a_deal_that_could_never_be_won_has_no_turning_point() -> None:
    assert solve("pyramid", None, 1).winnable is False
    texts = play_out("pyramid", get_engine("pyramid").initial_state(None, 1), [])
    found = turning_point("pyramid", None, 1, texts)
    assert (found.outcome, found.point, found.settled) == (Outcome.NEVER_WINNABLE, None, True)


def test_a_running_game_that_can_still_be_won_lost_nothing() -> None:
    line = list(solve("pyramid", None, 2).actions)
    found = turning_point("pyramid", None, 2, line[:5])
    assert (found.outcome, found.point, found.solves) == (Outcome.STILL_WINNABLE, None, 1)


def test_a_running_game_already_lost_has_its_turning_point() -> None:
    step, played, texts = thrown_away("pyramid", 2)
    found = turning_point("pyramid", None, 2, texts[: step + 3])
    assert found.point is not None and (found.point.step, found.point.played) == (step, played)


def test_a_budget_too_small_gives_unknown_never_a_guess() -> None:
    _, _, texts = thrown_away("tripeaks", 5)
    found = turning_point("tripeaks", None, 5, texts, node_limit=1)
    assert (found.outcome, found.point, found.settled) == (Outcome.UNKNOWN, None, False)


@pytest.mark.parametrize(("game", "seed"), [("tripeaks", 12), ("pyramid", 13)])
def test_under_any_budget_the_answer_is_the_true_one_or_unknown(game: str, seed: int) -> None:
    """Games of random play, under budgets where some solves run out: some of the steps
    left unknown can be won (a search that took them for lost would blame an earlier move),
    and the answer is unknown or the truth, never a guess."""
    texts = played_at_random(game, seed)
    truth = turning_point(game, None, seed, texts, node_limit=None)
    assert truth.outcome is Outcome.LOST_AT
    outcomes = set()
    for node_limit in (100, 1_000, 10_000, 100_000, 1_000_000):
        found = turning_point(game, None, seed, texts, node_limit=node_limit)
        assert found.outcome in (Outcome.UNKNOWN, Outcome.LOST_AT)
        if found.settled:
            assert found.point == truth.point
        outcomes.add(found.outcome)
    assert outcomes == {Outcome.UNKNOWN, Outcome.LOST_AT}


@pytest.mark.parametrize("game", ["pyramid", "tripeaks"])
def test_no_move_makes_a_lost_position_winnable(game: str) -> None:
    """Why the binary search is sound: from a position that cannot be won, every legal
    move leads to one that cannot be won either."""
    engine = get_engine(game)
    lost = [s for s in random_positions(game, 60, seed=46) if solve_state(game, s).winnable is False]
    assert len(lost) >= 10
    for state in lost:
        for action in engine.legal_actions(state):
            assert solve_state(game, engine.apply(state, action)).winnable is False


def test_the_curve_gives_the_players_figure_at_every_step() -> None:
    step, _, texts = thrown_away("tripeaks", 1)
    figures = curve("tripeaks", None, 1, texts, samples=12, node_limit=2_000)
    assert len(figures) == len(texts) + 1
    last = figures[-1]
    assert (last.percent, last.margin, last.exact) == (0, 0, True)
    engine = get_engine("tripeaks")
    states = engine.replay(None, 1, texts)
    for k in (0, step, step + 1):
        assert figures[k] == chance("tripeaks", engine.view(states[k], 0), samples=12, node_limit=2_000)
    assert curve("tripeaks", None, 1, texts, samples=12, node_limit=2_000) == figures


def test_a_won_games_curve_ends_at_100_exactly() -> None:
    line = list(solve("pyramid", None, 2).actions)
    figures = curve("pyramid", None, 2, line, samples=6, node_limit=1_000)
    assert len(figures) == len(line) + 1
    assert (figures[-1].percent, figures[-1].margin, figures[-1].exact) == (100, 0, True)


def test_a_game_dealt_from_its_own_deck_is_replayed_from_that_deck() -> None:
    deck = list(STANDARD_DECK)
    random.Random(0).shuffle(deck)
    line = list(solve("pyramid", None, 0, deck=deck).actions)
    texts = [*line[:6], "resign"]
    found = turning_point("pyramid", None, 0, texts, deck=deck)
    assert found.point is not None and (found.point.step, found.point.played) == (6, "resign")
    figures = curve("pyramid", None, 0, texts, deck=deck, samples=6, node_limit=1_000)
    assert len(figures) == len(texts) + 1 and figures[-1].percent == 0


def test_bad_input_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="no solver for 'triad'"):
        turning_point("triad", None, 1, [])
    with pytest.raises(ValueError, match="no solver for 'triad'"):
        curve("triad", None, 1, [])
    with pytest.raises(ValueError, match="node_limit must be at least 1"):
        turning_point("pyramid", None, 2, [], node_limit=0)
    with pytest.raises(ReplayError) as error:
        turning_point("pyramid", None, 2, ["draw", "Ks+Kh"])
    assert error.value.index == 1
