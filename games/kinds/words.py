"""Words shared by the games' narrators: card names, seat names and sentence pieces.

Hidden information (LP-3). Narrators read only the engines' views, never a state's
fields: with ``reveal=False`` the public view ``view(state, None)``, which holds only
what every spectator knows, so no hidden card can reach a sentence by accident; with
``reveal=True`` (finished games only) ``full_view(state)``, where hidden cards simply
appear in the same places.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from games.engine.base import Engine
from games.engine.solitaire_common import and_list

RANK_NAMES = {
    "A": "Ace", "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
    "8": "Eight", "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King",
}  # fmt: skip
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def card_name(card: str) -> str:
    """``"Td"`` -> ``"Ten of diamonds"``: the one place cards get their spoken names."""
    return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def seat_name(names: Sequence[str], seat: int) -> str:
    # A replay of a table whose seat list is shorter than the game (a seat never filled)
    # must still read, so missing names fall back to the seat number.
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return f"Seat {seat + 1}"


@dataclass
class Step:
    """One action with the two states around it, seen as ``reveal`` allows."""

    engine: Engine[Any, Any]
    before: Any
    action: Any
    after: Any
    names: Sequence[str]
    reveal: bool

    def _seen(self, state: Any) -> Any:
        return self.engine.full_view(state) if self.reveal else self.engine.view(state, None)

    @cached_property
    def pre(self) -> Any:
        return self._seen(self.before)

    @cached_property
    def post(self) -> Any:
        return self._seen(self.after)

    def name(self, seat: int) -> str:
        return seat_name(self.names, seat)

    def name_list(self, seats: Sequence[int]) -> str:
        return and_list([self.name(seat) for seat in seats])


def sentence(head: str, *tails: str) -> str:
    return "; ".join([head, *(tail for tail in tails if tail)])
