"""The Triad deck and hand evaluator: TR-1, TR-2, TR-3, TR-10 .. TR-13.

The evaluator is checked against a brute force written straight from the rules: every
way of picking a pyramid out of the hand, with the Capstone standing in for any card.
"""

from __future__ import annotations

import time
from collections import Counter
from itertools import combinations, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.triad import DECK, hand_name, hand_value
from games.engine.triad_hands import COPIES, IMPROVISED, pyramid_split, sort_cards

# TR-12, high to low, spelled out again here so the brute force owes nothing to the engine.
TR12 = [
    "Capstone Pyramid",
    "Perfect Purple Full Pyramid",
    "Perfect Green Full Pyramid",
    "Perfect Orange Full Pyramid",
    "Full Pyramid",
    "Perfect Purple Second-Level Pyramid",
    "Perfect Green Second-Level Pyramid",
    "Perfect Orange Second-Level Pyramid",
    "Second-Level Pyramid",
    "Perfect Purple First-Level Pyramid",
    "Perfect Green First-Level Pyramid",
    "Perfect Orange First-Level Pyramid",
    "First-Level Pyramid",
    "No Pyramid",
]
SINGLE_ORDER = ["O3", "G3", "P3", "O2", "G2", "P2", "O1", "G1", "P1", "X"]  # TR-2, low to high
SHAPES = {"Full": {3: 3, 2: 2, 1: 1}, "Second-Level": {3: 3, 2: 2}, "First-Level": {3: 2, 2: 1}}
COLOUR = {"P": "Purple", "G": "Green", "O": "Orange"}


def brute_force(cards: list[str]) -> tuple[int, list[int]]:
    """(strength, kickers): the best over every pyramid the hand holds (TR-10 .. TR-13)."""
    strength = {name: len(TR12) - 1 - i for i, name in enumerate(TR12)}
    singles = sorted((SINGLE_ORDER.index(card) for card in cards), reverse=True)
    best = (strength["No Pyramid"], singles)
    for shape, needs in SHAPES.items():
        for picked in combinations(range(len(cards)), sum(needs.values())):
            chosen = [cards[i] for i in picked]
            real = [card for card in chosen if card != "X"]
            levels = Counter(int(card[1]) for card in real)
            if any(levels[level] > needs.get(level, 0) for level in levels):
                continue
            gaps = {level: need - levels[level] for level, need in needs.items() if need > levels[level]}
            if sum(gaps.values()) != len(chosen) - len(real):
                continue  # the Capstone, if picked, fills exactly the one gap
            colours = {card[0] for card in real}
            if shape == "Full" and gaps == {1: 1} and len(colours) == 1:
                name = "Capstone Pyramid"
            elif len(colours) == 1:
                name = f"Perfect {COLOUR[colours.pop()]} {shape} Pyramid"
            else:
                name = f"{shape} Pyramid"
            rest = [cards[i] for i in range(len(cards)) if i not in picked]
            kickers = sorted((SINGLE_ORDER.index(card) for card in rest), reverse=True)
            best = max(best, (strength[name], kickers))
    return best


def all_multisets(size: int) -> list[list[str]]:
    found: list[list[str]] = []

    def extend(code: int, chosen: list[str]) -> None:
        if len(chosen) == size:
            found.append(chosen)
            return
        if code == len(SINGLE_ORDER):
            return
        for n in range(min(COPIES[code], size - len(chosen)) + 1):
            extend(code + 1, chosen + [SINGLE_ORDER[code]] * n)

    extend(0, [])
    return found


def h(text: str) -> list[str]:
    return text.split()


def test_tr1_the_deck() -> None:
    """TR-1: 55 cards; per colour 9 third-level, 6 second-level, 3 first-level; one Capstone."""
    counts = Counter(DECK)
    assert len(DECK) == 55
    for colour in "PGO":
        assert (counts[colour + "3"], counts[colour + "2"], counts[colour + "1"]) == (9, 6, 3)
    assert counts["X"] == 1


def test_tr2_single_card_order() -> None:
    """TR-2: Capstone, then level (first > second > third), then colour (purple > green > orange)."""
    assert sort_cards(["O3", "P2", "X", "G1", "P3", "O1", "G2", "P1", "G3", "O2"]) == [
        "X",
        "P1",
        "G1",
        "O1",
        "P2",
        "G2",
        "O2",
        "P3",
        "G3",
        "O3",
    ]


