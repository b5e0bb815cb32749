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

Deterministic: budgets are positions, never seconds. The samples are built through the
engines' public API: ``initial_state`` with a deck arranged so that every visible card
lands where the view shows it, then the position's progress (removed cards, waste,
counters) set on that frozen state with ``dataclasses.replace``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import replace
from typing import Any, Protocol

from games.engine import get_engine
from games.engine.base import MAX_SEED, View
from games.engine.cards import STANDARD_DECK
from games.engine.pyramid import PAR_BASE, PyramidState, PyramidView
from games.engine.rng import SeededRNG
from games.engine.solitaire_common import PLAYING
from games.engine.solver import _searcher, solve_state
from games.engine.solver.pyramid_search import RECURSION_LIMIT
from games.engine.tripeaks import TriPeaksCell, TriPeaksState, TriPeaksView

__all__ = ["HINT_BEST_NODES", "HINT_SAMPLES", "HINT_SOLVE_NODES", "hidden_cards", "hint", "sample_states"]

HINT_SAMPLES = 16
"""Deals consistent with the view that each move is tried on."""
HINT_SOLVE_NODES = 20_000
"""Positions the solver may examine per sample and move."""
HINT_FALLBACK_SAMPLES = 4
"""Samples searched for the most cards removed when no move wins any sample."""
HINT_BEST_NODES = 1_000
"""Positions of that search, per sample."""


SolitaireViews = PyramidView | TriPeaksView


def hint(game: str, view: View) -> str | None:
    """A move to suggest to a player who sees ``view`` (``engine.view(state, 0)``), or None
    when the game is over or no move is left; see the module doc (LP-7)."""
    if not isinstance(view, PyramidView | TriPeaksView):
        raise TypeError(
            f"hint takes the player's view (engine.view(state, 0)), not a {type(view).__name__}: "
            "a hint must not read hidden cards (LP-7)"
        )
    if view.game != game:
        raise ValueError(f"a {game} hint needs a {game} view, not one of {view.game!r}")
    if view.status != PLAYING:
        return None
    if view.seat != 0:
        # A spectator's view lists no move, and a full view shows hidden cards (LP-3).
        raise ValueError("a hint needs the player's own view, engine.view(state, 0)")
    moves = [text for text in view.legal if text != "resign"]
    if len(moves) <= 1:
        return moves[0] if moves else None
    samples = sample_states(game, view)
    wins = _wins(game, samples, moves)
    if max(wins) > 0:
        return moves[wins.index(max(wins))]
    return _most_cards(game, samples[:HINT_FALLBACK_SAMPLES], moves)


def hidden_cards(game: str, view: SolitaireViews) -> list[str]:
    """The cards the view does not show, in deck order (LP-3)."""
    return _reader(game, view).hidden


def sample_states(game: str, view: SolitaireViews, count: int | None = None) -> list[Any]:
    """``count`` (default ``HINT_SAMPLES``) positions whose view is ``view``, the hidden cards
    (and with ``reshuffle`` the seed) drawn by a generator seeded from the view's hash.
    One position when nothing is hidden: every sample would be the same."""
    reader = _reader(game, view)
    if count is None:
        count = HINT_SAMPLES if reader.uncertain else 1
    rnd = SeededRNG(_view_hash(view))
    # Each sample draws from the one generator in turn, so sample k is the same whatever
    # ``count`` is: a smaller count is a prefix of a larger one.
    return [reader.build(rnd.shuffled(reader.hidden), rnd.below(MAX_SEED)) for _ in range(count)]


def _reader(game: str, view: SolitaireViews) -> _PyramidView | _TriPeaksView:
    if game not in ("pyramid", "tripeaks"):
        raise ValueError(f"no hints for {game!r}")
    if game == "pyramid" and isinstance(view, PyramidView):
        return _PyramidView(view)
    if game == "tripeaks" and isinstance(view, TriPeaksView):
        return _TriPeaksView(view)
    raise ValueError(f"a {game} hint needs a {game} view, not a {type(view).__name__}")


