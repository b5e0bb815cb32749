"""Where a solitaire game was lost (issue 46): the chance to win after every move, and the
move after which the deal could no longer be won.

    from games.engine.solver import analysis
    figures = analysis.curve("pyramid", config, seed, texts)     # an Odds per step 0 .. len(texts)
    found = analysis.turning_point("pyramid", config, seed, texts)
    found.outcome        # Outcome.LOST_AT, WON, NEVER_WINNABLE, STILL_WINNABLE or UNKNOWN
    found.point          # TurningPoint(step, played, instead) when LOST_AT, else None

A game is given as the site replays it: ``engine.replay(config, seed, texts, deck=deck)``;
step ``k`` is the position before move ``k`` (0-based), so the last step follows the last move
(a player counts moves from 1: step ``k``'s move is their move ``k + 1``).

The curve is the player's own figure (``odds.chance`` on ``engine.view(state, 0)``, LP-11):
it sees only what the player saw, so it may well stay high past the turning point, which is
judged with every card known (``solve_state`` on the full state, as the end panel's verdict).

Why a binary search finds the turning point: "winnable" can only be lost along a game,
never regained. Moves are deterministic (a PY-6 reshuffle follows the seed, which is part
of the state), so if the position after a move ``m`` has a winning line ``L``, then ``m``
followed by ``L`` wins from the position before it. Hence winnable after a move implies
winnable before it; equivalently, once a position cannot be won, no later one can. Along a
game the verdicts read winnable, ..., winnable, lost, ..., lost, and the turning point is
the last winnable step, found with about log2(moves) solves.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import get_engine
from games.engine.solitaire_common import PLAYING, WON
from games.engine.solver import GAMES, solve_state
from games.engine.solver.odds import ODDS_SAMPLES, ODDS_SOLVE_NODES, Odds, chance

__all__ = [
    "TURNING_POINT_NODES",
    "Outcome",
    "TurningPoint",
    "WhereLost",
    "curve",
    "turning_point",
]

TURNING_POINT_NODES = 5_000_000
"""Positions each full-knowledge solve may examine before its verdict counts as unknown:
at most about 0.3 s of Pyramid search or 0.9 s of Tri-Peaks (16 and 5.7 million positions
a second, whole deals, 2-core machine), and a game needs 2 + log2(moves) solves at most.
Over 40 lost games of real play (bench/where_lost.py) none was left unknown and the
slowest took 61 ms; the curve of the same games took 1.2 s at the median, 2.3 s at p95."""


class Outcome(enum.Enum):
    LOST_AT = "lost at"
    """The deal was winnable until a move, and not after it: see ``WhereLost.point``."""
    WON = "won"
    NEVER_WINNABLE = "never winnable"
    """Not even the deal as dealt could be won, with every card known."""
    STILL_WINNABLE = "still winnable"
    """A game that is not over and can still be won: nothing was lost yet."""
    UNKNOWN = "unknown"
    """A solve the answer hangs on ran out of its budget: never guessed (LP-11)."""


@dataclass(frozen=True)
class TurningPoint:
    step: int
    """The index of the move that lost the deal; the position before it is step ``step``."""
    played: str
    """That move, as the game's texts give it."""
    instead: str
    """A move at step ``step`` that keeps the deal winnable: the first of a winning line."""


@dataclass(frozen=True)
class WhereLost:
    outcome: Outcome
    point: TurningPoint | None
    """Set when, and only when, ``outcome`` is ``LOST_AT``."""
    solves: int
    """Full-knowledge searches run (a finished position needs none)."""

    @property
    def settled(self) -> bool:
        return self.outcome is not Outcome.UNKNOWN


def curve(
    game: str,
    config: dict[str, Any] | None,
    seed: int,
    actions: Sequence[str],
    *,
    deck: Sequence[str] | None = None,
    samples: int = ODDS_SAMPLES,
    node_limit: int = ODDS_SOLVE_NODES,
) -> list[Odds]:
    """The player's chance to win at every step 0 .. len(actions); deterministic, as each
    figure depends on its view alone. A finished game's last figure is exact: 100 or 0."""
    engine = get_engine(_solvable(game))
    states = engine.replay(config, seed, actions, deck=deck)
    return [chance(game, engine.view(state, 0), samples=samples, node_limit=node_limit) for state in states]


def turning_point(
    game: str,
    config: dict[str, Any] | None,
    seed: int,
    actions: Sequence[str],
    *,
    deck: Sequence[str] | None = None,
    node_limit: int | None = TURNING_POINT_NODES,
) -> WhereLost:
    """The first move after which the deal could not be won with every card known, if the
    game has one and every solve it hangs on settles within ``node_limit`` positions (None:
    no budget, which a site must not offer: some deals take minutes)."""
    if node_limit is not None and node_limit < 1:
        raise ValueError(f"node_limit must be at least 1 or None, not {node_limit}")
    states = get_engine(_solvable(game)).replay(config, seed, actions, deck=deck)
    last = len(actions)
    if states[last].status == WON:
        return WhereLost(Outcome.WON, None, 0)
    verdicts: dict[int, bool | None] = {}
    lines: dict[int, tuple[str, ...]] = {}

    def winnable(step: int) -> bool | None:
        if step not in verdicts:
            solution = solve_state(game, states[step], node_limit=node_limit)
            verdicts[step] = solution.winnable
            lines[step] = solution.actions
        return verdicts[step]

    def solves() -> int:
        return sum(states[step].status == PLAYING for step in verdicts)

    end = winnable(last)
    if end is None:
        return WhereLost(Outcome.UNKNOWN, None, solves())
    if end:
        return WhereLost(Outcome.STILL_WINNABLE, None, solves())
    start = winnable(0)
    if start is None:
        return WhereLost(Outcome.UNKNOWN, None, solves())
    if not start:
        return WhereLost(Outcome.NEVER_WINNABLE, None, solves())
    # Step ``low`` is proven winnable and step ``high`` proven lost. An unknown step ends
    # the search: stepping around it seldom helps, as the hardest positions are those just
    # after the losing move, whose verdict the answer needs.
    low, high = 0, last
    while high - low > 1:
        middle = (low + high) // 2
        verdict = winnable(middle)
        if verdict is None:
            return WhereLost(Outcome.UNKNOWN, None, solves())
        if verdict:
            low = middle
        else:
            high = middle
    point = TurningPoint(step=low, played=actions[low], instead=lines[low][0])
    return WhereLost(Outcome.LOST_AT, point, solves())


def _solvable(game: str) -> str:
    if game not in GAMES:
        raise ValueError(f"no solver for {game!r}; solvable games: {list(GAMES)}")
    return game
