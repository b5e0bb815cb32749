"""One test (or a few) per Pyramid rule, PY-1 .. PY-8 (RULES.md section 1).

Most deals are hand-built decks. End-of-game cases start from a hand-built position:
a state whose missing cards all count as removed, which is what the game would reach
by removing them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from games.engine import IllegalAction, Move, get_engine, rng
from games.engine.cards import STANDARD_DECK
from games.engine.pyramid import GEOMETRY, PyramidEngine, PyramidState, PyramidView, Remove, available_cards
from games.engine.tripeaks import Play

ENGINE = get_engine("pyramid")
assert isinstance(ENGINE, PyramidEngine)

# STANDARD_DECK dealt as is: rows 0-6 are Ac | 2c 3c | 4c 5c 6c | ... | 9d Td Jd Qd Kd Ah 2h,
# row 5 is 3d 4d 5d 6d 7d 8d, and the stock runs 3h 4h ... Kh As ... Ks.
PLAIN = list(STANDARD_DECK)


def make_deck(*parts: Sequence[str]) -> list[str]:
    """The named cards in order, then every other card in STANDARD_DECK order."""
    named = [card for part in parts for card in part]
    return named + [card for card in STANDARD_DECK if card not in named]


def tableau_deck(slots: Mapping[tuple[int, int], str], stock: Sequence[str] = (), rows: int = 7) -> list[str]:
    """A deck putting ``slots`` at those (row, index) places and ``stock`` on top of the stock."""
    named = set(slots.values()) | set(stock)
    fillers = iter(card for card in STANDARD_DECK if card not in named)
    tableau = [slots.get(place) or next(fillers) for place in GEOMETRY[rows].positions]
    return make_deck(tableau, stock)


def position(
    config: dict[str, Any] | None = None,
    *,
    tableau: Mapping[tuple[int, int], str],
    stock: Sequence[str] = (),
    waste: Sequence[str] = (),
    reserve: Sequence[str | None] = (),
    redeals_used: int = 0,
) -> PyramidState:
    """A running game holding just these cards; every other card has been removed."""
    base = ENGINE.initial_state(config)
    slots = tuple(tableau.get(place) for place in base.geometry.positions)
    in_play = {card for card in (*slots, *stock, *waste, *reserve) if card is not None}
    return replace(
        base,
        tableau=slots,
        reserve=tuple(reserve),
        stock=tuple(stock),
        waste=tuple(waste),
        removed=tuple(card for card in STANDARD_DECK if card not in in_play),
        redeals_used=redeals_used,
    )


def legal(state: PyramidState) -> list[str]:
    return [str(action) for action in ENGINE.legal_actions(state)]


def play(state: PyramidState, *actions: str) -> PyramidState:
    for action in actions:
        state = ENGINE.apply(state, action)
    return state


def refused(state: PyramidState, action: str) -> str:
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, action)
    return str(info.value)


# --- PY-1 layout -----------------------------------------------------------------------


def test_py1_deal_fills_rows_from_the_apex_then_the_stock() -> None:
    """PY-1: the deck fills the tableau row by row from the apex, left to right; the rest is the stock."""
    state = ENGINE.initial_state(deck=PLAIN)
    assert state.tableau == tuple(PLAIN[:28])
    assert state.reserve == ()
    assert state.stock == tuple(PLAIN[28:])
    assert state.stock[0] == "3h"
    assert state.waste == ()
    rows = ENGINE.view(state, 0).tableau
    assert [[slot.card for slot in row] for row in rows][:3] == [["Ac"], ["2c", "3c"], ["4c", "5c", "6c"]]
    assert [slot.card for slot in rows[6]] == ["9d", "Td", "Jd", "Qd", "Kd", "Ah", "2h"]
    assert [(slot.row, slot.index) for slot in rows[6]] == [(6, i) for i in range(7)]


def test_py1_only_the_last_row_is_exposed_at_the_start() -> None:
    """PY-1: a card is exposed when no card in play covers it."""
    state = ENGINE.initial_state(deck=PLAIN)
    rows = ENGINE.view(state, 0).tableau
    assert [slot.exposed for row in rows for slot in row] == [False] * 21 + [True] * 7
    assert available_cards(state) == ["9d", "Td", "Jd", "Qd", "Kd", "Ah", "2h", "3h"]


def test_py1_legal_actions_of_the_plain_deal_in_their_stable_order() -> None:
    """PY-1, PY-3: Kings first, then pairs in the order of the available cards, then the rest."""
    state = ENGINE.initial_state(deck=PLAIN)
    assert legal(state) == ["Kd", "3h+Td", "2h+Jd", "Ah+Qd", "draw", "resign"]


def test_py3_the_views_moves_name_their_kind_and_cards() -> None:
    """PY-3, PY-4: the player's view offers each legal action as a Move: a removal with its
    cards (the pair lowest value first, or the King), then draw, redeal and resign."""
    state = ENGINE.initial_state(deck=PLAIN)
    assert ENGINE.view(state, 0).moves == (
        Move("Kd", "remove", cards=("Kd",)),
        Move("3h+Td", "remove", cards=("3h", "Td")),
        Move("2h+Jd", "remove", cards=("2h", "Jd")),
        Move("Ah+Qd", "remove", cards=("Ah", "Qd")),
        Move("draw", "draw"),
        Move("resign", "resign"),
    )
    state = play(state, *["draw"] * 24)
    assert [(move.kind, move.cards) for move in ENGINE.view(state, 0).moves][-2:] == [
        ("redeal", ()),
        ("resign", ()),
    ]
    assert ENGINE.view(play(state, "resign"), 0).moves == ()


def test_py1_covered_by_the_two_cards_below() -> None:
    """PY-1: (r, i) is covered by (r+1, i) and (r+1, i+1), and stays covered while either is in play."""
    state = ENGINE.initial_state(deck=PLAIN)
    assert refused(state, "Ac+Qd") == "Ac is covered by 2c and 3c"
    assert refused(state, "4d+9d") == "4d is covered by Td and Jd"
    state = play(state, "2h+Jd")
    assert refused(state, "4d+9d") == "4d is covered by Td"
    state = play(state, "3h+Td")
    assert "4d+9d" in legal(state)
    assert GEOMETRY[7].covered_by[0] == (1, 2)
    assert GEOMETRY[7].covered_by[16] == (22, 23)
    assert GEOMETRY[7].covered_by[27] == ()


# --- PY-2 stock and waste --------------------------------------------------------------


def test_py2_stock_top_is_face_up_and_available() -> None:
    """PY-2: the stock's top card is face up and available."""
    state = ENGINE.initial_state(deck=PLAIN)
    view = ENGINE.view(state, 0)
    assert view.stock_top == "3h"
    assert view.stock_count == 24
    state = play(state, "3h+Td")
    assert state.stock[0] == "4h"
    assert state.points == 7