def test_tr3_improvised_deck() -> None:
    """TR-3: aces are first level, kings and queens second, 2-4 third; hearts purple,
    clubs green, diamonds orange; the Capstone is the ace of spades."""
    assert IMPROVISED["X"] == "A\u2660"
    assert IMPROVISED["P1"] == "A\u2665" and IMPROVISED["G1"] == "A\u2663" and IMPROVISED["O1"] == "A\u2666"
    assert IMPROVISED["G2"] == "K\u2663/Q\u2663"
    assert IMPROVISED["O3"] == "2\u2666/3\u2666/4\u2666"


@pytest.mark.parametrize(
    ("hand", "name"),
    [
        ("O3 G3 P2 P1 G1 O1", "First-Level Pyramid"),  # TR-10: 2 third + 1 second
        ("O3 G3 P3 O2 G2 P2", "Second-Level Pyramid"),  # 3 third + 2 second
        ("O3 G3 P3 O2 G2 O1", "Full Pyramid"),  # 3 third + 2 second + 1 first
        ("G3 G3 G3 G2 G2 G1", "Perfect Green Full Pyramid"),  # perfect: all one colour
        ("O3 O3 O3 O2 O2 P2", "Perfect Orange Second-Level Pyramid"),
        ("P3 P3 P2 G1 O1 O1", "Perfect Purple First-Level Pyramid"),
        ("P3 P2 P1 G2 G1 O1", "No Pyramid"),
    ],
)
def test_tr10_pyramids(hand: str, name: str) -> None:
    """TR-10: the three pyramid shapes, and perfect ones."""
    assert hand_name(h(hand)) == name


@pytest.mark.parametrize(
    ("hand", "name"),
    [
        ("X P3 P3 P2 P2 P1", "Perfect Purple Full Pyramid"),  # Capstone as a third-level card
        ("P3 P3 P3 X P2 P1", "Perfect Purple Full Pyramid"),  # ... as a second-level card
        ("P3 P3 P3 P2 P2 X", "Capstone Pyramid"),  # ... as the first-level card of one colour
        ("P3 G3 P3 P2 P2 X", "Full Pyramid"),  # ... first-level, colours mixed: ordinary
        ("X G3 G3 G2 G2 P2", "Perfect Green Second-Level Pyramid"),
        ("X O3 O2 P1 P1 G1", "Perfect Orange First-Level Pyramid"),
        ("X O3 P2 P1 P1 G1", "First-Level Pyramid"),
    ],
)
def test_tr11_capstone_is_wild(hand: str, name: str) -> None:
    """TR-11: the Capstone stands for any level and colour; the Capstone Pyramid is the
    Capstone as first-level card on 3 + 2 of one colour."""
    assert hand_name(h(hand)) == name


def test_tr11_capstone_pyramid_beats_perfect_full_purple() -> None:
    """TR-11/TR-12: the Capstone Pyramid, even in orange, tops a perfect full purple."""
    assert hand_value(h("O3 O3 O3 O2 O2 X")) > hand_value(h("P3 P3 P3 P2 P2 P1"))
    # With eight cards and both on offer, the evaluator takes the Capstone Pyramid.
    assert hand_name(h("P3 P3 P3 P2 P2 P1 X O3")) == "Capstone Pyramid"


def test_tr12_ranking() -> None:
    """TR-12: one hand of each rank, high to low; each beats the next."""
    hands = [
        "P3 P3 P3 P2 P2 X",
        "P3 P3 P3 P2 P2 P1",
        "G3 G3 G3 G2 G2 G1",
        "O3 O3 O3 O2 O2 O1",
        "P3 G3 O3 P2 G2 P1",
        "P3 P3 P3 P2 P2 O2",
        "G3 G3 G3 G2 G2 O2",
        "O3 O3 O3 O2 O2 G2",
        "P3 G3 O3 P2 G2 O2",
        "P3 P3 P2 X P1 G1",
        "G3 G3 G2 X P1 G1",
        "O3 O3 O2 X P1 G1",
        "P3 G3 O2 X P1 G1",
        "X P1 P1 P1 G1 G1",
    ]
    assert [hand_name(h(hand)) for hand in hands] == TR12
    values = [hand_value(h(hand)) for hand in hands]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)


def test_tr12_colour_counts_only_between_perfect_pyramids() -> None:
    """TR-12: two ordinary second-level pyramids of different colours tie; perfect ones do not."""
    assert hand_value(h("P3 G3 G3 P2 O2 G2")) == hand_value(h("O3 O3 G3 G2 O2 P2"))
    assert hand_value(h("P3 P3 P3 P2 P2 O3")) > hand_value(h("G3 G3 G3 G2 G2 P2"))