def _view_hash(view: SolitaireViews) -> int:
    text = json.dumps(_hashed_data(view), sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _hashed_data(view: SolitaireViews) -> dict[str, Any]:
    """The view's data as the engines gave it before views were typed (``legal`` texts,
    ``moves`` and ``pass`` counts, no ``seat``, no hidden ``stock`` or ``seed`` key), so that
    the samples, and so the hints, of a position stay what they were."""
    data = view.data()
    del data["seat"]
    data["legal"] = [move["text"] for move in data.pop("moves")]
    data["moves"] = data.pop("move_count")
    if "pass_number" in data:
        data["pass"] = data.pop("pass_number")
    for hidden in ("stock", "seed"):
        if hidden in data and data[hidden] is None:
            del data[hidden]
    return data


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


# -- reading a view and dealing positions consistent with it ---------------------------


def _fill(cells: Sequence[str | None], spare: Iterator[str]) -> list[str]:
    """``cells`` with each gap (a card gone) filled from ``spare``: a deck needs every card."""
    return [card if card is not None else next(spare) for card in cells]


class _PyramidView:
    """A Pyramid view (PY-1 .. PY-6): everything is face up but the stock below its top."""

    def __init__(self, view: PyramidView) -> None:
        self.view = view
        self.config: dict[str, Any] = dict(view.config)
        self.tableau: list[str | None] = [cell.card for row in view.tableau for cell in row]
        self.reserve: list[str | None] = list(view.reserve)
        self.waste: list[str] = list(view.waste)
        self.removed: list[str] = list(view.removed)
        self.top: str | None = view.stock_top
        seen = (*self.tableau, *self.reserve, *self.waste, *self.removed, self.top)
        shown = {card for card in seen if card}
        self.hidden = [card for card in STANDARD_DECK if card not in shown]
        if len(self.hidden) != max(0, view.stock_count - 1):
            raise ValueError("this is not the view of a Pyramid position: its cards do not add up to a deck")
        redeals_left = view.redeals_left
        # With reshuffle the order of every later pass comes from the seed, which the
        # player does not know: that too is drawn per sample.
        self.uncertain = len(self.hidden) > 1 or (
            bool(self.config.get("reshuffle")) and (redeals_left is None or redeals_left > 0)
        )

    def build(self, hidden: Sequence[str], seed: int) -> PyramidState:
        view = self.view
        stock = [self.top, *hidden] if self.top else []
        gone = iter([*self.removed, *self.waste])
        deck = [*_fill(self.tableau, gone), *_fill(self.reserve, gone), *stock, *gone]
        dealt: PyramidState = get_engine("pyramid").initial_state(self.config, seed, deck)
        cleared_pass = None
        if view.par is not None and view.par + view.cards_left != 0:
            cleared_pass = PAR_BASE.index(view.par + view.cards_left) + 1
        elif all(card is None for card in self.tableau):
            cleared_pass = view.pass_number
        # Whether this pass has removed a card (PY-5, unlimited redeals) is not in the view;
        # it shows only when the stock is empty, as whether a redeal is legal. Otherwise
        # the sample assumes it has not: a line never counts on a redeal it may not have.
        pass_removed = not stock and "redeal" in view.legal
        return replace(
            dealt,
            tableau=tuple(self.tableau),
            reserve=tuple(self.reserve),
            stock=tuple(stock),
            waste=tuple(self.waste),
            removed=tuple(self.removed),
            redeals_used=view.redeals_used,
            pass_removed=pass_removed,
            points=view.points,
            cleared_pass=cleared_pass,
            moves=view.move_count,
            status=PLAYING,
        )


class _TriPeaksView:
    """A Tri-Peaks view (TP-1 .. TP-5): the face-down layout cards and the stock are hidden."""

    def __init__(self, view: TriPeaksView) -> None:
        self.view = view
        self.config: dict[str, Any] = dict(view.config)
        self.cells: list[TriPeaksCell] = [cell for row in view.layout for cell in row]
        self.waste: list[str] = list(view.waste)
        self.face_down = [cell for cell in self.cells if not cell.removed and cell.card is None]
        shown = {cell.card for cell in self.cells if cell.card} | set(self.waste)
        self.hidden = [card for card in STANDARD_DECK if card not in shown]
        if len(self.hidden) != len(self.face_down) + view.stock_count:
            raise ValueError(
                "this is not the view of a Tri-Peaks position: its cards do not add up to a deck"
            )
        self.uncertain = len(self.hidden) > 1

    def build(self, hidden: Sequence[str], seed: int) -> TriPeaksState:
        view = self.view
        cards = iter(hidden)
        layout = [
            None if cell.removed else cell.card if cell.card is not None else next(cards)
            for cell in self.cells
        ]
        stock = list(cards)
        # Deal order (TP-2): the layout, one card that starts the waste, then the stock.
        gone = iter(self.waste)
        deck = [*_fill(layout, gone), next(gone), *stock, *gone]
        dealt: TriPeaksState = get_engine("tripeaks").initial_state(self.config, seed, deck)
        return replace(
            dealt,
            layout=tuple(layout),
            stock=tuple(stock),
            waste=tuple(self.waste),
            run=view.run,
            score=view.score,
            moves=view.move_count,
            status=PLAYING,
        )