def test_py2_draw_moves_the_stock_top_onto_the_waste() -> None:
    """PY-2: ``draw`` moves the top card to the waste, whose top card is available; only tops are."""
    state = play(ENGINE.initial_state(deck=PLAIN), "draw")
    assert state.waste == ("3h",)
    assert state.stock[0] == "4h"
    assert "3h+Td" in legal(state)
    assert "4h+9d" in legal(state)
    state = play(state, "draw")
    assert state.waste == ("3h", "4h")
    assert refused(state, "3h+Td") == "3h is in the waste, under 4h"
    assert refused(state, "Ah+Qh") == "Qh is in the stock, under 5h"


def test_py2_no_draw_from_an_empty_stock() -> None:
    """PY-2: there is nothing to draw once the stock is empty."""
    state = play(ENGINE.initial_state(deck=PLAIN), *["draw"] * 24)
    assert not state.stock
    assert "draw" not in legal(state)
    assert refused(state, "draw") == "the stock is empty; redeal to turn the waste over"


# --- PY-3 removing ---------------------------------------------------------------------


def test_py3_a_king_is_removed_alone() -> None:
    """PY-3: one available King alone is removed, from the tableau, the stock or the waste."""
    state = play(ENGINE.initial_state(deck=PLAIN), "Kd")
    assert state.tableau[GEOMETRY[7].positions.index((6, 4))] is None
    assert state.removed == ("Kd",)
    state = ENGINE.initial_state(deck=make_deck(PLAIN[:28], ["Ks", "Kh"]))
    assert "Ks" in legal(state)
    state = play(state, "draw")
    assert {"Ks", "Kh"} <= set(legal(state))
    state = play(state, "Ks", "Kh")
    assert state.waste == () and state.stock[0] == "3h"