def test_tr13_kickers() -> None:
    """TR-13: same rank, the remaining cards decide in single-card order, best first."""
    # First-level pyramids; kickers P1 G1 P2 beat P1 G1 G2.
    assert hand_value(h("O3 O3 O2 P1 G1 P2")) > hand_value(h("O3 O3 O2 P1 G1 G2"))
    # The first kicker decides before the second.
    assert hand_value(h("O3 O3 O2 P1 O2 O2")) > hand_value(h("O3 O3 O2 G1 G1 G1"))
    # Without a pyramid all six cards count: the Capstone first.
    assert hand_value(h("X O1 O1 O1 G2 O2")) > hand_value(h("P1 P1 P1 G1 G1 G1"))
    # Exact equals tie.
    assert hand_value(h("P3 G3 O3 P2 G2 P1")) == hand_value(h("O3 O3 O3 O2 G2 O1"))


def test_tr13_the_evaluator_picks_the_highest_value() -> None:
    """TR-13: the pyramid that leaves the best kickers: the lowest colours go into it,
    and the Capstone stays a kicker unless it lifts the rank."""
    assert hand_value(h("P3 O3 G2 P2 P1 G1")) == hand_value(h("P3 O3 O2 P2 P1 G1"))
    assert pyramid_split(h("P3 O3 G2 P2 P1 G1")) == (["G2", "P3", "O3"], ["P1", "G1", "P2"])
    assert pyramid_split(h("G3 G3 G2 X P1 G1")) == (["G2", "G3", "G3"], ["X", "P1", "G1"])
    # Here the Capstone lifts a perfect first-level pyramid to a second-level one.
    assert hand_name(h("P3 P3 P2 X O3 O3")) == "Second-Level Pyramid"
    # Any 3 third-level + 2 second-level cards and the Capstone make at least a full pyramid.
    assert hand_name(h("P3 P3 O3 P2 G2 X")) == "Full Pyramid"


def test_every_six_card_hand_matches_the_brute_force() -> None:
    """TR-10..TR-13, exhaustively: all 4,128 distinct six-card hands."""
    hands = all_multisets(6)
    assert len(hands) == 4128
    reference = {tuple(hand): brute_force(hand) for hand in hands}
    for hand, (strength, _) in reference.items():
        assert hand_name(hand) == TR12[len(TR12) - 1 - strength], hand
    ordered = sorted(hands, key=lambda hand: reference[tuple(hand)])
    for low, high in pairwise(ordered):
        expected = reference[tuple(low)] < reference[tuple(high)]
        assert (hand_value(low) < hand_value(high)) == expected, (low, high)
        assert (hand_value(low) == hand_value(high)) == (not expected), (low, high)


eight_cards = st.lists(st.integers(0, 54), min_size=8, max_size=8, unique=True).map(
    lambda picks: [DECK[i] for i in picks]
)
eight_with_capstone = st.lists(st.integers(1, 54), min_size=7, max_size=7, unique=True).map(
    lambda picks: ["X", *(DECK[i] for i in picks)]
)


@settings(max_examples=150, deadline=None)
@given(a=st.one_of(eight_cards, eight_with_capstone), b=st.one_of(eight_cards, eight_with_capstone))
def test_eight_card_hands_match_the_brute_force(a: list[str], b: list[str]) -> None:
    """TR-9 cards=8: the same rules pick the best pyramid out of eight cards."""
    ref_a, ref_b = brute_force(a), brute_force(b)
    assert hand_name(a) == TR12[len(TR12) - 1 - ref_a[0]]
    assert (hand_value(a) > hand_value(b)) == (ref_a > ref_b)
    assert (hand_value(a) == hand_value(b)) == (ref_a == ref_b)


def test_bad_hands_are_refused() -> None:
    for bad in (h("P3 P3 P3 P2 P2"), h("P3 P3 P3 P2 P2 Q9"), h("X X P3 P3 P2 P2"), h("P1 P1 P1 P1 G1 G1")):
        with pytest.raises(ValueError):
            hand_value(bad)


def test_hand_value_is_fast() -> None:
    """Well over 10,000 evaluations a second (the bot and the benchmarks lean on it)."""
    import random

    rng = random.Random(7)
    hands = [rng.sample(DECK, rng.choice((6, 8))) for _ in range(20_000)]
    start = time.perf_counter()
    for hand in hands:
        hand_value(hand)
    rate = len(hands) / (time.perf_counter() - start)
    assert rate > 10_000, f"{rate:.0f} evaluations/s"
