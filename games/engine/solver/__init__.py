"""Exact solitaire solvers: is a Pyramid (PY-1 .. PY-6) or Tri-Peaks (TP-1 .. TP-5) deal winnable?

    from games.engine.solver import solve
    sol = solve("pyramid", config=None, seed=0, deck=None, time_limit=None)
    sol.winnable   # True, False, or None only if a time or node limit ran out
    sol.actions    # a winning line (action texts) when winnable
    sol.nodes      # positions examined

The solvers see every card (for Tri-Peaks, the face-down ones too): they judge the
*deal*. "Won" is the engine's won status. Redeals with ``reshuffle`` follow the
engine's own seeded shuffle, so they are known in advance. Verdicts never depend on
the clock: a ``time_limit`` can only turn a verdict into ``None``.

How the searches work: ``pyramid_search`` and ``tripeaks_search``. Also here: hints
(``hint``) and the deal of the day (``daily_deal``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import sys
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.engine import get_engine
from games.engine.pyramid import PyramidState
from games.engine.solitaire_common import PLAYING, WON
from games.engine.solver.pyramid_search import RECURSION_LIMIT, PyramidSearch, SearchAborted
from games.engine.solver.tripeaks_search import TriPeaksSearch
from games.engine.tripeaks import TriPeaksState

__all__ = ["GAMES", "Solution", "daily_candidate", "daily_deal", "hint", "solve", "solve_state"]

GAMES = ("pyramid", "tripeaks")

HINT_SOLVE_NODES = 20_000
"""A hint first looks for a winning line within this many positions..."""
HINT_BEST_NODES = 1_000
"""...and otherwise for the line removing the most cards within this many."""
DAILY_NODE_LIMIT = 200_000
"""A daily candidate counts only if proven winnable within this many positions."""
DAILY_CANDIDATES = 1_000
"""Candidates tried per date before giving up (never reached in practice: most deals win)."""


@dataclass(frozen=True)
class Solution:
    winnable: bool | None
    """None only when the time or node limit ran out first."""
    actions: tuple[str, ...]
    """A winning line in the engine's action texts, when winnable; else empty."""
    nodes: int
    """Positions examined."""


def _searcher(
    game: str, state: Any, node_limit: int | None, deadline: float | None
) -> PyramidSearch | TriPeaksSearch:
    if game == "pyramid" and isinstance(state, PyramidState):
        return PyramidSearch(state, node_limit, deadline)
    if game == "tripeaks" and isinstance(state, TriPeaksState):
        return TriPeaksSearch(state, node_limit, deadline)
    if game not in GAMES:
        raise ValueError(f"no solver for {game!r}; solvable games: {list(GAMES)}")
    raise ValueError(f"a {game} solve needs a {game} state, not {type(state).__name__}")


def solve_state(
    game: str, state: Any, time_limit: float | None = None, node_limit: int | None = None
) -> Solution:
    """Solve from any position of a running (or finished) game."""
    if state.status != PLAYING:
        return Solution(state.status == WON, (), 0)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    search = _searcher(game, state, node_limit, deadline)
    try:
        won = search.run()
    except SearchAborted:
        return Solution(None, (), search.nodes)
    return Solution(won, tuple(reversed(search.line)) if won else (), search.nodes)


def solve(
    game: str,
    config: dict[str, Any] | None = None,
    seed: int = 0,
    deck: Sequence[str] | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
) -> Solution:
    """Solve the deal of ``(config, seed)``, or of ``deck`` (top card first) if given."""
    state = get_engine(game).initial_state(config, seed, deck)
    return solve_state(game, state, time_limit, node_limit)


# -- hints -----------------------------------------------------------------------------


class _Positions(Protocol):
    def start(self) -> tuple[int, int, int]: ...

    def moves(self, position: tuple[int, int, int]) -> list[tuple[str, tuple[int, int, int], int]]: ...

    def position_key(self, position: tuple[int, int, int]) -> Hashable: ...

    def won_position(self, position: tuple[int, int, int]) -> bool: ...


def _best_line(search: _Positions, node_limit: int) -> tuple[str | None, int]:
    """The first move of the line removing the most cards, and that count, from a
    depth-first search over every legal move that stops after ``node_limit`` positions."""
    best: dict[Hashable, int] = {}
    examined = 0

    def value(position: tuple[int, int, int]) -> int:
        nonlocal examined
        key = search.position_key(position)
        known = best.get(key)
        if known is not None:
            return known
        examined += 1
        result = 0
        if examined <= node_limit and not search.won_position(position):
            for _, child, gained in search.moves(position):
                result = max(result, gained + value(child))
        best[key] = result
        return result

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, RECURSION_LIMIT))
    try:
        choice, top = None, -1
        for text, child, gained in search.moves(search.start()):
            score = gained + value(child)
            if score > top:
                choice, top = text, score
        return choice, max(top, 0)
    finally:
        sys.setrecursionlimit(limit)


def hint(game: str, state: Any) -> str | None:
    """A move to suggest in ``state``, or None when the game is over or no move is left.

    1. The first move of a winning line, if the solver finds one within
       ``HINT_SOLVE_NODES`` positions: playing it keeps the game winnable.
    2. Otherwise (the position is lost, or undecided within that budget): the first move
       of the line that removes the most cards (Pyramid: cards removed; Tri-Peaks: layout
       cards played) among the lines a depth-first search over every legal move meets in
       its first ``HINT_BEST_NODES`` positions; ties go to the move the engine lists
       first. Draws and redeals count as moves; resigning never does.

    Deterministic: it depends on the position only, never on the clock.
    """
    if state.status != PLAYING:
        return None
    solution = solve_state(game, state, node_limit=HINT_SOLVE_NODES)
    if solution.winnable:
        return solution.actions[0]
    return _best_line(_searcher(game, state, None, None), HINT_BEST_NODES)[0]


# -- the deal of the day ---------------------------------------------------------------


DAILY_DEAL_NUMBERS = 999_999_999
"""Daily seeds are deal numbers 1 .. this, like the site's random deals: short enough to share."""


def daily_candidate(game: str, date: dt.date, k: int) -> int:
    """Candidate ``k`` for ``date``: 1 + (the first 64 bits of sha256("capstone-daily:GAME:DATE:K")
    modulo 999,999,999)."""
    text = f"capstone-daily:{game}:{date.isoformat()}:{k}"
    return 1 + int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") % DAILY_DEAL_NUMBERS


def daily_deal(game: str, date: dt.date) -> int:
    """The seed of the deal of the day for ``date`` (a UTC calendar date), the same for everyone
    and for ever: the first candidate k = 0, 1, 2, ... whose standard deal the solver proves
    winnable within ``DAILY_NODE_LIMIT`` positions. A node budget, not a clock, so the
    choice never depends on the machine."""
    if game not in GAMES:
        raise ValueError(f"no daily deal for {game!r}; games: {list(GAMES)}")
    if isinstance(date, dt.datetime):
        raise ValueError("daily_deal takes a date (UTC calendar day), not a datetime")
    for k in range(DAILY_CANDIDATES):
        seed = daily_candidate(game, date, k)
        if solve(game, None, seed, node_limit=DAILY_NODE_LIMIT).winnable:
            return seed
    raise RuntimeError(f"no winnable {game} deal among {DAILY_CANDIDATES} candidates for {date}")