def test_py3_two_cards_must_make_13() -> None:
    """PY-3: a pair is removed only when its values sum to 13; a lone card only if it is a King."""
    state = ENGINE.initial_state(deck=PLAIN)
    assert refused(state, "9d+Jd") == "9d + Jd make 20, not 13"
    assert refused(state, "Qd") == "Qd is worth 12: only a King (13) is removed alone"
    assert refused(state, "Kd+Ah") == "Ah + Kd make 14, not 13: a King is removed alone"


def test_py3_stock_top_and_waste_top_pair() -> None:
    """PY-3: the stock top and the waste top together are a legal pair."""
    state = ENGINE.initial_state(deck=make_deck(PLAIN[:28], ["Ts", "3s"]))
    state = play(state, "draw")
    assert "3s+Ts" in legal(state)
    state = play(state, "Ts+3s")
    assert state.waste == ()
    assert state.stock[0] == "3h"
    assert state.points == 4


def test_py3_pair_text_is_canonical_in_either_order() -> None:
    """PY-3: a pair may be written in either order; its text is lowest value first."""
    assert ENGINE.parse_action("Td+3h") == ENGINE.parse_action("3h+Td") == Remove(("3h", "Td"))
    assert str(ENGINE.parse_action(" td + 3H ")) == "3h+Td"
    assert str(ENGINE.parse_action("10d+3h")) == "3h+Td"
    assert str(ENGINE.parse_action("Kh")) == "Kh"
    for text in ("draw", "redeal", "resign", "Ah+Qc", "Kc"):
        assert str(ENGINE.parse_action(text)) == text
    for malformed in ("", "5h+8c+9d", "5h+5h", "xx", "5h+", "1h", "Kh Kd", "draw 2"):
        with pytest.raises(IllegalAction):
            ENGINE.parse_action(malformed)
    state = ENGINE.initial_state(deck=PLAIN)
    assert play(state, "Td+3h") == play(state, "3h+Td")


def test_py3_removed_cards_are_gone() -> None:
    """PY-3: a removed card cannot be used again."""
    state = play(ENGINE.initial_state(deck=PLAIN), "Kd")
    assert refused(state, "Kd") == "Kd has already been removed"


# --- PY-4 redeal -----------------------------------------------------------------------


def test_py4_redeal_keeps_the_order_and_allows_two_by_default() -> None:
    """PY-4: redeal only with an empty stock; the card drawn first is drawn first again;
    standard is two redeals, three passes in all."""
    state = ENGINE.initial_state(deck=PLAIN)
    original = state.stock
    assert refused(state, "redeal") == "the stock still holds 24 cards: redeal only when it is empty"
    for expected_pass in (1, 2, 3):
        assert state.pass_number == expected_pass
        state = play(state, *["draw"] * 24)
        if expected_pass < 3:
            assert "redeal" in legal(state)
            state = play(state, "redeal")
            assert state.stock == original
            assert state.waste == ()
    assert state.redeals_used == 2
    assert state.redeals_left == 0
    assert "redeal" not in legal(state)
    assert refused(state, "redeal") == "all 2 redeals are used"
    assert ENGINE.current_player(state) == 0  # Kd and three pairs can still be removed


@pytest.mark.parametrize("redeals", [0, 1, 5])
def test_py4_any_number_of_redeals(redeals: int) -> None:
    """PY-4: ``redeals`` may be any non-negative number."""
    state = ENGINE.initial_state({"redeals": redeals}, deck=PLAIN)
    for _ in range(redeals):
        state = play(state, *["draw"] * 24, "redeal")
    state = play(state, *["draw"] * 24)
    assert "redeal" not in legal(state)
    assert state.redeals_left == 0


