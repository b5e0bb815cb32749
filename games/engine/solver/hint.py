"""Hints that see only what the player sees (LP-7).

    from games.engine.solver import hint
    hint("tripeaks", engine.view(state, 0))   # "7c", "draw", ... or None

``hint`` takes the player's view, never a state, so it cannot read a hidden card (LP-3:
Pyramid's stock below its top card, Tri-Peaks' face-down layout cards and its stock, and
the seed, which decides PY-6 ``reshuffle``'s shuffles to come). Two games that show the
same view get the same hint, whatever their hidden cards.

How it chooses:

1. ``sample_states`` deals ``HINT_SAMPLES`` full positions consistent with the view: the
   hidden cards in a random order (every order is equally likely to the player), and
   with ``reshuffle`` a random seed for the shuffles. The generator is seeded from a hash
   of the view, so the samples, and the hint, depend on the view alone. When nothing is
   hidden (one card at most, and no shuffle ahead) one sample is the position itself.
2. Each legal move (resigning never counts) is tried on each sample, and the exact solver
   says, within ``HINT_SOLVE_NODES`` positions, whether the sample is still winnable
   after it. The hint is the move that keeps the most samples winnable; ties go to the
   move the engine lists first.
3. When no move keeps any sample winnable (the position is lost whatever the hidden cards
   are, or undecided within the budget), the hint is the move whose lines remove the
   most cards (Pyramid: cards removed; Tri-Peaks: layout cards played), summed over the
   first ``HINT_FALLBACK_SAMPLES`` samples, each searched depth-first over every legal
   move for ``HINT_BEST_NODES`` positions; ties again go to the engine's order.

Deterministic: budgets are positions, never seconds. How a view is read and the samples
are built: ``sampling`` (the chance-to-win figure, ``odds``, draws its samples there too).
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Sequence
from typing import Any, Protocol

from games.engine import get_engine
from games.engine.base import View
from games.engine.solitaire_common import PLAYING
from games.engine.solver import _searcher, sampling, solve_state
from games.engine.solver.pyramid_search import RECURSION_LIMIT
from games.engine.solver.sampling import SolitaireViews, check_seat, check_view, hidden_cards, read_view

__all__ = ["HINT_BEST_NODES", "HINT_SAMPLES", "HINT_SOLVE_NODES", "hidden_cards", "hint", "sample_states"]

HINT_SAMPLES = 16
"""Deals consistent with the view that each move is tried on."""
HINT_SOLVE_NODES = 20_000
"""Positions the solver may examine per sample and move."""
HINT_FALLBACK_SAMPLES = 4
"""Samples searched for the most cards removed when no move wins any sample."""
HINT_BEST_NODES = 1_000
"""Positions of that search, per sample."""


def hint(game: str, view: View) -> str | None:
    """A move to suggest to a player who sees ``view`` (``engine.view(state, 0)``), or None
    when the game is over or no move is left; see the module doc (LP-7)."""
    view = check_view(game, view, "hint", "LP-7")
    if view.status != PLAYING:
        return None
    check_seat(view, "hint")
    moves = [text for text in view.legal if text != "resign"]
    if len(moves) <= 1:
        return moves[0] if moves else None
    samples = sample_states(game, view)
    wins = _wins(game, samples, moves)
    if max(wins) > 0:
        return moves[wins.index(max(wins))]
    return _most_cards(game, samples[:HINT_FALLBACK_SAMPLES], moves)


def sample_states(game: str, view: SolitaireViews, count: int | None = None) -> list[Any]:
    """``count`` (default ``HINT_SAMPLES``) positions whose view is ``view``, the hidden cards
    (and with ``reshuffle`` the seed) drawn by a generator seeded from the view's hash.
    One position when nothing is hidden: every sample would be the same."""
    if count is None:
        count = HINT_SAMPLES if read_view(game, view).uncertain else 1
    return sampling.sample_states(game, view, count)


def _wins(game: str, samples: Sequence[Any], moves: Sequence[str]) -> list[int]:
    """Per move, the samples still winnable after it within ``HINT_SOLVE_NODES`` positions."""
    engine = get_engine(game)
    wins = [0] * len(moves)
    for state in samples:
        actions = {str(action): action for action in engine.legal_actions(state)}
        missing = [text for text in moves if text not in actions]
        if missing:
            raise ValueError(f"the view lists moves its position does not allow: {missing}")
        # The whole sample first: once it is lost, so is every move; once the solver has a
        # line, its first move is known to win without a second search.
        root = solve_state(game, state, node_limit=HINT_SOLVE_NODES)
        if root.winnable is False:
            continue
        for i, text in enumerate(moves):
            known = bool(root.winnable) and root.actions[0] == text
            if known or _still_winnable(game, engine.apply(state, actions[text])):
                wins[i] += 1
    return wins


def _still_winnable(game: str, state: Any) -> bool:
    return bool(solve_state(game, state, node_limit=HINT_SOLVE_NODES).winnable)


class _Positions(Protocol):
    def start(self) -> tuple[int, int, int]: ...

    def moves(self, position: tuple[int, int, int]) -> list[tuple[str, tuple[int, int, int], int]]: ...

    def position_key(self, position: tuple[int, int, int]) -> Hashable: ...

    def won_position(self, position: tuple[int, int, int]) -> bool: ...


def _first_move_values(search: _Positions, node_limit: int) -> dict[str, int]:
    """Per first move, the most cards a line starting with it removes, over a depth-first
    search of every legal move that stops expanding after ``node_limit`` positions."""
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
        values: dict[str, int] = {}
        for text, child, gained in search.moves(search.start()):
            values[text] = max(values.get(text, 0), gained + value(child))
        return values
    finally:
        sys.setrecursionlimit(limit)


def _most_cards(game: str, samples: Sequence[Any], moves: Sequence[str]) -> str:
    totals = [0] * len(moves)
    for state in samples:
        values = _first_move_values(_searcher(game, state, None, None), HINT_BEST_NODES)
        for i, text in enumerate(moves):
            totals[i] += values.get(text, 0)
    return moves[totals.index(max(totals))]
