"""One test (or a few) per Tri-Peaks rule, TP-1 .. TP-6 (RULES.md section 2).

Deals are hand-built decks; end-of-game cases start from a hand-built position whose
other cards all lie on the waste, where the game would have put them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from games.engine import IllegalAction, Move, get_engine, rng
from games.engine.cards import STANDARD_DECK
from games.engine.pyramid import Remove
from games.engine.tripeaks import (
    COVERED_BY,
    POSITIONS,
    Play,
    TriPeaksCell,
    TriPeaksEngine,
    TriPeaksState,
    TriPeaksView,
    adjacent,
)

ENGINE = get_engine("tripeaks")
assert isinstance(ENGINE, TriPeaksEngine)

# STANDARD_DECK dealt as is: row 0 Ac 2c 3c; row 1 4c .. 9c; row 2 Tc Jc Qc Kc Ad 2d 3d 4d 5d;
# row 3 6d 7d 8d 9d Td Jd Qd Kd Ah 2h; the waste starts with 3h; the stock runs 4h .. Kh, As .. Ks.
PLAIN = list(STANDARD_DECK)

# The plain deal wins in one run without a draw: row 3 from the right, then row 2, 1 and 0.
PLAIN_WIN = [*PLAIN[18:28][::-1], *PLAIN[9:18][::-1], *PLAIN[3:9][::-1], *PLAIN[0:3][::-1]]


def slot(row: int, index: int) -> int:
    return POSITIONS.index((row, index))


def make_deck(
    layout: Mapping[tuple[int, int], str], waste: str | None = None, stock: Sequence[str] = ()
) -> list[str]:
    """A deck putting ``layout`` at those (row, index) places, ``waste`` on the waste and
    ``stock`` on top of the stock; every other card fills the gaps in STANDARD_DECK order."""
    named = {*layout.values(), *stock, *([waste] if waste else [])}
    fillers = iter(card for card in STANDARD_DECK if card not in named)
    cards = [layout.get(place) or next(fillers) for place in POSITIONS]
    cards.append(waste or next(fillers))
    return cards + list(stock) + list(fillers)


def position(
    config: dict[str, Any] | None = None,
    *,
    layout: Mapping[tuple[int, int], str],
    waste_top: str,
    stock: Sequence[str] = (),
) -> TriPeaksState:
    """A running game with just these layout and stock cards; every other card is on the waste."""
    base = ENGINE.initial_state(config)
    in_play = {*layout.values(), *stock, waste_top}
    waste = (*(card for card in STANDARD_DECK if card not in in_play), waste_top)
    return replace(
        base, layout=tuple(layout.get(place) for place in POSITIONS), stock=tuple(stock), waste=waste
    )


def legal(state: TriPeaksState) -> list[str]:
    return [str(action) for action in ENGINE.legal_actions(state)]


def play(state: TriPeaksState, *actions: str) -> TriPeaksState:
    for action in actions:
        state = ENGINE.apply(state, action)
    return state


def refused(state: TriPeaksState, action: str) -> str:
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, action)
    return str(info.value)


def shown_cards(state: TriPeaksState) -> list[str | None]:
    return [entry.card for row in ENGINE.view(state, 0).layout for entry in row]


# --- TP-1 layout -----------------------------------------------------------------------


def test_tp1_rows_and_covering_follow_the_rule_text() -> None:
    """TP-1: rows of 3, 6, 9, 10; row 2 card j under row 3 cards j, j+1; row 1 card 2p+k under
    row 2 cards 3p+k, 3p+k+1; apex p under row 1 cards 2p, 2p+1."""
    expected: dict[tuple[int, int], set[tuple[int, int]]] = {(3, j): set() for j in range(10)}
    expected |= {(2, j): {(3, j), (3, j + 1)} for j in range(9)}
    expected |= {(1, 2 * p + k): {(2, 3 * p + k), (2, 3 * p + k + 1)} for p in range(3) for k in range(2)}
    expected |= {(0, p): {(1, 2 * p), (1, 2 * p + 1)} for p in range(3)}
    actual = {POSITIONS[k]: {POSITIONS[j] for j in COVERED_BY[k]} for k in range(28)}
    assert actual == expected
    assert [sum(1 for r, _ in POSITIONS if r == row) for row in range(4)] == [3, 6, 9, 10]


def test_tp1_deal_fills_rows_0_to_3_and_only_row_3_is_face_up() -> None:
    """TP-1: 28 cards fill rows 0 to 3 left to right; rows 0-2 face down, row 3 face up."""
    state = ENGINE.initial_state(deck=PLAIN)
    assert state.layout == tuple(PLAIN[:28])
    view = ENGINE.view(state, 0)
    assert [len(row) for row in view.layout] == [3, 6, 9, 10]
    assert shown_cards(state) == [None] * 18 + PLAIN[18:28]
    assert [entry.face_up for row in view.layout for entry in row] == [False] * 18 + [True] * 10
    assert [(entry.row, entry.index) for entry in view.layout[1]] == [(1, i) for i in range(6)]


def test_tp1_a_card_turns_face_up_when_free() -> None:
    """TP-1: a face-down card turns face up as soon as nothing covers it."""
    state = play(ENGINE.initial_state(deck=PLAIN), "2h")
    assert shown_cards(state)[slot(2, 8)] is None  # 5d is still under Ah
    state = play(state, "Ah")
    assert shown_cards(state)[slot(2, 8)] == "5d"
    assert "5d" not in legal(state)  # the waste top is Ah, and 5d is not next to it
    assert ENGINE.view(state, 0).layout[2][8] == TriPeaksCell(
        row=2, index=8, card="5d", face_up=True, removed=False, free=True, playable=False
    )


# --- TP-2 start ------------------------------------------------------------------------


def test_tp2_one_card_starts_the_waste_and_23_stay_in_the_stock() -> None:
    """TP-2: the 29th card starts the waste; the other 23 are the stock, the first on top."""
    state = ENGINE.initial_state(deck=PLAIN)
    assert state.waste == ("3h",)
    assert state.stock == tuple(PLAIN[29:])
    assert len(state.stock) == 23
    view = ENGINE.view(state, 0)
    assert view.waste_top == "3h" and view.stock_count == 23


# --- TP-3 play -------------------------------------------------------------------------


def test_tp3_play_one_above_or_below() -> None:
    """TP-3: a free face-up card one rank above or below the waste top goes onto the waste."""
    state = ENGINE.initial_state(deck=PLAIN)
    assert legal(state) == ["2h", "draw", "resign"]
    # The player's view offers a play with its card.
    assert ENGINE.view(state, 0).moves == (
        Move("2h", "play", cards=("2h",)),
        Move("draw", "draw"),
        Move("resign", "resign"),
    )
    state = play(state, "2h")
    assert state.waste == ("3h", "2h")
    assert state.layout[slot(3, 9)] is None
    assert refused(state, "Jd") == "Jd is not one rank above or below 2h"


def test_tp3_wraps_king_to_ace_and_ace_to_king() -> None:
    """TP-3: K-A and A-K are both one apart."""
    state = ENGINE.initial_state(
        deck=make_deck({(3, 0): "Ad", (3, 1): "Qs", (3, 2): "2c", (3, 3): "Jh"}, waste="Kc")
    )
    assert {"Ad", "Qs"} <= set(legal(state))
    assert refused(state, "2c") == "2c is not one rank above or below Kc"
    assert refused(state, "Jh") == "Jh is not one rank above or below Kc"
    state = play(state, "Ad")
    assert "Qs" not in legal(state) and "2c" in legal(state)
    assert adjacent("Ah", "Kd") and adjacent("Kd", "Ah") and not adjacent("Ah", "Qd")


def test_tp3_covered_and_face_down_cards_cannot_be_played() -> None:
    """TP-3: only free face-up cards; a face-down card and a stock card get the same answer,
    so the message never tells where an unseen card is."""
    state = play(ENGINE.initial_state(deck=PLAIN), "2h", "Ah", "Kd", "Qd")
    assert refused(state, "Qc") == "Qc is not a face-up card of the layout"  # face down in row 2
    assert refused(state, "Qh") == "Qh is not a face-up card of the layout"  # in the stock
    assert refused(state, "Qd") == "Qd is already on the waste"
    assert refused(state, "Ks") == "Ks is not a face-up card of the layout"


def test_tp3_draw_and_no_redeal() -> None:
    """TP-3: ``draw`` turns the stock top onto the waste; there is no redeal."""
    state = ENGINE.initial_state(deck=PLAIN)
    state = play(state, "draw")
    assert state.waste == ("3h", "4h") and state.stock[0] == "5h"
    state = play(state, *["draw"] * 22)
    assert state.stock == ()
    assert "draw" not in legal(state)
    assert refused(state, "draw") == "the stock is empty"
    with pytest.raises(IllegalAction):
        ENGINE.parse_action("redeal")


def test_tp3_action_text() -> None:
    """TP-3: a play is written as its card ('Td', 'play Td' is accepted too)."""
    for text in ("Td", "play Td", "PLAY td", "10d", " play 10D "):
        assert ENGINE.parse_action(text) == Play("Td")
    assert str(Play("Td")) == "Td"
    assert str(ENGINE.parse_action("draw")) == "draw"
    assert str(ENGINE.parse_action("Resign")) == "resign"
    for malformed in ("", "play", "play Td Jd", "Td+3h", "xx", "play draw", "1d"):
        with pytest.raises(IllegalAction):
            ENGINE.parse_action(malformed)


# --- TP-4 end --------------------------------------------------------------------------


def test_tp4_won_when_the_layout_is_empty() -> None:
    """TP-4: the game is won once the layout is empty."""
    state = play(ENGINE.initial_state(deck=PLAIN), *PLAIN_WIN[:-1])
    assert ENGINE.outcome(state) is None
    state = play(state, PLAIN_WIN[-1])
    assert state.status == "won"
    assert ENGINE.current_player(state) is None
    assert ENGINE.legal_actions(state) == []
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome["won"] is True and outcome["reason"] == "cleared" and outcome["stock_left"] == 23
    assert refused(state, "draw") == "the game is over (won)"


def test_tp4_lost_when_the_stock_is_empty_and_nothing_plays() -> None:
    """TP-4: the stock is empty and no card can be played: lost."""
    state = position(layout={(3, 0): "9c"}, waste_top="2c", stock=["5c"])
    state = play(state, "draw")
    assert state.status == "lost"
    assert ENGINE.legal_actions(state) == []
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome["won"] is False and outcome["reason"] == "no_moves"
    assert outcome["cards_left"] == 1


def test_tp4_an_empty_stock_with_a_play_left_goes_on() -> None:
    """TP-4: an empty stock alone does not end the game while a card can be played."""
    state = play(position(layout={(3, 0): "6c", (3, 1): "9c"}, waste_top="2c", stock=["5c"]), "draw")
    assert state.status == "playing"
    assert legal(state) == ["6c", "resign"]


def test_tp4_resign() -> None:
    """The player may give up (as in PY-5)."""
    state = play(ENGINE.initial_state(deck=PLAIN), "resign")
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome["won"] is False and outcome["reason"] == "resigned"


# --- TP-5 face up ----------------------------------------------------------------------


def test_tp5_face_up_shows_every_layout_card() -> None:
    """TP-5 face_up: all 28 layout cards are dealt face up; covered cards are still covered."""
    state = ENGINE.initial_state({"face_up": True}, deck=PLAIN)
    assert shown_cards(state) == PLAIN[:28]
    assert legal(state) == ["2h", "draw", "resign"]
    state = play(state, "2h")
    assert refused(state, "4d") == "4d is covered by Kd and Ah"
    assert refused(state, "Ac") == "Ac is covered by 4c and 5c"


# --- TP-6 score ------------------------------------------------------------------------


def test_tp6_each_card_scores_the_run_length_and_a_draw_restarts_the_run() -> None:
    """TP-6: each card played scores the current run's length; each draw -5 and a new run."""
    state = ENGINE.initial_state(deck=PLAIN)
    scores = []
    for card in ("2h", "Ah", "Kd"):
        state = play(state, card)
        scores.append(state.score)
    assert scores == [1, 3, 6]
    state = play(state, "draw")
    assert state.score == 1 and state.run == 0
    state = play(state, "5d", "4d")
    assert state.score == 1 + 1 + 2