def test_py4_nothing_to_redeal_from_an_empty_waste() -> None:
    """PY-4: a redeal turns the waste over, so it needs a waste."""
    state = position(tableau={(0, 0): "Qc", (1, 0): "Kc", (1, 1): "Ac"}, stock=["Kd"])
    state = play(state, "Kd")
    assert refused(state, "redeal") == "the waste is empty: there is nothing to redeal"


# --- PY-5 win and loss -----------------------------------------------------------------


def test_py5_won_when_all_52_cards_are_removed() -> None:
    """PY-5: the standard game is won when every card is removed."""
    state = position(tableau={(0, 0): "6c"}, stock=["7c"])
    state = play(state, "6c+7c")
    assert state.status == "won"
    assert ENGINE.current_player(state) is None
    assert ENGINE.legal_actions(state) == []
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome["won"] is True
    assert outcome["reason"] == "cleared"
    assert outcome["cards_left"] == 0
    assert refused(state, "draw") == "the game is over (won)"


def test_py5_lost_when_nothing_can_be_removed_drawn_or_redealt() -> None:
    """PY-5: no removal, no draw, no redeal: the game is over and lost."""
    state = position({"redeals": 0}, tableau={(0, 0): "6c"}, stock=["8c"])
    assert ENGINE.outcome(state) is None
    state = play(state, "draw")
    assert state.status == "lost"
    assert ENGINE.current_player(state) is None
    assert ENGINE.legal_actions(state) == []
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome["won"] is False
    assert outcome["reason"] == "no_moves"
    assert outcome["cards_left"] == 2


def test_py5_unlimited_redeals_end_after_a_pass_that_removed_nothing() -> None:
    """PY-5: with unlimited redeals, a whole pass through the stock that removes no card ends the game."""
    state = position({"redeals": None}, tableau={(0, 0): "6c"}, stock=["8c", "9c"])
    state = play(state, "draw", "draw")
    assert state.status == "lost"
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome["reason"] == "idle_pass"


def test_py5_unlimited_redeals_continue_while_each_pass_removes_a_card() -> None:
    """PY-5: a pass that removed a card may be followed by another; the next idle pass ends it."""
    state = position({"redeals": None}, tableau={(0, 0): "6c"}, stock=["Kc", "8c"])
    state = play(state, "Kc", "draw", "redeal", "draw")
    assert state.status == "lost"
    assert state.redeals_left is None
    assert state.pass_number == 2


def test_py5_unlimited_idle_pass_may_still_remove_at_its_end() -> None:
    """PY-5: the pass ends at the redeal, so a removal with the last waste card still counts."""
    state = position({"redeals": None}, tableau={(0, 0): "6c"}, stock=["8c", "7c"])
    state = play(state, "draw", "draw")
    assert legal(state) == ["6c+7c", "resign"]
    assert refused(state, "redeal") == "this pass has removed no card yet, and with unlimited redeals it must"
    state = play(state, "6c+7c")
    assert legal(state) == ["redeal", "resign"]
    state = play(state, "redeal", "draw")
    assert state.status == "lost"


def test_py5_resign() -> None:
    """PY-5: the player may resign; the game is then over and not won."""
    state = play(ENGINE.initial_state(deck=PLAIN), "Kd", "resign")
    assert state.status == "resigned"
    assert ENGINE.current_player(state) is None
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome["won"] is False and outcome["reason"] == "resigned" and outcome["moves"] == 2


# --- PY-6 variants ---------------------------------------------------------------------


