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

from django.utils.translation import gettext, gettext_noop, pgettext

from games.engine.base import Engine, and_words
from games.kinds.refusals import worded

# Marked here, worded when said (``card_name``): the reader's language is known only then.
RANK_NAMES = {
    "A": gettext_noop("Ace"), "2": gettext_noop("Two"), "3": gettext_noop("Three"),
    "4": gettext_noop("Four"), "5": gettext_noop("Five"), "6": gettext_noop("Six"),
    "7": gettext_noop("Seven"), "8": gettext_noop("Eight"), "9": gettext_noop("Nine"),
    "T": gettext_noop("Ten"), "J": gettext_noop("Jack"), "Q": gettext_noop("Queen"),
    "K": gettext_noop("King"),
}  # fmt: skip
SUIT_NAMES = {
    "c": gettext_noop("clubs"),
    "d": gettext_noop("diamonds"),
    "h": gettext_noop("hearts"),
    "s": gettext_noop("spades"),
}


def card_name(card: str) -> str:
    """``"Td"`` -> ``"Ten of diamonds"``: the one place cards get their spoken names."""
    return pgettext("a card: rank, suit", "%(rank)s of %(suit)s") % {
        "rank": gettext(RANK_NAMES[card[0]]),
        "suit": gettext(SUIT_NAMES[card[1]]),
    }


def ordinal(n: int) -> str:
    """1st, 2nd ... in the reader's language ("1º" in Italian; Django's humanize says "1esimo")."""
    said = {"number": n}
    if 10 <= n % 100 <= 20:
        return pgettext("an ordinal number ending in 11 to 20", "%(number)sth") % said
    if n % 10 == 1:
        return pgettext("an ordinal number ending in 1", "%(number)sst") % said
    if n % 10 == 2:
        return pgettext("an ordinal number ending in 2", "%(number)snd") % said
    if n % 10 == 3:
        return pgettext("an ordinal number ending in 3", "%(number)srd") % said
    return pgettext("an ordinal number", "%(number)sth") % said


def and_list(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` in the reader's language."""
    return worded(and_words(list(items)))


def seat_name(names: Sequence[str], seat: int) -> str:
    # A replay of a table whose seat list is shorter than the game (a seat never filled)
    # must still read, so missing names fall back to the seat number.
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return gettext("Seat %(number)s") % {"number": seat + 1}


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