def test_tp6_apexes_and_the_third_apex() -> None:
    """TP-6: each apex 15 more; the third 30 more; at a win 5 for each card left in the stock."""
    state = position(layout={(0, 0): "3c", (0, 1): "4c", (0, 2): "5c"}, waste_top="2c", stock=["9s", "9h"])
    state = play(state, "3c")
    assert state.score == 1 + 15
    state = play(state, "4c")
    assert state.score == 16 + 2 + 15
    state = play(state, "5c")
    assert state.score == 33 + 3 + 15 + 30 + 2 * 5
    assert state.status == "won"


def test_tp6_a_whole_game() -> None:
    """TP-6: the plain deal's one-run win: 1 + 2 + ... + 28, three apexes, 23 stock cards."""
    state = play(ENGINE.initial_state(deck=PLAIN), *PLAIN_WIN)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome["score"] == sum(range(1, 29)) + 3 * 15 + 30 + 23 * 5 == 596
    assert outcome["peaks_cleared"] == 3


def test_tp6_never_below_0() -> None:
    """TP-6: a draw never takes the score below 0, and points after it count in full."""
    state = play(ENGINE.initial_state(deck=PLAIN), "draw", "draw")
    assert state.score == 0
    state = play(state, "6d")
    assert state.score == 1
    assert play(replace(state, score=3), "draw").score == 0


