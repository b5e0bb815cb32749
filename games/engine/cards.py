"""Standard playing cards as two-character text: rank ``A23456789TJQK`` + suit ``cdhs``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

RANKS = "A23456789TJQK"
SUITS = "cdhs"
STANDARD_DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
"""The 52 cards in a fixed order (clubs, diamonds, hearts, spades; ace to king)."""

SUIT_SYMBOLS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}


def rank_value(card: str) -> int:
    """Pip value: A=1 ... K=13 (PY-1's values, also Tri-Peaks adjacency)."""
    return RANKS.index(card[0]) + 1


def check_deck(deck: Sequence[str], expected: Sequence[str], what: str = "deck") -> tuple[str, ...]:
    """``deck`` as a tuple if it holds exactly the cards of ``expected``, else ``ValueError``."""
    if isinstance(deck, str):
        raise ValueError(f"{what} must be a sequence of card texts, not one string")
    cards = tuple(deck)
    if any(not isinstance(card, str) for card in cards):
        raise ValueError(f"{what} must hold card texts such as {expected[0]!r}")
    want, have = Counter(expected), Counter(cards)
    if want != have:
        problems = []
        unknown = sorted(set(have) - set(want))
        if unknown:
            problems.append(f"unknown {unknown}")
        missing = sorted((want - have).elements())
        if missing:
            problems.append(f"missing {missing}")
        repeated = sorted(card for card in (have - want) if card in want)
        if repeated:
            problems.append(f"repeated {repeated}")
        raise ValueError(f"{what} must be exactly the {len(want)} cards of the game: {'; '.join(problems)}")
    return cards
