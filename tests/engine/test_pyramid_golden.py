"""Pinned Pyramid deals and lines of play: a change to the shuffle or to a rule shows up here.

The values were computed once by the engine and pasted in. If one of these tests fails,
old games would replay differently: that needs a new engine ``version``, not a new pin.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import get_engine
from games.engine.pyramid import PyramidEngine, PyramidState

ENGINE = get_engine("pyramid")
assert isinstance(ENGINE, PyramidEngine)

DEALS = {
    1: (
        (
            "9s",
            "9h 2h",
            "4c 3d 8c",
            "7d 2s Ts 7h",
            "Tc Td 3c 2d 6d",
            "Ad Kd 8s 3s 8d Qs",
            "Qd Jh Jc 6c 6h 7s Ks",
        ),
        "Qc 3h Qh Js 4s As 8h 9c Ah 4d Ac 5h 5d 6s 2c 5c Th 4h 9d Jd Kc Kh 5s 7c",
    ),
    2: (
        (
            "8d",
            "Td Jd",
            "9s As Qs",
            "6h 9d Kd 4d",
            "7h 3h 8h Th Qc",
            "4s 4c Kc 6d Qh Ks",
            "8c 7s 6c 2d 4h 3s Jc",
        ),
        "Tc 6s Ac 2c 9c Kh 7d 8s Jh 2h 3d 5d 7c Qd 5s Ah Ad 5h 9h 2s 5c 3c Ts Js",
    ),
    3: (
        (
            "Ah",
            "Ad 8s",
            "Kd Jh Tc",
            "Jd 4s Ks 7c",
            "5c 7h 3c 4d 9h",
            "2d Kh Qs 6h 8c 2s",
            "3d 8d 3h 5s Ts 7s 9c",
        ),
        "As Th 2c 9d 6s 5d 9s Td 6c Qd Js 8h 7d 3s Jc Qc Qh Ac 4c 5h 4h 6d 2h Kc",
    ),
}

VARIANT = {"reserve": True, "overlap_pairs": True, "scoring": "par"}

# Lines of the greedy player (always the first legal action), with the outcome they reach.
LINES: list[tuple[int, dict[str, Any] | None, str, dict[str, Any]]] = [
    (
        1,
        None,
        "Ks 6c+7s draw draw draw draw draw As+Qs draw draw Ah+Qd 4d+9c draw draw draw draw 2c+Jh draw draw "
        "draw 4h+9d draw Kc Kh draw 6h+7c 5s+8d redeal Ad+Qc draw draw draw draw draw draw draw draw draw "
        "draw 3s+Th 2d+Jc Kd 5c+8s 3c+Tc draw redeal 3h+Ts draw draw draw draw draw draw draw draw draw",
        {
            "won": False,
            "status": "lost",
            "reason": "no_moves",
            "scoring": "points",
            "score": 125,
            "points": 125,
            "par": None,
            "cards_left": 20,
            "tableau_left": 11,
            "tableau_cleared": False,
            "cleared_pass": None,
            "passes": 3,
            "redeals_used": 2,
            "moves": 56,
        },
    ),
    (
        1,
        VARIANT,
        "Ks As+Qd 6c+7s draw 4s+9c Ah+Qs draw Ac+Qc draw draw draw 2c+Jh Ad+Qh draw 3h+Th draw 4h+9d draw "
        "Kc Kh draw 6h+7c 5s+8d redeal draw draw draw draw draw draw draw redeal draw draw draw draw draw "
        "draw draw",
        {
            "won": False,
            "status": "lost",
            "reason": "no_moves",
            "scoring": "par",
            "score": -27,
            "points": 37,
            "par": -27,
            "cards_left": 27,
            "tableau_left": 19,
            "tableau_cleared": False,
            "cleared_pass": None,
            "passes": 3,
            "redeals_used": 2,
            "moves": 39,
        },
    ),
    (
        2,
        None,
        "6c+7s 2d+Jc Kc 3s+Tc Ks draw draw draw 4c+9c Kh draw draw draw 2h+Jh draw 5d+8c draw draw draw "
        "draw draw draw 4s+9h draw draw draw 3h+Ts draw redeal 6s+7h draw draw 6h+7d draw draw draw draw "
        "draw draw draw draw draw draw draw draw redeal draw draw draw draw draw draw draw draw draw draw "
        "draw draw draw draw",
        {
            "won": False,
            "status": "lost",
            "reason": "no_moves",
            "scoring": "points",
            "score": 45,
            "points": 45,
            "par": None,
            "cards_left": 29,
            "tableau_left": 15,
            "tableau_cleared": False,
            "cleared_pass": None,
            "passes": 3,
            "redeals_used": 2,
            "moves": 60,
        },
    ),
    (
        3,
        None,
        "3d+Ts 5s+8d 6h+7s draw 3h+Th Kh As+Qs draw draw 6s+7h 5d+8c 4d+9c draw 3c+Td Ks 4s+9s 2d+Jh draw "
        "draw 2s+Js 5c+8h draw draw draw draw draw Ac+Qh 4c+9h draw draw 6d+7c 2h+Jd Kd Kc redeal draw draw "
        "draw Ad+Qd 6c+7d 3s+Tc draw draw 5h+8s Ah+Qc draw redeal draw draw draw draw",
        {
            "won": False,
            "status": "lost",
            "reason": "no_moves",
            "scoring": "points",
            "score": 565,
            "points": 565,
            "par": None,
            "cards_left": 4,
            "tableau_left": 0,
            "tableau_cleared": True,
            "cleared_pass": 2,
            "passes": 3,
            "redeals_used": 2,
            "moves": 51,
        },
    ),
    (
        3,
        VARIANT,
        "3d+Ts 5s+8d 6h+7s 5d+8c 4d+9c 3h+Th Kh As+Qs 6s+7h draw 3c+Td Ks 4s+9d 2d+Jh draw draw 2s+Js 5c+8h "
        "2c+Jd Kd Ad+Qd 6c+7d draw draw draw draw Ac+Qh 4c+9h draw draw 6d+7c draw Kc redeal draw 3s+Tc draw "
        "draw 5h+8s Ah+Qc draw draw redeal draw draw draw draw",
        {
            "won": False,
            "status": "lost",
            "reason": "no_moves",
            "scoring": "par",
            "score": 31,
            "points": 565,
            "par": 31,
            "cards_left": 4,
            "tableau_left": 0,
            "tableau_cleared": True,
            "cleared_pass": 2,
            "passes": 3,
            "redeals_used": 2,
            "moves": 47,
        },
    ),
]


def rows(state: PyramidState) -> tuple[str, ...]:
    geometry = state.geometry
    return tuple(" ".join(state.tableau[k] or "--" for k in slots) for slots in geometry.row_slots)


@pytest.mark.parametrize("seed", sorted(DEALS))
def test_deal_of_seed(seed: int) -> None:
    """PY-1: the standard deal of seeds 1, 2 and 3, the whole deck in order."""
    tableau, stock = DEALS[seed]
    state = ENGINE.initial_state(None, seed)
    assert rows(state) == tableau
    assert " ".join(state.stock) == stock


def test_reserve_and_six_rows_deal_from_the_same_deck() -> None:
    """PY-6: the variants deal the same shuffled deck, only cut differently."""
    tableau, stock = DEALS[1]
    deck = " ".join(tableau).split() + stock.split()
    state = ENGINE.initial_state({"rows": 6, "reserve": True}, 1)
    assert [*state.tableau, *state.reserve, *state.stock] == deck


def test_reshuffled_redeal_of_seed_1() -> None:
    """PY-6 reshuffle: the first redeal's order for seed 1 after drawing the whole stock."""
    state = ENGINE.replay({"reshuffle": True}, 1, ["draw"] * 24 + ["redeal"])[-1]
    assert " ".join(state.stock) == "5s 4d 9d 9c 6s 3h Kc Qh Ac 7c Th 4s As Kh Jd 8h 5d 5c 4h Qc Js Ah 5h 2c"


@pytest.mark.parametrize(("seed", "config", "line", "outcome"), LINES)
def test_greedy_line(seed: int, config: dict[str, Any] | None, line: str, outcome: dict[str, Any]) -> None:
    """PY-3 .. PY-8: the first-legal-action player's whole game, and its outcome."""
    state = ENGINE.initial_state(config, seed)
    played = []
    while ENGINE.current_player(state) is not None:
        action = ENGINE.legal_actions(state)[0]
        played.append(str(action))
        state = ENGINE.apply(state, action)
    assert " ".join(played) == line
    assert ENGINE.outcome(state) == outcome
    assert ENGINE.replay(config, seed, line.split())[-1] == state
