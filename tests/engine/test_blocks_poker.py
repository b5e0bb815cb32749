"""BL-6 hand ranks: ``poker_value`` and ``poker_name`` (treys underneath), checked against a
small independent evaluator written out here in the plain textbook way."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from games.engine.blocks import poker_name, poker_value
from games.engine.cards import STANDARD_DECK
from games.engine.poker import HAND_NAMES, poker_category

NAMED = [
    ("No Pair", "7c 5d 4h 3s 2c"),
    ("Pair", "2c 2d 4h 7s 9c"),
    ("Two Pair", "4d 4c Qc Qh 7d"),
    ("Three of a Kind", "4d Qd Qc Qh 7d"),
    ("Straight", "Ah 2d 3c 4s 5h"),
    ("Straight", "Tc Jd Qh Ks Ac"),
    ("Flush", "Qs 7s 4s 9s Ks"),
    ("Full House", "Qh Qd Qc 2d 2s"),
    ("Four of a Kind", "Qh Qd Qc Qs 3c"),
    ("Straight Flush", "Ah 2h 3h 4h 5h"),
    ("Straight Flush", "4s 5s 6s 7s 8s"),
    ("Royal Flush", "Ts Js Qs Ks As"),
]


@pytest.mark.parametrize(("name", "hand"), NAMED)
def test_bl6_hand_names(name: str, hand: str) -> None:
    assert poker_name(hand.split()) == name
    assert HAND_NAMES[poker_category(hand.split())] == name


def test_bl6_categories_order_as_in_poker() -> None:
    values = [poker_value(hand.split()) for _, hand in NAMED]
    assert values == sorted(values) and len(set(values)) == len(values)


@pytest.mark.parametrize(
    ("lower", "higher"),
    [
        ("Ah 2d 3c 4s 5h", "2h 3d 4c 5s 6h"),  # A-2-3-4-5 is the lowest straight
        ("Kh Qd Jc 9s 8h", "Ah 2d 3c 4s 5h"),  # ... but still a straight
        ("Ah 2h 3h 4h 5h", "2s 3s 4s 5s 6s"),  # and the lowest straight flush
        ("9s Ks Qs Js Ts", "As Ks Qs Js Ts"),  # Royal Flush tops the straight flushes
        ("Kh Kd 9c 7c 2s", "Kc Ks 9d 7d 3s"),  # kickers, down to the last card
        ("Kh Kd Qc Qs 2d", "Kc Ks Qd Qh 3d"),  # two pair: the fifth card decides
        ("Ah Kh Qh Jh 8h", "2d 2c 2h 3s 3c"),  # full house beats flush
        ("Ac Ad Ah 2c 3d", "2d 3h 4c 5s 6d"),  # straight beats three of a kind
        ("Kc Kd Kh Ks Ac", "2c 3c 4c 5c 6c"),  # straight flush beats four of a kind
    ],
)
def test_bl6_hand_order(lower: str, higher: str) -> None:
    assert poker_value(lower.split()) < poker_value(higher.split())


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ah Kh 9h 7h 3h", "As Ks 9s 7s 3s"),
        ("Qc Qd 8c 6d 4c", "Qh Qs 8d 6c 4d"),
        ("Ah 2d 3c 4s 5h", "5c 4c 3d 2s Ad"),
    ],
)
def test_bl6_equal_hands_are_equal_whatever_the_suits(one: str, other: str) -> None:
    assert poker_value(one.split()) == poker_value(other.split())


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        (["Ah", "Kh", "Qh", "Jh"], "exactly 5"),
        (["Ah", "Kh", "Qh", "Jh", "Ah"], "same card twice"),
        (["Ah", "Kh", "Qh", "Jh", "X1"], "standard card"),
        (["Ah", "Kh", "Qh", "Jh", "1h"], "standard card"),
        ("AhKhQhJhTh", "not one string"),
    ],
)
def test_bad_hands_are_refused(cards: Any, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        poker_value(cards)


def reference_key(cards: list[str]) -> tuple[int, tuple[int, ...]]:
    """Textbook poker order: category, then ranks by (count, rank), ace high except in the wheel."""
    ranks = sorted(("23456789TJQKA".index(c[0]) + 2 for c in cards), reverse=True)
    counts = Counter(ranks)
    grouped = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len({c[1] for c in cards}) == 1
    straight_high = 0
    if len(counts) == 5 and ranks[0] - ranks[4] == 4:
        straight_high = ranks[0]
    elif ranks == [14, 5, 4, 3, 2]:
        straight_high = 5
    if straight_high and flush:
        return (9 if straight_high == 14 else 8, (straight_high,))
    if shape[0] == 4:
        return 7, tuple(grouped)
    if shape == [3, 2]:
        return 6, tuple(grouped)
    if flush:
        return 5, tuple(ranks)
    if straight_high:
        return 4, (straight_high,)
    return {(3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(tuple(shape), 0), tuple(grouped)


def test_bl6_agrees_with_the_textbook_order_on_random_hands() -> None:
    rng = random.Random(6)
    hands = [rng.sample(STANDARD_DECK, 5) for _ in range(3000)]
    # Straights and flushes are rare in random hands; add some so every category is compared.
    for _ in range(300):
        suit = rng.choice("cdhs")
        start = rng.randrange(0, 10)
        ranks = ["A23456789TJQKA"[start + k] for k in range(5)]
        hands.append([r + suit for r in ranks])
        hands.append([r + rng.choice("cdhs") for r in ranks])
        hands.append([r + suit for r in rng.sample("23456789TJQKA", 5)])
    keyed = sorted(hands, key=reference_key)
    for a, b in itertools.pairwise(keyed):
        ka, kb = reference_key(a), reference_key(b)
        va, vb = poker_value(a), poker_value(b)
        assert (va < vb) if ka < kb else (va == vb), (a, b)
        assert poker_category(a) == ka[0]
