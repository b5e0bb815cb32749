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

How the searches work: ``pyramid_search`` and ``tripeaks_search``. Also here: the deal
of the day (``daily_deal``); hints, which see only the player's view (LP-7), are in
``hint``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import get_engine
from games.engine.pyramid import PyramidState
from games.engine.solitaire_common import PLAYING, WON
from games.engine.solver.pyramid_search import PyramidSearch, SearchAborted
from games.engine.solver.tripeaks_search import TriPeaksSearch
from games.engine.tripeaks import TriPeaksState

__all__ = [
    "GAMES",
    "HINT_SOLVE_NODES",
    "Solution",
    "daily_candidate",
    "daily_deal",
    "hint",
    "solve",
    "solve_state",
]

GAMES = ("pyramid", "tripeaks")

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


# -- the deal of the day ---------------------------------------------------------------


DAILY_DEAL_NUMBERS = 999_999_999
"""Daily seeds are deal numbers 1 .. this, like the site's random deals: short enough to share."""


def daily_candidate(game: str, date: dt.date, k: int, secret: str = "") -> int:
    """Candidate ``k`` for ``date``: 1 + (the first 64 bits of sha256("capstone-daily:GAME:DATE:K")
    modulo 999,999,999).

    With a ``secret`` the digest is HMAC-SHA256 keyed by it instead. The plain formula is
    public (docs/benchmarks.md), so anyone could compute the deal of any day, and with it
    every hidden card, before the day comes; a site keeps its deals to itself (LP-6) by
    passing a secret only it knows. ``secret=""`` keeps the published deals (golden tests).
    """
    return _candidate(f"capstone-daily:{game}:{date.isoformat()}:{k}", secret)


def _candidate(text: str, secret: str) -> int:
    if secret:
        digest = hmac.new(secret.encode(), text.encode(), hashlib.sha256).digest()
    else:
        digest = hashlib.sha256(text.encode()).digest()
    return 1 + int.from_bytes(digest[:8], "big") % DAILY_DEAL_NUMBERS


def daily_deal(game: str, date: dt.date, secret: str = "") -> int:
    """The seed of the deal of the day for ``date`` (a UTC calendar date), the same for everyone
    and for ever: the first candidate k = 0, 1, 2, ... whose standard deal the solver proves
    winnable within ``DAILY_NODE_LIMIT`` positions. A node budget, not a clock, so the
    choice never depends on the machine. ``secret``: see ``daily_candidate`` (LP-6)."""
    if game not in GAMES:
        raise ValueError(f"no daily deal for {game!r}; games: {list(GAMES)}")
    if isinstance(date, dt.datetime):
        raise ValueError("daily_deal takes a date (UTC calendar day), not a datetime")
    for k in range(DAILY_CANDIDATES):
        seed = daily_candidate(game, date, k, secret)
        if solve(game, None, seed, node_limit=DAILY_NODE_LIMIT).winnable:
            return seed
    raise RuntimeError(f"no winnable {game} deal among {DAILY_CANDIDATES} candidates for {date}")


def event_deals(
    game: str, config: dict[str, Any] | None, label: str, count: int, secret: str, avoid: Collection[int] = ()
) -> list[int]:
    """The ``count`` deals of a solitaire event (TN-8), chosen as daily deals are: deal ``n``
    is the first candidate k = 0, 1, ... (HMAC-SHA256 of "capstone-event:GAME:LABEL:N:K" keyed
    by ``secret``) whose deal under ``config`` the solver proves winnable within
    ``DAILY_NODE_LIMIT`` positions, none of them twice nor one of ``avoid``."""
    if game not in GAMES:
        raise ValueError(f"no event deals for {game!r}; games: {list(GAMES)}")
    chosen: list[int] = []
    for n in range(count):
        for k in range(DAILY_CANDIDATES):
            seed = _candidate(f"capstone-event:{game}:{label}:{n}:{k}", secret)
            if seed in chosen or seed in avoid:
                continue
            if solve(game, config, seed, node_limit=DAILY_NODE_LIMIT).winnable:
                chosen.append(seed)
                break
        else:
            raise RuntimeError(f"no winnable {game} deal among {DAILY_CANDIDATES} candidates: {label} #{n}")
    return chosen


# Last: the hint module builds on the solver above (LP-7: it reads the view, never a state).
from games.engine.solver.hint import HINT_SOLVE_NODES, hint  # noqa: E402
