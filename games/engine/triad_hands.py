"""Triad cards and hand evaluation (TR-1, TR-2, TR-3, TR-10..TR-13).

A card is a text: colour ``P``/``G``/``O`` (purple, green, orange) + level ``1``/``2``/``3``,
or ``X`` for the black Capstone. Inside, a card is a *code* 0..9 in single-card order
(TR-2), lowest first, so a sorted tuple of codes names a hand and larger codes are
better kickers. A hand's value depends only on the multiset of its cards, so values are
memoised by that sorted tuple: the bot evaluates thousands of hands a move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from games.engine.base import gettext_noop

CARD_TEXTS: tuple[str, ...] = ("O3", "G3", "P3", "O2", "G2", "P2", "O1", "G1", "P1", "X")
"""Card texts by code: single-card order (TR-2), lowest first; a colour's index is ``code % 3``
(orange, green, purple: TR-1's order low to high), a level's codes start at 0, 3 or 6."""
CODES = {text: code for code, text in enumerate(CARD_TEXTS)}
CAPSTONE = 9
COPIES = (9, 9, 9, 6, 6, 6, 3, 3, 3, 1)
"""How many of each code the deck holds (TR-1)."""

DECK: tuple[str, ...] = tuple(text for code in range(9, -1, -1) for text in [CARD_TEXTS[code]] * COPIES[code])
"""The 55 cards in a fixed order, best first: the input of every seeded shuffle."""

IMPROVISED = {
    "P1": "A\u2665",
    "G1": "A\u2663",
    "O1": "A\u2666",
    "P2": "K\u2665/Q\u2665",
    "G2": "K\u2663/Q\u2663",
    "O2": "K\u2666/Q\u2666",
    "P3": "2\u2665/3\u2665/4\u2665",
    "G3": "2\u2663/3\u2663/4\u2663",
    "O3": "2\u2666/3\u2666/4\u2666",
    "X": "A\u2660",
}
"""TR-3's improvised deck, for display: the standard cards each Triad card stands for."""

# Ranks (TR-12), low to high. Perfect ranks come in colour order orange, green, purple.
NO_PYRAMID = 0
FIRST = 1
PERFECT_FIRST = 2  # + colour index 0..2
SECOND = 5
PERFECT_SECOND = 6
FULL = 9
PERFECT_FULL = 10
CAPSTONE_PYRAMID = 13

RANK_NAMES: tuple[str, ...] = (
    gettext_noop("No Pyramid"),
    gettext_noop("First-Level Pyramid"),
    gettext_noop("Perfect Orange First-Level Pyramid"),
    gettext_noop("Perfect Green First-Level Pyramid"),
    gettext_noop("Perfect Purple First-Level Pyramid"),
    gettext_noop("Second-Level Pyramid"),
    gettext_noop("Perfect Orange Second-Level Pyramid"),
    gettext_noop("Perfect Green Second-Level Pyramid"),
    gettext_noop("Perfect Purple Second-Level Pyramid"),
    gettext_noop("Full Pyramid"),
    gettext_noop("Perfect Orange Full Pyramid"),
    gettext_noop("Perfect Green Full Pyramid"),
    gettext_noop("Perfect Purple Full Pyramid"),
    gettext_noop("Capstone Pyramid"),
)

_SHAPES = (  # (plain rank, perfect rank, cards needed at levels 3, 2, 1) (TR-10)
    (FULL, PERFECT_FULL, (3, 2, 1)),
    (SECOND, PERFECT_SECOND, (3, 2, 0)),
    (FIRST, PERFECT_FIRST, (2, 1, 0)),
)
_RANK_SCALE = 10**8
"""Ranks sit above eight kicker digits, the most a hand (8 cards, no pyramid) can have."""


def _missing(counts: tuple[int, ...], needs: tuple[int, int, int], colour: int | None) -> int:
    """How many cards the hand lacks for this shape (of this colour, or of any colours)."""
    missing = 0
    for base, need in zip((0, 3, 6), needs, strict=True):
        have = counts[base] + counts[base + 1] + counts[base + 2] if colour is None else counts[base + colour]
        if have < need:
            missing += need - have
    return missing


def _take(counts: tuple[int, ...], needs: tuple[int, int, int], colour: int | None) -> list[int]:
    """The pyramid's cards: at each level the lowest colours first, keeping the best kickers;
    the Capstone fills the one gap there may be (TR-11, TR-13)."""
    used: list[int] = []
    for base, need in zip((0, 3, 6), needs, strict=True):
        for code in (base, base + 1, base + 2) if colour is None else (base + colour,):
            n = min(need, counts[code])
            used += [code] * n
            need -= n
        used += [CAPSTONE] * need
    return used


def _best_shape(counts: tuple[int, ...]) -> tuple[list[int], int]:
    """The cards and rank of the highest pyramid other than the Capstone Pyramid.

    The Capstone stands in only for a real gap: kept back it is the best kicker.
    """
    spare = counts[CAPSTONE]
    for plain, perfect, needs in _SHAPES:
        for colour in (2, 1, 0):
            if _missing(counts, needs, colour) <= spare:
                return _take(counts, needs, colour), perfect + colour
        if _missing(counts, needs, None) <= spare:
            return _take(counts, needs, None), plain
    return [], NO_PYRAMID


def _split(codes: tuple[int, ...]) -> tuple[int, list[int], list[int]]:
    """(rank, pyramid codes, kicker codes best first) of the hand's highest value (TR-13)."""
    counts = [0] * 10
    for code in codes:
        counts[code] += 1
    frozen = tuple(counts)
    used: list[int] | None = None
    rank = CAPSTONE_PYRAMID
    if frozen[CAPSTONE]:  # TR-11: the Capstone as the first-level card of a one-colour 3 + 2
        for colour in (2, 1, 0):
            c3, c2 = colour, 3 + colour
            if frozen[c3] >= 3 and frozen[c2] >= 2:
                used = [c3, c3, c3, c2, c2, CAPSTONE]
                break
    if used is None:
        used, rank = _best_shape(frozen)
    for code in used:
        counts[code] -= 1
    kickers = [code for code in range(9, -1, -1) for _ in range(counts[code])]
    return rank, sorted(used, reverse=True), kickers


def _check_codes(codes: tuple[int, ...]) -> None:
    if len(codes) not in (6, 8):
        raise ValueError(f"a Triad hand has 6 or 8 cards, not {len(codes)}")
    _check_copies(codes)


def _check_copies(codes: tuple[int, ...]) -> None:
    have = Counter(codes)
    extra = [CARD_TEXTS[code] for code, n in have.items() if n > COPIES[code]]
    if extra:
        raise ValueError(f"the deck does not hold that many of {sorted(extra)}")


_VALUES: dict[tuple[int, ...], int] = {}


def value_of_codes(codes: tuple[int, ...]) -> int:
    """The value of a hand given as a *sorted* tuple of codes (the bot's fast path)."""
    value = _VALUES.get(codes)
    if value is None:
        _check_codes(codes)
        rank, _, kickers = _split(codes)
        value = rank * _RANK_SCALE
        scale = _RANK_SCALE // 10
        for code in kickers:
            value += code * scale
            scale //= 10
        _VALUES[codes] = value
    return value


def to_codes(cards: Iterable[str]) -> tuple[int, ...]:
    """Card texts as a sorted tuple of codes; ``ValueError`` naming an unknown text."""
    cards = list(cards)
    try:
        return tuple(sorted(map(CODES.__getitem__, cards)))
    except (KeyError, TypeError):
        bad = [card for card in cards if card not in CODES]
        raise ValueError(f"not Triad cards: {bad}; cards are P1..O3 and X") from None


def hand_value(cards: Iterable[str]) -> int:
    """A number that orders hands of 6 (or of 8) cards: greater is better (TR-10..TR-13).

    The rank (TR-12) comes first, then the cards left out of the pyramid in single-card
    order (TR-2), best first. Values of hands of different sizes are not comparable.
    """
    return value_of_codes(to_codes(cards))


def rank_of_value(value: int) -> int:
    return value // _RANK_SCALE


def hand_name(cards: Iterable[str]) -> str:
    """The name of the hand's best pyramid, e.g. ``"Perfect Green Second-Level Pyramid"``."""
    return RANK_NAMES[rank_of_value(hand_value(cards))]


def best_pyramid_name(cards: Iterable[str]) -> str:
    """The name of the best pyramid among up to 8 cards, however many: Tauron names a
    player's hole cards with the shared cards dealt so far (TH-4)."""
    codes = to_codes(cards)
    if len(codes) > 8:
        raise ValueError(f"a Triad hand has at most 8 cards, not {len(codes)}")
    _check_copies(codes)
    return RANK_NAMES[_split(codes)[0]]


def pyramid_split(cards: Iterable[str]) -> tuple[list[str], list[str]]:
    """The cards of the best pyramid and the kickers, each best first (for laying out a hand)."""
    codes = to_codes(cards)
    _check_codes(codes)
    _, used, kickers = _split(codes)
    return [CARD_TEXTS[code] for code in used], [CARD_TEXTS[code] for code in kickers]


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Card texts best first (TR-2)."""
    return sorted(cards, key=CODES.__getitem__, reverse=True)