def test_py6_reserve_deals_six_available_cards() -> None:
    """PY-6 reserve: six face-up cards after the tableau, each available until used; the stock follows."""
    state = ENGINE.initial_state({"reserve": True}, deck=PLAIN)
    assert state.reserve == ("3h", "4h", "5h", "6h", "7h", "8h")
    assert len(state.stock) == 18 and state.stock[0] == "9h"
    assert {"5h+8h", "4h+9d", "3h+Td", "4h+9h"} <= set(legal(state))
    state = play(state, "5h+8h")
    assert state.reserve == ("3h", "4h", None, "6h", "7h", None)
    assert state.points == 4
    assert ENGINE.view(state, 0).reserve == ("3h", "4h", None, "6h", "7h", None)
    state = play(state, "4h+9d")
    assert state.points == 4 + 2 + 5


def test_py6_clear_the_board_wins_when_the_tableau_is_empty() -> None:
    """PY-6 clear_the_board: the game is won as soon as the tableau is empty, stock or not."""
    state = play(position({"clear_the_board": True}, tableau={(0, 0): "Kc"}, stock=["5c", "9c"]), "Kc")
    assert state.status == "won"
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome["reason"] == "board_cleared" and outcome["cards_left"] == 2
    standard = play(position(tableau={(0, 0): "Kc"}, stock=["5c", "9c"]), "Kc")
    assert standard.status == "playing"


def test_py6_six_rows() -> None:
    """PY-6 rows=6: a 21-card tableau; seed 001's mode is rows=6 with three redeals."""
    state = ENGINE.initial_state({"rows": 6, "redeals": 3}, deck=PLAIN)
    assert len(state.tableau) == 21
    assert len(state.stock) == 31 and state.stock[0] == "9d"
    assert available_cards(state) == ["3d", "4d", "5d", "6d", "7d", "8d", "9d"]
    assert legal(state) == ["4d+9d", "5d+8d", "6d+7d", "draw", "resign"]
    assert refused(state, "Ac+Qc") == "Ac is covered by 2c and 3c"
    assert state.redeals_left == 3
    assert [len(row) for row in ENGINE.view(state, 0).tableau] == [1, 2, 3, 4, 5, 6]


def test_py6_one_deal() -> None:
    """PY-6 redeals=0 (One Deal): the stock is gone through once."""
    state = play(ENGINE.initial_state({"redeals": 0}, deck=PLAIN), *["draw"] * 24)
    assert "redeal" not in legal(state)
    assert refused(state, "redeal") == "this game allows no redeal"


def test_py6_waste_off_limits() -> None:
    """PY-6 waste_off_limits: the waste top is never available; the stock top still is."""
    deck = make_deck(PLAIN[:28], ["Ts", "3s"])
    state = play(ENGINE.initial_state({"waste_off_limits": True}, deck=deck), "draw")
    assert refused(state, "3s+Ts") == "Ts is on the waste, and waste cards may not be used in this game"
    assert "3s+Td" in legal(state)
    assert "Ts" not in available_cards(state)
    view = ENGINE.view(state, 0)
    assert view.waste_top == "Ts" and view.waste_top_available is False


def test_py6_reshuffle_uses_the_games_own_seeded_stream() -> None:
    """PY-6 reshuffle: a redeal shuffles the waste with rng.derive_seed(seed, "redeal", n)."""
    seed = 99
    state = play(ENGINE.initial_state({"reshuffle": True}, seed=seed, deck=PLAIN), *["draw"] * 24)
    waste = state.waste
    state = play(state, "redeal")
    assert state.stock == tuple(rng.shuffled(waste, rng.derive_seed(seed, "redeal", 1)))
    assert sorted(state.stock) == sorted(waste) and state.stock != waste
    state = play(state, *["draw"] * 24)
    second_waste = state.waste
    state = play(state, "redeal")
    assert state.stock == tuple(rng.shuffled(second_waste, rng.derive_seed(seed, "redeal", 2)))
    again = ENGINE.replay({"reshuffle": True}, seed, ["draw"] * 24 + ["redeal"], deck=PLAIN)[-1]
    other_seed = ENGINE.replay({"reshuffle": True}, seed + 1, ["draw"] * 24 + ["redeal"], deck=PLAIN)[-1]
    assert again.stock == tuple(rng.shuffled(waste, rng.derive_seed(seed, "redeal", 1)))
    assert other_seed.stock != again.stock


