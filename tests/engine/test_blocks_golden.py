"""Pinned Pyramid Poker deals and playthroughs: a seed must deal the same blocks forever.

The literal values were computed once from the engine; if one of these fails, a change
made old games replay differently (bump ``BlocksEngine.version`` or undo the change).
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import get_engine

ENGINE = get_engine("blocks")

DEALS = {
    1: (
        "4s 8s 7d Js Th 9d 2d 4d 4h X2 4c 5s Kd Qs 3c",
        "Jc 8d 3d 2h Ts Tc 7s Jd Ah Kh 9s 6c 8h Kc 7c",
        "Qc 5h Ks 2s X1 3s 9h 9c 3h 5d Ac 7h 6d Jh 2c 5c Qh 6h Td Qd Ad As 6s 8c",
    ),
    2: (
        "Qd Js Ah 9c Jd X2 6c As 8h 5h Kc X1 6s Jc 5d",
        "9d 7d Th Td Ad Qh 4h 4c 8c 9s 4s 3d 6h 5s Qc",
        "9h 8s Ac 2c Tc 2s 8d Ts Kh 3h 4d 6d 7c Kd 7s 2h 2d 7h Jh 3s 5c 3c Qs Ks",
    ),
    3: (
        "X1 4s 4h 7s 7c 2s 5c 9h 6s Ah 2d 8c Kh Ad Ts",
        "Jh 2c 3d Jd 8h 4d 9c 2h 5d 9d Qs X2 Js 9s Tc",
        "3s Qh 3c Td 8s 6d 7h Qd 6c Kd Ks Th 8d 5s Jc Qc As Ac 4c 6h 5h 7d 3h Kc",
    ),
}


@pytest.mark.parametrize("seed", sorted(DEALS))
def test_golden_first_deal(seed: int) -> None:
    first, second, general = DEALS[seed]
    for config in (None, {"scoring": "advanced"}):
        state = ENGINE.initial_state(config, seed)
        assert state.supplies == (tuple(first.split()), tuple(second.split()))
        assert state.general == tuple(general.split())


def first_legal_playthrough(config: dict[str, Any] | None, seed: int) -> tuple[int, dict[str, Any]]:
    state, count = ENGINE.initial_state(config, seed), 0
    while ENGINE.current_player(state) is not None:
        state = ENGINE.apply(state, ENGINE.legal_actions(state)[0])
        count += 1
    return count, ENGINE.outcome(state)


def test_golden_basic_playthrough_seed_1() -> None:
    count, outcome = first_legal_playthrough(None, 1)
    assert count == 91 and outcome["winner"] == 1 and outcome["scores"] == [1, 2]
    assert [[hand["cards"] for hand in seat] for seat in outcome["hands"]] == [
        [["Qs", "Jd", "4s", "5s", "Ts"], ["3c", "Ah", "8s", "Kd", "Tc"], ["8h", "2d", "4c", "3d", "Js"]],
        [["9s", "Th", "Kc", "4h", "Jc"], ["6c", "9d", "7c", "Qc", "8d"], ["Kh", "7d", "7s", "4d", "2h"]],
    ]


def test_golden_advanced_match_seed_1_pins_the_later_deals() -> None:
    count, outcome = first_legal_playthrough({"scoring": "advanced"}, 1)
    assert count == 1456 and outcome["winner"] == 0 and outcome["scores"] == [7, -3]
    assert [game["points"] for game in outcome["games"]] == [
        [-4, 1], [1, -1], [-4, 4], [2, 0], [3, -2], [2, -2], [-2, 1], [2, -2],
        [4, -1], [-2, 2], [2, 0], [1, -1], [-2, 2], [1, -1], [2, -1], [1, -2],
    ]  # fmt: skip
    assert [game["first_player"] for game in outcome["games"]] == [0, 1] * 8
    assert [[hand["cards"] for hand in seat] for seat in outcome["hands"]] == [
        [["Js", "As", "Jh", "Th", "5h"], ["2c", "3h", "Ah", "5c", "Kc"], ["2d", "Qh", "7d", "6d", "5d"]],
        [["Jc", "7c", "9d", "Kd", "Qc"], ["8d", "Td", "7s", "Jd", "4s"], ["2h", "3s", "Ts", "3c", "Kh"]],
    ]
