"""Pinned Tri-Peaks deals and lines of play: a change to the shuffle or to a rule shows up here.

The values were computed once by the engine and pasted in. If one of these tests fails,
old games would replay differently: that needs a new engine ``version``, not a new pin.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import get_engine
from games.engine.tripeaks import ROW_SIZES, ROW_STARTS, TriPeaksEngine

ENGINE = get_engine("tripeaks")
assert isinstance(ENGINE, TriPeaksEngine)

DEALS = {
    1: (
        ("9s 9h 2h", "4c 3d 8c 7d 2s Ts", "7h Tc Td 3c 2d 6d Ad Kd 8s", "3s 8d Qs Qd Jh Jc 6c 6h 7s Ks"),
        "Qc",
        "3h Qh Js 4s As 8h 9c Ah 4d Ac 5h 5d 6s 2c 5c Th 4h 9d Jd Kc Kh 5s 7c",
    ),
    2: (
        ("8d Td Jd", "9s As Qs 6h 9d Kd", "4d 7h 3h 8h Th Qc 4s 4c Kc", "6d Qh Ks 8c 7s 6c 2d 4h 3s Jc"),
        "Tc",
        "6s Ac 2c 9c Kh 7d 8s Jh 2h 3d 5d 7c Qd 5s Ah Ad 5h 9h 2s 5c 3c Ts Js",
    ),
    3: (
        ("Ah Ad 8s", "Kd Jh Tc Jd 4s Ks", "7c 5c 7h 3c 4d 9h 2d Kh Qs", "6h 8c 2s 3d 8d 3h 5s Ts 7s 9c"),
        "As",
        "Th 2c 9d 6s 5d 9s Td 6c Qd Js 8h 7d 3s Jc Qc Qh Ac 4c 5h 4h 6d 2h Kc",
    ),
}

# Lines of the greedy player (always the first legal action), with the outcome they reach.
LINES: list[tuple[int, str, dict[str, Any]]] = [
    (
        1,
        "Jh Qs Jc Qd Ks draw 2d 3c draw draw Td draw 3s draw draw 7s 8c draw 8s draw draw draw draw 6c draw "
        "6d 7d 8d 9h Tc draw 7h 6h draw 3d 4c draw draw 9s draw draw draw draw Ad Kd draw draw draw",
        {
            "won": False,
            "status": "lost",
            "reason": "no_moves",
            "score": 0,
            "cards_left": 3,
            "peaks_cleared": 2,
            "stock_left": 0,
            "moves": 48,
        },
    ),
    (
        2,
        "Jc Qh Ks draw 7h 6d 7s 8c draw 2d 3h 4d 3s 4h draw As Kc draw 8h 9s 8d draw draw 6c draw draw Th "
        "draw draw 4s draw 4c draw draw Kd Qs draw draw draw draw draw draw draw draw draw 9d draw Qc Jd",
        {
            "won": False,
            "status": "lost",
            "reason": "no_moves",
            "score": 18,
            "cards_left": 2,
            "peaks_cleared": 2,
            "stock_left": 0,
            "moves": 49,
        },
    ),
    (
        3,
        "2s 3d draw 9c 8c 7h 6h 7c 8d 7s draw 3c draw Ts draw 5c draw draw draw Jh Qs Kd Ah Kh draw 5s draw "
        "Ks draw draw draw draw 2d 3h 4s draw draw draw draw draw draw 4d draw draw draw draw",
        {
            "won": False,
            "status": "lost",
            "reason": "no_moves",
            "score": 0,
            "cards_left": 5,
            "peaks_cleared": 1,
            "stock_left": 0,
            "moves": 46,
        },
    ),
]


@pytest.mark.parametrize("seed", sorted(DEALS))
@pytest.mark.parametrize("face_up", [False, True])
def test_deal_of_seed(seed: int, face_up: bool) -> None:
    """TP-1, TP-2: the deal of seeds 1, 2 and 3, the whole deck in order, in either layout."""
    layout, waste, stock = DEALS[seed]
    state = ENGINE.initial_state({"face_up": face_up}, seed)
    assert (
        tuple(
            " ".join(state.layout[start : start + size])
            for start, size in zip(ROW_STARTS, ROW_SIZES, strict=True)
        )
        == layout
    )
    assert state.waste == (waste,)
    assert " ".join(state.stock) == stock


@pytest.mark.parametrize(("seed", "line", "outcome"), LINES)
@pytest.mark.parametrize("face_up", [False, True])
def test_greedy_line(seed: int, line: str, outcome: dict[str, Any], face_up: bool) -> None:
    """TP-3 .. TP-6: the first-legal-action player's whole game and its outcome; seeing the
    face-down cards (TP-5) changes nothing for a player who ignores them."""
    config = {"face_up": face_up}
    state = ENGINE.initial_state(config, seed)
    played = []
    while ENGINE.current_player(state) is not None:
        action = ENGINE.legal_actions(state)[0]
        played.append(str(action))
        state = ENGINE.apply(state, action)
    assert " ".join(played) == line
    assert ENGINE.outcome(state) == outcome
    assert ENGINE.replay(config, seed, line.split())[-1] == state