# Rows 4-6 of the overlap deal: Qh (4,0) lies under 6s (5,0) and Ah (5,1); 6s under 7s and
# Ks; Ah under Ks and Jd; 2c (5,2) under Jd and 3s. The stock starts with 2s.
OVERLAP_DEAL = tableau_deck(
    {
        (4, 0): "Qh",
        (5, 0): "6s",
        (5, 1): "Ah",
        (5, 2): "2c",
        (6, 0): "7s",
        (6, 1): "Ks",
        (6, 2): "Jd",
        (6, 3): "3s",
    },
    stock=["2s"],
)


def test_py6_overlap_pairs_with_the_one_card_still_covering() -> None:
    """PY-6 overlap_pairs: a card may pair with the one exposed card that alone still covers it."""
    state = play(ENGINE.initial_state({"overlap_pairs": True}, deck=OVERLAP_DEAL), "Ks")
    assert "6s+7s" in legal(state)
    state = play(state, "6s+7s")
    assert state.points == 5 + 10
    # Qh is now covered by Ah alone, but Ah is not exposed (Jd lies on it).
    assert "Ah+Qh" not in legal(state)
    assert refused(state, "Ah+Qh") == "Ah is covered by Jd"
    state = play(state, "2s+Jd")
    assert "Ah+Qh" in legal(state)
    assert play(state, "Qh+Ah").removed[-2:] == ("Ah", "Qh")


def test_py6_overlap_pairs_need_the_other_cover_gone() -> None:
    """PY-6 overlap_pairs: not while the covered card's other cover is still in play."""
    state = ENGINE.initial_state({"overlap_pairs": True}, deck=OVERLAP_DEAL)
    assert "2c+Jd" not in legal(state)
    assert refused(state, "2c+Jd") == "2c is covered by Jd and 3s"
    assert refused(state, "6s+7s") == "6s is covered by 7s and Ks"


def test_py6_without_overlap_pairs_a_covered_card_is_covered() -> None:
    """PY-6: overlap pairs are a variant; the standard game refuses them."""
    state = play(ENGINE.initial_state(deck=OVERLAP_DEAL), "Ks")
    assert "6s+7s" not in legal(state)
    assert refused(state, "6s+7s") == "6s is covered by 7s"


def test_py6_variants_combine() -> None:
    """PY-6: the flags combine; seed 004's easiest mix plays like each one alone."""
    config = {
        "reserve": True,
        "clear_the_board": True,
        "rows": 6,
        "waste_off_limits": True,
        "reshuffle": True,
    }
    state = ENGINE.initial_state(config, deck=PLAIN)
    assert len(state.tableau) == 21 and len(state.reserve) == 6 and len(state.stock) == 25
    assert ENGINE.view(state, 0).config == {
        **config,
        "redeals": 2,
        "overlap_pairs": False,
        "scoring": "points",
    }


# --- PY-7 points -----------------------------------------------------------------------


def test_py7_card_points() -> None:
    """PY-7: a tableau card removed scores 5; a stock, waste or reserve card 2."""
    state = ENGINE.initial_state(deck=PLAIN)
    assert play(state, "Kd").points == 5
    assert play(state, "Ah+Qd").points == 10
    assert play(state, "3h+Td").points == 7
    assert play(state, "draw", "4h+9d").points == 7
    assert play(ENGINE.initial_state({"reserve": True}, deck=PLAIN), "5h+8h").points == 4


def test_py7_row_and_tableau_bonuses() -> None:
    """PY-7: each tableau row emptied scores 25; the emptied tableau 250 more."""
    state = position(tableau={(0, 0): "Ks", (1, 0): "Kc", (1, 1): "Kd"}, stock=["5c"])
    state = play(state, "Kc")
    assert state.points == 5
    state = play(state, "Kd")
    assert state.points == 5 + 5 + 25
    state = play(state, "Ks")
    assert state.points == 35 + 5 + 25 + 250
    assert state.status == "playing"