# --- config, seed, deck and view -------------------------------------------------------


@pytest.mark.parametrize(("config", "named"), [({"faceup": True}, "faceup"), ({"face_up": "yes"}, "face_up")])
def test_bad_config_is_refused_by_name(config: dict[str, Any], named: str) -> None:
    with pytest.raises(ValueError, match=named):
        ENGINE.initial_state(config)


@pytest.mark.parametrize("seed", [-1, 2**63, "1", 1.5, False])
def test_bad_seed_is_refused(seed: Any) -> None:
    with pytest.raises(ValueError, match="seed"):
        ENGINE.initial_state(None, seed)


@pytest.mark.parametrize(("deck", "named"), [(PLAIN[1:], "missing"), ([*PLAIN[1:], "As"], "repeated")])
def test_bad_deck_is_refused(deck: list[str], named: str) -> None:
    with pytest.raises(ValueError, match=named):
        ENGINE.initial_state(None, 0, deck)


def test_default_deal_is_the_seeded_shuffle() -> None:
    state = ENGINE.initial_state(None, 11)
    assert state.layout + state.waste + state.stock == tuple(rng.shuffled(STANDARD_DECK, 11))


def test_view_keys_and_hidden_cards() -> None:
    """LP-3: face-down cards and the stock are never shown, nor the seed."""
    seed = 5551234567890123
    state = ENGINE.initial_state(None, seed)
    view = ENGINE.view(state, 0)
    assert isinstance(view, TriPeaksView)
    assert set(view.data()) == {
        "game", "seat", "config", "moves", "layout", "stock_count", "waste", "waste_top", "run",
        "score", "cards_left", "peaks_cleared", "move_count", "status", "over", "outcome", "stock",
    }  # fmt: skip
    assert view.stock is None  # set in a full view only
    text = json.dumps(view.data())
    assert str(seed) not in text
    assert all(card not in text for card in (*state.layout[:18], *state.stock))
    assert list(view.legal) == legal(state)
    assert (view.seat, view.move_count) == (0, 0)
    # A spectator sees what the player sees, but is offered no move.
    spectator = ENGINE.view(state, None)
    assert spectator == ENGINE.view(state, -1)
    assert spectator.seat is None and spectator.moves == ()
    assert replace(spectator, seat=0, moves=view.moves) == view
    with pytest.raises(ValueError, match="one seat"):
        ENGINE.view(state, 2)


def test_engine_is_registered() -> None:
    assert get_engine("tripeaks") is ENGINE
    assert ENGINE.current_player(ENGINE.initial_state()) == 0


def test_apply_takes_an_action_or_its_text() -> None:
    """The same move as an object or as text; another game's action is refused."""
    state = ENGINE.initial_state(deck=PLAIN)
    assert ENGINE.apply(state, Play("2h")) == ENGINE.apply(state, "play 2h")
    with pytest.raises(IllegalAction, match="not a tripeaks action"):
        ENGINE.apply(state, Remove(("Kd",)))
