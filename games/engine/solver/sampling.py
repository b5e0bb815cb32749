"""Positions consistent with what a player sees: what hints (LP-7) and odds (LP-11) solve.

    reader = read_view("pyramid", engine.view(state, 0))
    reader.hidden                # the cards the view does not show (LP-3), in deck order
    reader.build(order, seed)    # a position whose view is that view, its hidden cards in ``order``
    sample_states("pyramid", view, 16)   # 16 such positions, drawn from a hash of the view

A view hides Pyramid's stock below its top card (and the seed, which decides PY-6
``reshuffle``'s shuffles to come) and Tri-Peaks' face-down layout cards and its stock.
Every order of those cards is equally likely to the player, so a position is dealt with
the hidden cards in a given order, built through the engines' public API: ``initial_state``
with a deck arranged so that every visible card lands where the view shows it, then the
position's progress (removed cards, waste, counters) set on that frozen state with
``dataclasses.replace``. The random draws come from a generator seeded from a hash of the
view, so what is computed from them depends on the view alone.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from games.engine import get_engine
from games.engine.base import MAX_SEED, View
from games.engine.cards import STANDARD_DECK
from games.engine.pyramid import PAR_BASE, PyramidState, PyramidView
from games.engine.rng import SeededRNG, derive_seed
from games.engine.solitaire_common import PLAYING
from games.engine.tripeaks import TriPeaksCell, TriPeaksState, TriPeaksView

__all__ = [
    "PyramidReader",
    "SolitaireViews",
    "TriPeaksReader",
    "check_seat",
    "check_view",
    "hidden_cards",
    "read_view",
    "sample_states",
    "view_rng",
]

SolitaireViews = PyramidView | TriPeaksView


def check_view(game: str, view: View, what: str, rule: str) -> SolitaireViews:
    """``view`` if it is a ``game`` view; ``what`` ("hint", ...) names the caller in the
    errors, ``rule`` the rule that keeps it from reading hidden cards."""
    if not isinstance(view, PyramidView | TriPeaksView):
        raise TypeError(
            f"{what} takes the player's view (engine.view(state, 0)), not a {type(view).__name__}: "
            f"a {what} must not read hidden cards ({rule})"
        )
    if view.game != game:
        raise ValueError(f"a {game} {what} needs a {game} view, not one of {view.game!r}")
    return view


def check_seat(view: SolitaireViews, what: str) -> None:
    """A spectator's view lists no move, and a full view shows hidden cards (LP-3): only the
    player's own view (seat 0) will do."""
    if view.seat != 0:
        raise ValueError(f"a {what} needs the player's own view, engine.view(state, 0)")


def hidden_cards(game: str, view: SolitaireViews) -> list[str]:
    """The cards the view does not show, in deck order (LP-3)."""
    return read_view(game, view).hidden


def view_rng(view: SolitaireViews, stream: str | None = None) -> SeededRNG:
    """A generator seeded from a hash of ``view``; ``stream`` names an independent one."""
    seed = _view_hash(view)
    return SeededRNG(seed if stream is None else derive_seed(seed, stream))


def sample_states(game: str, view: SolitaireViews, count: int, stream: str | None = None) -> list[Any]:
    """``count`` positions whose view is ``view``, the hidden cards (and with ``reshuffle``
    the seed) drawn at random by ``view_rng(view, stream)``."""
    reader = read_view(game, view)
    rnd = view_rng(view, stream)
    # Each sample draws from the one generator in turn, so sample k is the same whatever
    # ``count`` is: a smaller count is a prefix of a larger one.
    return [reader.build(rnd.shuffled(reader.hidden), rnd.below(MAX_SEED)) for _ in range(count)]


def read_view(game: str, view: SolitaireViews) -> PyramidReader | TriPeaksReader:
    if game not in ("pyramid", "tripeaks"):
        raise ValueError(f"{game!r} is no solitaire game: only pyramid and tripeaks views are read")
    if game == "pyramid" and isinstance(view, PyramidView):
        return PyramidReader(view)
    if game == "tripeaks" and isinstance(view, TriPeaksView):
        return TriPeaksReader(view)
    raise ValueError(f"a {game} position needs a {game} view, not a {type(view).__name__}")


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


def _fill(cells: Sequence[str | None], spare: Iterator[str]) -> list[str]:
    """``cells`` with each gap (a card gone) filled from ``spare``: a deck needs every card."""
    return [card if card is not None else next(spare) for card in cells]


class PyramidReader:
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
        self.shuffle_ahead = bool(self.config.get("reshuffle")) and (redeals_left is None or redeals_left > 0)
        """With reshuffle the order of every later pass comes from the seed, which the
        player does not know: that too is drawn per sample."""
        self.uncertain = len(self.hidden) > 1 or self.shuffle_ahead
        self._template = self._deal(self.hidden, 0)

    def build(self, hidden: Sequence[str], seed: int) -> PyramidState:
        """The position with the hidden stock in ``hidden``'s order and ``seed``'s shuffles."""
        # Samples differ only there: the first deal stands for the rest (and it checked,
        # through the engine, that the view's cards make a deck).
        stock = (self.top, *hidden) if self.top else ()
        return replace(self._template, stock=stock, seed=seed)

    def _deal(self, hidden: Sequence[str], seed: int) -> PyramidState:
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


class TriPeaksReader:
    """A Tri-Peaks view (TP-1 .. TP-5): the face-down layout cards and the stock are hidden."""

    shuffle_ahead = False
    """Tri-Peaks never shuffles: the hidden cards' order is all there is to draw."""

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
        self._template = self._deal(self.hidden, 0)

    def build(self, hidden: Sequence[str], seed: int) -> TriPeaksState:
        """The position with the face-down cards, then the stock, dealt in ``hidden``'s
        order (``seed`` is for Pyramid's shuffles: Tri-Peaks has none)."""
        # Samples differ only there: the first deal stands for the rest (and it checked,
        # through the engine, that the view's cards make a deck).
        layout, stock = self._places(hidden)
        return replace(self._template, layout=tuple(layout), stock=tuple(stock))

    def _places(self, hidden: Sequence[str]) -> tuple[list[str | None], list[str]]:
        cards = iter(hidden)
        layout = [
            None if cell.removed else cell.card if cell.card is not None else next(cards)
            for cell in self.cells
        ]
        return layout, list(cards)

    def _deal(self, hidden: Sequence[str], seed: int) -> TriPeaksState:
        view = self.view
        layout, stock = self._places(hidden)
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