def test_py7_two_rows_emptied_at_once() -> None:
    """PY-7: one removal that empties two rows earns both row bonuses."""
    state = position({"overlap_pairs": True}, tableau={(0, 0): "6c", (1, 0): "7c"}, stock=["Kd", "5d"])
    state = play(state, "6c+7c")
    assert state.points == 10 + 25 + 25 + 250


def test_py7_all_cards_bonus() -> None:
    """PY-7: removing all 52 cards scores 500 more."""
    state = play(position(tableau={(0, 0): "6c"}, stock=["7c"]), "6c+7c")
    assert state.points == 5 + 2 + 25 + 250 + 500
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome["score"] == 782


def test_py7_redeal_costs_20_but_the_score_never_goes_below_0() -> None:
    """PY-7: each redeal -20, never below 0: a penalty larger than the score takes it to 0, not into debt."""
    state = play(ENGINE.initial_state(deck=PLAIN), "Kd", "3h+Td", *["draw"] * 23)
    assert state.points == 12
    state = play(state, "redeal")
    assert state.points == 0
    state = play(state, "4h+9d")
    assert state.points == 7
    state = play(ENGINE.initial_state(deck=PLAIN), *["draw"] * 24, "redeal")
    assert state.points == 0
    many = position(tableau={(0, 0): "Kc"}, waste=["5c"])
    assert play(replace(many, points=30), "redeal").points == 10


# --- PY-8 par --------------------------------------------------------------------------


@pytest.mark.parametrize(("redeals_first", "expected"), [(0, 50 - 1), (1, 35 - 1), (2, 20 - 1)])
def test_py8_par_by_the_pass_the_tableau_was_cleared(redeals_first: int, expected: int) -> None:
    """PY-8: tableau cleared in pass 1, 2 or 3: 50, 35 or 20 minus the cards left in stock and waste."""
    state = position({"scoring": "par"}, tableau={(0, 0): "Kc"}, stock=["5c"])
    for _ in range(redeals_first):
        state = play(state, "draw", "redeal")
    state = play(state, "Kc")
    assert state.cleared_pass == redeals_first + 1
    assert ENGINE.view(state, 0).score == expected
    state = play(state, "resign")
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome["score"] == outcome["par"] == expected
    assert outcome["scoring"] == "par"
    assert outcome["points"] == 5 + 25 + 250


def test_py8_par_counts_the_cards_left_at_the_end() -> None:
    """PY-8: "minus the cards left at the end": removals after the tableau is cleared still count."""
    state = play(position({"scoring": "par"}, tableau={(0, 0): "Kc"}, stock=["5c", "8c", "9c"]), "Kc")
    assert ENGINE.view(state, 0).par == 47
    state = play(state, "draw", "5c+8c")
    assert ENGINE.view(state, 0).par == 49


def test_py8_par_when_the_tableau_is_not_cleared() -> None:
    """PY-8: tableau not cleared: minus the cards left in tableau, stock and waste."""
    state = ENGINE.initial_state({"scoring": "par"}, deck=PLAIN)
    outcome = ENGINE.outcome(play(state, "resign"))
    assert outcome is not None and outcome["score"] == -52
    outcome = ENGINE.outcome(play(state, "Kd", "Ah+Qd", "resign"))
    assert outcome is not None and outcome["score"] == -49


def test_py8_par_win_scores_the_full_base() -> None:
    """PY-8: a win in the first pass leaves no card: 50."""
    state = play(position({"scoring": "par"}, tableau={(0, 0): "6c"}, stock=["7c"]), "6c+7c")
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome["won"] and outcome["score"] == 50


@pytest.mark.parametrize("redeals", [3, None])
def test_py8_par_is_defined_for_two_redeals_at_most(redeals: int | None) -> None:
    """PY-8: par counts passes 1 to 3 only (the classic game has two redeals)."""
    with pytest.raises(ValueError, match="redeals"):
        ENGINE.initial_state({"scoring": "par", "redeals": redeals})


