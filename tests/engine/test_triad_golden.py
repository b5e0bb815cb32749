"""Golden deals: a deal from a seed must stay the same forever (RULES.md, preamble).

The values were computed once from ``rng.shuffled(DECK, derive_seed(seed, "hand", 1))``
and are pinned as literals: if one changes, old games no longer replay.
"""

from __future__ import annotations

import pytest

from games.engine import get_engine
from games.engine.rng import derive_seed, shuffled
from games.engine.triad import DECK

ENGINE = get_engine("triad")


def test_the_unshuffled_deck_order() -> None:
    assert " ".join(DECK) == (
        "X P1 P1 P1 G1 G1 G1 O1 O1 O1 "
        + "P2 " * 6
        + "G2 " * 6
        + "O2 " * 6
        + "P3 " * 9
        + "G3 " * 9
        + "O3 " * 8
        + "O3"
    )


@pytest.mark.parametrize(
    ("seed", "seat0", "seat1", "deck_top"),
    [
        (1, "P2 G3 G1 G3 P2 O3", "P2 O3 G3 P2 P3 O3", "P3 P3 G2 O3 G3 P2 P1 G2"),
        (2, "P1 P3 G2 P2 O3 P2", "O3 G3 O3 O2 G1 O3", "O3 G2 O1 P3 O1 P1 O1 O2"),
        (3, "O1 G2 G3 G3 P3 G1", "P1 O3 P3 G3 P2 G3", "O3 G1 G2 O3 X G3 G3 G2"),
    ],
)
def test_first_hand_deals(seed: int, seat0: str, seat1: str, deck_top: str) -> None:
    state = ENGINE.initial_state(None, seed)
    assert state.hands == (tuple(seat0.split()), tuple(seat1.split()))
    assert state.deck[:8] == tuple(deck_top.split())
    # Seat 1 (left of the dealer) gets the first card, seat 0 the second.
    deck = shuffled(DECK, derive_seed(seed, "hand", 1))
    assert (deck[0], deck[1]) == (seat1.split()[0], seat0.split()[0])


def test_a_four_player_eight_card_deal() -> None:
    state = ENGINE.initial_state({"players": 4, "cards": 8}, 3)
    assert [" ".join(hand) for hand in state.hands] == [
        "G2 G3 G1 O3 G2 G3 O2 P3",
        "P1 P3 P2 O3 X P1 O3 G2",
        "O1 G3 P3 G1 G3 P3 P2 O3",
        "O3 G3 G3 G2 G3 O3 P3 P2",
    ]
