"""Golden deals: a Tauron deal from a seed must stay the same forever (RULES.md, preamble).

The values were computed once from ``rng.shuffled(DECK, derive_seed(seed, "hand", 1))``
(TH-2: two hole cards each, one at a time from the left of the dealer, then the six
shared cards) and are pinned as literals: if one changes, old games no longer replay.
"""

from __future__ import annotations

import pytest

from games.engine import get_engine
from games.engine.rng import derive_seed, shuffled
from games.engine.tauron import DECK
from tests.engine.test_tauron_rules import TIE_A, TIE_B, checked_through, deck_for, play

ENGINE = get_engine("tauron")


@pytest.mark.parametrize(
    ("seed", "seat0", "seat1", "board"),
    [
        (1, "P2 G3", "P2 O3", "G3 G1 P2 G3 P3 P2"),
        (2, "P1 P3", "O3 G3", "O3 G2 O2 P2 G1 O3"),
        (3, "O1 G2", "P1 O3", "P3 G3 G3 G3 P2 P3"),
    ],
)
def test_first_hand_deals(seed: int, seat0: str, seat1: str, board: str) -> None:
    state = ENGINE.initial_state(None, seed)
    assert state.holes == (tuple(seat0.split()), tuple(seat1.split()))
    assert state.deck[:6] == tuple(board.split()) and state.board == ()
    # Seat 1 (left of the dealer) gets the first card, seat 0 the second.
    deck = shuffled(DECK, derive_seed(seed, "hand", 1))
    assert (deck[0], deck[1]) == (seat1.split()[0], seat0.split()[0])
    # The board comes up three, two, one as the betting rounds end.
    for stage in (3, 5, 6):
        state = ENGINE.apply(ENGINE.apply(state, "check"), "check")
        assert state.board == tuple(board.split()[:stage])


def test_a_four_player_deal() -> None:
    state = ENGINE.initial_state({"players": 4}, 3)
    assert [" ".join(hole) for hole in state.holes] == ["G2 G3", "P1 P3", "O1 G3", "O3 G3"]
    assert " ".join(state.deck[:6]) == "P2 P3 G3 G1 O3 G1"


def test_a_tie_replay_deal() -> None:
    """TH-5: the r-th tie-replay of hand k is dealt from the label ("tie-replay", k, r):
    holes one at a time from the left of the dealer, then all six shared cards."""
    state = ENGINE.initial_state({"players": 2}, 8, deck=deck_for([TIE_A, TIE_B]))
    state = play(checked_through(state), "show", "show", "tie-replay")
    assert (state.kind, state.holes) == ("tie-replay", (("P3", "G3"), ("G3", "O1")))
    assert " ".join(state.board) == "G3 P2 O3 O2 G3 P2"
    deck = shuffled(DECK, derive_seed(8, "tie-replay", 1, 1))
    assert deck[:10] == ["G3", "P3", "O1", "G3", *state.board]