# --- config, seed, deck and view -------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "named"),
    [
        ({"colour": True}, "colour"),
        ({"rows": 8}, "rows"),
        ({"rows": "7"}, "rows"),
        ({"redeals": -1}, "redeals"),
        ({"redeals": 1.5}, "redeals"),
        ({"reserve": "yes"}, "reserve"),
        ({"overlap_pairs": 1}, "overlap_pairs"),
        ({"scoring": "vegas"}, "scoring"),
    ],
)
def test_bad_config_is_refused_by_name(config: dict[str, Any], named: str) -> None:
    """PY-6: unknown or invalid options raise ValueError naming the option."""
    with pytest.raises(ValueError, match=named):
        ENGINE.initial_state(config)


@pytest.mark.parametrize("seed", [-1, 2**63, "1", 1.0, True, None])
def test_bad_seed_is_refused(seed: Any) -> None:
    with pytest.raises(ValueError, match="seed"):
        ENGINE.initial_state(None, seed)


@pytest.mark.parametrize(
    ("deck", "named"),
    [
        (PLAIN[:-1], "missing"),
        ([*PLAIN[:-1], "Ac"], "repeated"),
        ([*PLAIN[:-1], "Xx"], "unknown"),
        ([*PLAIN, "Ac"], "repeated"),
        ("".join(PLAIN), "one string"),
    ],
)
def test_bad_deck_is_refused(deck: Any, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        ENGINE.initial_state(None, 0, deck)


def test_default_deal_is_the_seeded_shuffle() -> None:
    """The deal without a deck is rng.shuffled(STANDARD_DECK, seed)."""
    state = ENGINE.initial_state(None, 7)
    assert state.tableau + state.stock == tuple(rng.shuffled(STANDARD_DECK, 7))
    assert ENGINE.initial_state({}, 7) == state


def test_view_keys_and_hidden_stock() -> None:
    """LP-3: the view shows the stock top and count, never the cards beneath, nor the seed."""
    seed = 918273645546372819
    state = play(ENGINE.initial_state(None, seed), "draw")
    view = ENGINE.view(state, 0)
    assert isinstance(view, PyramidView)
    assert set(view.data()) == {
        "game", "seat", "config", "moves", "tableau", "reserve", "stock_count", "stock_top", "waste",
        "waste_top", "waste_top_available", "removed", "available", "pass_number", "redeals_used",
        "redeals_left", "score", "points", "par", "cards_left", "move_count", "status", "over",
        "outcome", "stock", "seed",
    }  # fmt: skip
    assert view.stock is None and view.seed is None  # set in a full view only
    text = json.dumps(view.data())
    assert str(seed) not in text
    assert all(card not in text for card in state.stock[1:])
    assert view.stock_top == state.stock[0]
    assert list(view.legal) == legal(state)
    assert (view.seat, view.move_count, view.pass_number) == (0, 1, 1)
    # A spectator sees what the player sees, but is offered no move.
    spectator = ENGINE.view(state, None)
    assert spectator == ENGINE.view(state, -1)
    assert spectator.seat is None and spectator.moves == ()
    assert replace(spectator, seat=0, moves=view.moves) == view
    with pytest.raises(ValueError, match="one seat"):
        ENGINE.view(state, 1)


def test_engine_is_registered() -> None:
    assert get_engine("pyramid") is ENGINE
    assert ENGINE.name == "pyramid"
    assert ENGINE.current_player(ENGINE.initial_state()) == 0


def test_apply_takes_an_action_or_its_text() -> None:
    """The same move as an object or as text; another game's action is refused."""
    state = ENGINE.initial_state(deck=PLAIN)
    assert ENGINE.apply(state, Remove(("Td", "3h"))) == ENGINE.apply(state, "3h+Td")
    with pytest.raises(IllegalAction, match="not a pyramid action"):
        ENGINE.apply(state, Play("Td"))


def test_py1_a_covered_card_is_refused_for_being_covered_before_its_value() -> None:
    state = ENGINE.initial_state(None, 3)
    apex = state.tableau[0]
    with pytest.raises(IllegalAction, match=f"{apex} is covered by"):
        ENGINE.apply(state, apex)
