"""Five-card poker hand ranks for Pyramid Poker (BL-6, BL-7), on top of ``treys``.

``treys`` (pure Python, no dependencies) maps each five-card hand to one of the 7,462
distinct poker values with a lookup table, kickers included, and already treats
A-2-3-4-5 as the lowest straight and the ace-high straight flush as a Royal Flush
(checked against eval7 over all 2,598,960 hands). We wrap it so the rest of the
project speaks our card texts (``Ah``, ``Td``) and "greater is better".
"""

from __future__ import annotations

from collections.abc import Sequence

from treys import Card, Evaluator

from games.engine.base import gettext_noop
from games.engine.cards import STANDARD_DECK

HAND_NAMES: tuple[str, ...] = (
    gettext_noop("No Pair"),
    gettext_noop("Pair"),
    gettext_noop("Two Pair"),
    gettext_noop("Three of a Kind"),
    gettext_noop("Straight"),
    gettext_noop("Flush"),
    gettext_noop("Full House"),
    gettext_noop("Four of a Kind"),
    gettext_noop("Straight Flush"),
    gettext_noop("Royal Flush"),
)
"""Hand categories from worst to best; a category's position is its ``poker_category``."""

HAND_POINTS: dict[str, int] = {
    "Royal Flush": 5,
    "Straight Flush": 4,
    "Four of a Kind": 3,
    "Full House": 2,
    "Flush": 1,
    "Straight": 1,
    "Three of a Kind": 0,
    "Two Pair": 0,
    "Pair": 0,
    "No Pair": -1,
}
"""BL-7: the points a finished hand scores in advanced scoring."""

_EVALUATOR = Evaluator()
_TREYS_CARD: dict[str, int] = {card: Card.new(card) for card in STANDARD_DECK}
_WORST = 7462
"""treys ranks hands 1 (Royal Flush) .. 7462 (7-5-4-3-2 offsuit)."""


def _treys_rank(cards: Sequence[str]) -> int:
    if isinstance(cards, str):
        raise ValueError("a poker hand is a sequence of five card texts, not one string")
    if len(cards) != 5:
        raise ValueError(f"a poker hand has exactly 5 cards, got {len(cards)}")
    if len(set(cards)) != 5:
        raise ValueError(f"a poker hand cannot hold the same card twice: {list(cards)}")
    try:
        ints = [_TREYS_CARD[card] for card in cards]
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a standard card text such as 'Ah' or 'Td': {exc.args[0]!r}") from exc
    rank: int = _EVALUATOR.evaluate(ints, [])
    return rank


def poker_value(cards: Sequence[str]) -> int:
    """A number from 1 to 7462 that orders five-card hands; greater is better, equal is a tie."""
    return _WORST + 1 - _treys_rank(cards)


def poker_category(cards: Sequence[str]) -> int:
    """The hand's position in ``HAND_NAMES`` (0 = No Pair ... 9 = Royal Flush)."""
    # treys numbers its classes from 0 (Royal Flush) to 9 (High Card).
    rank_class: int = _EVALUATOR.get_rank_class(_treys_rank(cards))
    return 9 - rank_class


def poker_name(cards: Sequence[str]) -> str:
    """The hand's category name, e.g. ``"Full House"`` (``"No Pair"`` for a high-card hand)."""
    return HAND_NAMES[poker_category(cards)]
