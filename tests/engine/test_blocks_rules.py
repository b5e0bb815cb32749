"""One or more tests per rule of Pyramid Poker (RULES.md BL-1..BL-8, LP-3), with hand-built decks.

A *scripted* game builds the pyramid in place order (foundation first, 30 places) and
then takes the blocks in the reverse order, which is always legal: nothing rests on the
place with the highest id left. Seat 0 therefore takes the odd places 29, 27, ... 1 and
seat 1 the even ones 28, ... 0; ``scripted_deck`` puts each wanted card where the seat
that should end up with it will take it.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pytest

from games.engine import TABLE_SEAT, IllegalAction, get_engine
from games.engine.blocks import (
    BLOCKS,
    PLACES,
    RESTING_ON,
    SUPPORTS,
    BlocksHand,
    BlocksHeld,
    BlocksPlace,
    BlocksState,
    BlocksSupply,
    BlocksView,
    GameResult,
)
from games.engine.rng import derive_seed, shuffled

ENGINE = get_engine("blocks")
ADVANCED = {"scoring": "advanced"}


def scripted_deck(takes: tuple[Sequence[str], Sequence[str]], general: Sequence[str] = ()) -> list[str]:
    """A deck where seat s's j-th take (in a scripted game) is ``takes[s][j]``.

    ``general`` is the top of the general supply; unnamed blocks fill the rest in ``BLOCKS`` order.
    """
    supplies: list[list[str]] = [[""] * 15, [""] * 15]
    for seat in (0, 1):
        for j, card in enumerate(takes[seat]):
            pid = 29 - 2 * j - seat
            supplies[pid % 2][pid // 2] = card
    named = {*takes[0], *takes[1], *general}
    rest = [block for block in BLOCKS if block not in named]
    spare = iter(rest)
    for supply in supplies:
        for k, card in enumerate(supply):
            if not card:
                supply[k] = next(spare)
    return supplies[0] + supplies[1] + list(general) + list(spare)


def hands_takes(hands: Sequence[Sequence[str]]) -> list[str]:
    """The take order that, with ``by_fives``, fills hand 1, then hand 2, then hand 3."""
    return [card for hand in hands for card in hand]


def by_fives(seat: int, j: int) -> int:
    return j // 5 + 1


def build(state: BlocksState) -> BlocksState:
    for row, index in PLACES[:30]:
        state = ENGINE.apply(state, f"place {row},{index}")
    return state


def take_all(
    state: BlocksState,
    hand_of: Callable[[int, int], int] = by_fives,
    stop_after: int = 30,
) -> BlocksState:
    """Take the pyramid top down; seat s's j-th block goes to hand ``hand_of(s, j)``.

    After a Joker the first block turned over is kept.
    """
    count = [0, 0]
    for step in range(stop_after):
        seat = ENGINE.current_player(state)
        state = ENGINE.apply(state, f"take {PLACES[29 - step][0]},{PLACES[29 - step][1]}")
        if state.phase == "joker":
            state = ENGINE.apply(state, f"keep {state.revealed[0]}")
        state = ENGINE.apply(state, f"hand {hand_of(seat, count[seat])}")
        count[seat] += 1
    return state


def play_scripted(
    hands0: Sequence[Sequence[str]], hands1: Sequence[Sequence[str]], config: dict[str, Any] | None = None
) -> BlocksState:
    deck = scripted_deck((hands_takes(hands0), hands_takes(hands1)))
    return take_all(build(ENGINE.initial_state(config, 0, deck)))


def result(state: BlocksState) -> GameResult:
    return state.results[-1]


# --- BL-1 components and deal -----------------------------------------------------------


def test_bl1_54_blocks_dealt_15_15_24_from_the_deck_top_first() -> None:
    deck = list(reversed(BLOCKS))
    state = ENGINE.initial_state(None, 0, deck)
    assert len(BLOCKS) == 54 and set(BLOCKS) >= {"X1", "X2", "Ah", "Td"}
    assert state.supplies == (tuple(deck[:15]), tuple(deck[15:30]))
    assert state.general == tuple(deck[30:])
    assert ENGINE.current_player(state) == 0 and state.phase == "build"


def test_bl1_seeded_deal_is_the_projects_shuffle() -> None:
    state = ENGINE.initial_state(None, 42)
    deck = shuffled(BLOCKS, 42)
    assert state.supplies[0] + state.supplies[1] + state.general == tuple(deck)


@pytest.mark.parametrize(
    ("deck", "words"),
    [
        (list(BLOCKS[:-1]), "missing ['X2']"),
        ([*BLOCKS[:-1], "X1"], "repeated ['X1']"),
        ([*BLOCKS[:-1], "Zz"], "unknown ['Zz']"),
        ("AhKh", "not one string"),
    ],
)
def test_bl1_a_deck_must_be_the_54_blocks(deck: Any, words: str) -> None:
    with pytest.raises(ValueError, match=r"54|string") as info:
        ENGINE.initial_state(None, 0, deck)
    assert words in str(info.value)


@pytest.mark.parametrize(
    ("config", "words"),
    [
        ({"scoring": "fancy"}, "'scoring'"),
        ({"target": 9}, "'target'"),
        ({"target": "7"}, "'target'"),
        ({"players": 3}, "unknown blocks config option"),
        ("basic", "must be a dict"),
    ],
)
def test_bl1_bad_config_is_refused_by_name(config: Any, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        ENGINE.initial_state(config, 0)


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5, "7", True])
def test_bl1_bad_seed_is_refused(seed: int) -> None:
    with pytest.raises(ValueError, match="seed"):
        ENGINE.initial_state(None, seed)


def test_bl1_config_defaults() -> None:
    assert ENGINE.normalize_config(None) == {"scoring": "basic", "target": 7}
    assert ENGINE.normalize_config({"scoring": "advanced", "target": 11}) == {
        "scoring": "advanced",
        "target": 11,
    }


# --- BL-2 the pyramid -------------------------------------------------------------------


def test_bl2_only_the_foundation_is_open_at_first() -> None:
    state = ENGINE.initial_state(None, 1)
    assert [str(a) for a in ENGINE.legal_actions(state)] == [f"place 0,{i}" for i in range(8)]


def test_bl2_a_place_opens_when_both_blocks_below_are_filled() -> None:
    state = ENGINE.initial_state(None, 1)
    state = ENGINE.apply(state, "place 0,3")
    with pytest.raises(IllegalAction, match=r"place 1,3 is not open: it rests on 0,3 and 0,4; 0,4 is empty"):
        ENGINE.apply(state, "place 1,3")
    state = ENGINE.apply(state, "place 0,4")
    assert "place 1,3" in [str(a) for a in ENGINE.legal_actions(state)]
    assert "place 1,2" not in [str(a) for a in ENGINE.legal_actions(state)]
    with pytest.raises(IllegalAction, match="already holds a block"):
        ENGINE.apply(state, "place 0,3")
    with pytest.raises(IllegalAction, match="there is no place 0,8"):
        ENGINE.apply(state, "place 0,8")
    with pytest.raises(IllegalAction, match="there is no place 2,6"):
        ENGINE.apply(state, "place 2,6")


def test_bl2_any_shape_that_follows_the_rule_is_allowed_and_building_ends_at_30() -> None:
    state = ENGINE.initial_state(None, 1)
    # A lopsided shape: the 28-block triangle under (6,0), plus two more foundation-side blocks.
    triangle = [(r, i) for r in range(7) for i in range(7 - r)]
    for row, index in [*triangle, (0, 7), (1, 6)]:
        assert state.phase == "build"
        state = ENGINE.apply(state, f"place {row},{index}")
    assert state.phase == "take" and ENGINE.current_player(state) == 0
    assert state.pyramid[PLACES.index((6, 0))] is not None
    assert [str(a) for a in ENGINE.legal_actions(state)] == ["take 1,6", "take 6,0"]


@pytest.mark.parametrize("seed", range(20))
def test_bl2_bl4_the_moves_on_the_pyramid_in_random_games_follow_the_rule_place_by_place(seed: int) -> None:
    """A block goes on an empty place whose places below are filled; one is taken from a filled
    place that nothing rests on: checked place by place at every state of random games."""
    rng = random.Random(seed)
    state = ENGINE.initial_state(ADVANCED, seed)
    while state.phase != "over":
        filled = [block is not None for block in state.pyramid]
        if state.phase == "build":
            due = {f"place {row},{index}" for pid, (row, index) in enumerate(PLACES)
                   if not filled[pid] and all(filled[below] for below in SUPPORTS[pid])}  # fmt: skip
            assert {str(action) for action in ENGINE.legal_actions(state)} == due
        elif state.phase == "take":
            due = {f"take {row},{index}" for pid, (row, index) in enumerate(PLACES)
                   if filled[pid] and not any(filled[above] for above in RESTING_ON[pid])}  # fmt: skip
            assert {str(action) for action in ENGINE.legal_actions(state)} == due
        state = ENGINE.apply(state, rng.choice(ENGINE.legal_actions(state)))


# --- BL-3 building ----------------------------------------------------------------------


def test_bl3_players_alternate_placing_their_own_next_block_seen_only_by_them() -> None:
    state = ENGINE.initial_state(None, 5)
    first = state.supplies[0][0]
    mine, theirs = ENGINE.view(state, 0), ENGINE.view(state, 1)
    assert mine.next_block == first and mine.legal
    assert theirs.next_block is None and theirs.legal == ()
    state = ENGINE.apply(state, "place 0,0")
    assert ENGINE.current_player(state) == 1
    assert ENGINE.view(state, 1).next_block == state.supplies[1][0]
    assert ENGINE.view(state, 0).pyramid[0].face == first
    assert ENGINE.view(state, 1).pyramid[0] == BlocksPlace(
        row=0, index=0, filled=True, face=None, placer=0, open=False, takeable=False
    )
    assert state.supplies[0] == ENGINE.initial_state(None, 5).supplies[0][1:]


def test_bl3_placing_is_refused_outside_the_build() -> None:
    state = build(ENGINE.initial_state(None, 5))
    with pytest.raises(IllegalAction, match="must take a block"):
        ENGINE.apply(state, "place 5,0")


# --- BL-4 taking ------------------------------------------------------------------------


def test_bl4_take_uncovered_then_choose_a_hand_then_face_up_for_both() -> None:
    state = build(ENGINE.initial_state(None, 3))
    with pytest.raises(IllegalAction, match="block 0,0 cannot be taken: 1,0 rests on it"):
        ENGINE.apply(state, "take 0,0")
    with pytest.raises(IllegalAction, match="must take a block"):
        ENGINE.apply(state, "hand 1")
    with pytest.raises(IllegalAction, match="there is no block at 5,0"):
        ENGINE.apply(state, "take 5,0")
    card, placer = state.pyramid[PLACES.index((4, 1))]
    assert placer == 1
    state = ENGINE.apply(state, "take 4,1")
    assert state.phase == "hand" and ENGINE.current_player(state) == 0
    assert ENGINE.view(state, 0).holding == BlocksHeld(seat=0, face=card, origin=(4, 1))
    assert ENGINE.view(state, 1).holding == BlocksHeld(seat=0, face=card, origin=(4, 1))  # seat 1 placed it
    assert ENGINE.view(state, None).holding == BlocksHeld(seat=0, face=None, origin=(4, 1))
    assert [str(a) for a in ENGINE.legal_actions(state)] == ["hand 1", "hand 2", "hand 3"]
    with pytest.raises(IllegalAction, match="there is no hand 4"):
        ENGINE.apply(state, "hand 4")
    state = ENGINE.apply(state, "hand 2")
    assert state.hands[0] == ((), (card,), ())
    assert ENGINE.view(state, None).hands[0][1] == BlocksHand(cards=(card,), name=None)
    assert ENGINE.current_player(state) == 1 and state.phase == "take"


def test_bl4_a_full_hand_cannot_take_more() -> None:
    state = build(ENGINE.initial_state(None, 3))
    state = take_all(state, hand_of=lambda seat, j: 1 if j < 5 else 2, stop_after=10)
    assert [len(hand) for hand in state.hands[0]] == [5, 0, 0]
    state = ENGINE.apply(state, f"take {PLACES[19][0]},{PLACES[19][1]}")
    assert [str(a) for a in ENGINE.legal_actions(state)] == ["hand 2", "hand 3"]
    with pytest.raises(IllegalAction, match="hand 1 is full"):
        ENGINE.apply(state, "hand 1")


def test_bl4_hands_fill_exactly_as_the_pyramid_empties() -> None:
    state = play_scripted(
        [BLOCKS[0:5], BLOCKS[5:10], BLOCKS[10:15]], [BLOCKS[15:20], BLOCKS[20:25], BLOCKS[25:30]]
    )
    assert all(len(hand) == 5 for seat in state.hands for hand in seat)
    assert all(block is None for block in state.pyramid)
    assert state.hands[0] == (BLOCKS[0:5], BLOCKS[5:10], BLOCKS[10:15])


# --- BL-5 Jokers ------------------------------------------------------------------------


def test_bl5_a_taken_joker_turns_over_three_and_the_taker_keeps_one() -> None:
    takes0 = ["X1", *BLOCKS[1:15]]
    deck = scripted_deck((takes0, BLOCKS[26:41]), general=["Kd", "Qd", "Jd", "Td"])
    state = build(ENGINE.initial_state(None, 0, deck))
    state = ENGINE.apply(state, "take 4,3")  # place 29, seat 0's first take
    assert state.phase == "joker" and ENGINE.current_player(state) == 0
    assert state.discards == ("X1",) and state.revealed == ("Kd", "Qd", "Jd")
    assert ENGINE.view(state, None).revealed == ("Kd", "Qd", "Jd")
    assert [str(a) for a in ENGINE.legal_actions(state)] == ["keep Kd", "keep Qd", "keep Jd"]
    with pytest.raises(IllegalAction, match="Td is not one of the blocks turned over"):
        ENGINE.apply(state, "keep Td")
    with pytest.raises(IllegalAction, match="must keep one"):
        ENGINE.apply(state, "hand 1")
    state = ENGINE.apply(state, "keep Qd")
    assert state.discards == ("X1", "Kd", "Jd") and state.revealed == ()
    assert ENGINE.view(state, None).holding == BlocksHeld(seat=0, face="Qd", origin=None)
    state = ENGINE.apply(state, "hand 3")
    assert state.hands[0] == ((), (), ("Qd",)) and state.general[0] == "Td"
    assert ENGINE.current_player(state) == 1


def test_bl5_a_joker_turned_over_from_the_supply_is_discarded_and_replaced() -> None:
    deck = scripted_deck((["X1", *BLOCKS[1:15]], BLOCKS[26:41]), general=["Kd", "X2", "Qd", "Jd", "Td"])
    state = ENGINE.apply(build(ENGINE.initial_state(None, 0, deck)), "take 4,3")
    assert state.discards == ("X1", "X2") and state.revealed == ("Kd", "Qd", "Jd")
    assert state.general[0] == "Td"


def test_bl5_a_joker_taken_with_one_slot_left_keeps_into_that_hand() -> None:
    takes0 = [*BLOCKS[0:14], "X2"]
    deck = scripted_deck((takes0, BLOCKS[26:41]), general=["Kd", "Qd", "Jd"])
    state = build(ENGINE.initial_state(None, 0, deck))
    state = take_all(state, stop_after=28)
    assert [len(hand) for hand in state.hands[0]] == [5, 5, 4]
    state = ENGINE.apply(state, "take 0,1")
    state = ENGINE.apply(state, "keep Jd")
    assert [str(a) for a in ENGINE.legal_actions(state)] == ["hand 3"]
    state = ENGINE.apply(state, "hand 3")
    assert state.hands[0][2][-1] == "Jd"


def test_bl5_jokers_keep_the_block_count_whole() -> None:
    deck = scripted_deck((["X1", *BLOCKS[1:15]], ["X2", *BLOCKS[20:34]]))
    state = take_all(build(ENGINE.initial_state(None, 0, deck)))
    assert all(len(hand) == 5 for seat in state.hands for hand in seat)
    assert len(state.discards) == 2 + 2 * 2 and len(state.general) == 24 - 6


# --- BL-6 showdown ----------------------------------------------------------------------

ROYAL = ["As", "Ks", "Qs", "Js", "Ts"]
WHEEL = ["Ah", "2d", "3c", "4s", "5h"]
SIX_HIGH = ["2h", "3d", "4c", "5s", "6h"]


def test_bl6_hand_k_meets_hand_k_and_more_pairs_win() -> None:
    # Royal flush beats quads; the wheel loses to a six-high straight; kickers decide pairs of nines.
    hands0 = [ROYAL, WHEEL, ["9h", "9d", "Kc", "7c", "3s"]]
    hands1 = [["8c", "8d", "8h", "8s", "2c"], SIX_HIGH, ["9c", "9s", "Kd", "7d", "2s"]]
    state = play_scripted(hands0, hands1)
    assert result(state).pairs == (0, 1, 0)
    assert ENGINE.outcome(state)["winner"] == 0
    assert ENGINE.outcome(state)["scores"] == [2, 1]
    names = [[h["name"] for h in seat] for seat in ENGINE.outcome(state)["hands"]]
    assert names == [["Royal Flush", "Straight", "Pair"], ["Four of a Kind", "Straight", "Pair"]]


def test_bl6_equal_hands_draw_and_one_win_with_two_draws_wins() -> None:
    hands0 = [["Ah", "Kh", "9h", "7h", "3h"], ["Qc", "Qd", "8c", "6d", "4c"], ["Tc", "Td", "Th", "2c", "2d"]]
    hands1 = [["As", "Ks", "9s", "7s", "3s"], ["Qh", "Qs", "8d", "6c", "4d"], ["5c", "5d", "5h", "3c", "3d"]]
    state = play_scripted(hands0, hands1)
    assert result(state).pairs == (None, None, 0)
    assert ENGINE.outcome(state)["winner"] == 0 and ENGINE.outcome(state)["scores"] == [1, 0]


# --- BL-7 advanced scoring --------------------------------------------------------------


def test_bl7_hand_points_win_bonus_and_the_no_pair_penalty() -> None:
    hands0 = [["2c", "4d", "6h", "8s", "Tc"], ["3c", "5d", "7h", "9s", "Jc"], ["2d", "4h", "6s", "8c", "Qd"]]
    hands1 = [ROYAL, ["Kh", "Kd", "Kc", "4c", "4s"], ["9h", "9d", "5c", "5s", "Ac"]]
    state = play_scripted(hands0, hands1, ADVANCED)
    res = result(state)
    assert res.won == (0, 3)
    # Seat 0: three No Pair (-1 each) and -1 more; seat 1: 5 + 2 + 0 and +4 for all three.
    assert res.points == (-4, 11)
    assert ENGINE.outcome(state)["scores"] == [-4, 11] and ENGINE.outcome(state)["winner"] == 1
    assert ENGINE.outcome(state)["games"][0]["breakdown"] == [
        {"hands": [-1, -1, -1], "bonus": 0, "no_pair_penalty": -1, "total": -4},
        {"hands": [5, 2, 0], "bonus": 4, "total": 11, "no_pair_penalty": 0},
    ]


TWO_WON = [["2c", "2d", "6h", "8s", "Tc"], ["3c", "3d", "7h", "9s", "Jc"], ["4c", "5d", "6s", "8c", "Qd"]]
TWO_LOST = [["Ac", "4d", "5h", "7s", "9c"], ["Ad", "4h", "5s", "7c", "9d"], ["Kc", "Kd", "5c", "7d", "9h"]]


def test_bl7_winning_two_scores_three_and_the_match_goes_on_below_the_target() -> None:
    state = play_scripted(TWO_WON, TWO_LOST, ADVANCED)
    assert state.results[0].won == (2, 1) and state.results[0].points == (-1 + 3, -1 - 1 + 0)
    assert state.totals == (2, -2)
    assert ENGINE.outcome(state) is None
    # The next game is dealt at once, from the derived seed, with seat 1 first.
    assert state.game == 1 and state.first == 1 and ENGINE.current_player(state) == 1
    deck = shuffled(BLOCKS, derive_seed(0, "game", 1))
    assert state.supplies == (tuple(deck[15:30]), tuple(deck[:15]))
    view = ENGINE.view(state, 0)
    assert view.last_result is not None
    assert view.scores == (2, -2) and view.last_result.points == (2, -2)


def test_bl7_match_to_eleven_needs_more() -> None:
    hands0 = [["2c", "4d", "6h", "8s", "Tc"], ["3c", "5d", "7h", "9s", "Jc"], ["2d", "4h", "6s", "8c", "Qd"]]
    hands1 = [["Ah", "Ad", "5c", "5s", "9c"], ["Kh", "Kd", "Kc", "4c", "4s"], ["9h", "9d", "7c", "7s", "Ac"]]
    seven = play_scripted(hands0, hands1, ADVANCED)
    eleven = play_scripted(hands0, hands1, {"scoring": "advanced", "target": 11})
    assert seven.totals == eleven.totals == (-4, 6)
    assert seven.phase == eleven.phase == "build"  # 6 < 7: both matches go on
    assert ENGINE.view(eleven, None).config == {"scoring": "advanced", "target": 11}


# --- BL-8 tie replay --------------------------------------------------------------------


def test_bl8_a_basic_game_that_ends_equal_waits_for_a_tie_replay() -> None:
    hands0 = [ROYAL, WHEEL, ["Kh", "Jh", "9h", "7h", "4h"]]
    hands1 = [["8c", "8d", "8h", "8s", "2c"], SIX_HIGH, ["Kd", "Jd", "9d", "7d", "4d"]]
    state = play_scripted(hands0, hands1)
    assert result(state).pairs == (0, 1, None) and result(state).winner is None
    assert ENGINE.current_player(state) == TABLE_SEAT and ENGINE.outcome(state) is None
    assert [str(a) for a in ENGINE.legal_actions(state)] == ["tie-replay"]
    assert ENGINE.view(state, 0).legal == () and ENGINE.view(state, 0).phase == "tie-replay"
    with pytest.raises(IllegalAction, match="tie-replay game has not started"):
        ENGINE.apply(state, "place 0,0")
    replay = ENGINE.apply(state, "tie-replay")
    assert replay.tie_replay and replay.game == 1 and ENGINE.current_player(replay) == 1
    assert replay.hands == (((), (), ()), ((), (), ()))
    with pytest.raises(IllegalAction, match="only possible after a game or match that ended equal"):
        ENGINE.apply(replay, "tie-replay")
    last = ENGINE.view(replay, None).last_result
    assert last is not None and last.winner is None


def test_bl8_an_advanced_match_equal_at_the_target_is_decided_by_a_tie_replay() -> None:
    hands0 = [ROYAL, ["2c", "2d", "2h", "2s", "3c"], ["4h", "6h", "8h", "Th", "Qh"]]
    hands1 = [["5c", "6c", "7c", "8c", "9c"], ["3s", "4s", "5s", "6s", "7s"], ["4d", "6d", "8d", "Td", "Qd"]]
    state = play_scripted(hands0, hands1, ADVANCED)
    assert result(state).pairs == (0, 1, None)
    assert state.totals == (9, 9) and state.phase == "tie-replay"
    state = ENGINE.apply(state, "tie-replay")
    rng = random.Random(8)
    while state.phase not in ("over", "tie-replay"):
        state = ENGINE.apply(state, rng.choice(ENGINE.legal_actions(state)))
    # The tie replay decides the match whatever the target: its points break the tie.
    assert state.results[-1].tie_replay
    if state.phase == "over":
        outcome = ENGINE.outcome(state)
        assert outcome["scores"][outcome["winner"]] > outcome["scores"][1 - outcome["winner"]]
    else:
        assert state.totals[0] == state.totals[1]


# --- actions and errors -----------------------------------------------------------------


@pytest.mark.parametrize("text", ["place 3,1", "take 0,7", "hand 2", "keep Td", "keep X1", "tie-replay"])
def test_action_texts_round_trip(text: Any) -> None:
    assert str(ENGINE.parse_action(text)) == text


@pytest.mark.parametrize("text", ["", "place", "place 3", "pass", "hand one", "keep", 7])
def test_unreadable_actions_are_refused(text: Any) -> None:
    with pytest.raises(IllegalAction):
        ENGINE.apply(ENGINE.initial_state(None, 0), text)


def test_nothing_is_legal_once_the_game_is_over() -> None:
    losing = [["2c", "4d", "6d", "8s", "Tc"], ["3h", "5d", "7h", "9s", "Jc"], ["7c", "8d", "Qh", "Jd", "Kd"]]
    state = play_scripted([ROYAL, WHEEL, SIX_HIGH], losing)
    assert ENGINE.current_player(state) is None and ENGINE.legal_actions(state) == []
    with pytest.raises(IllegalAction, match="the game is over"):
        ENGINE.apply(state, "take 0,0")


# --- LP-3 hidden information ------------------------------------------------------------


def test_lp3_views_hide_faces_supplies_and_the_seed() -> None:
    state = ENGINE.initial_state(None, 987654321)
    for _ in range(7):
        state = ENGINE.apply(state, ENGINE.legal_actions(state)[0])
    spectator = ENGINE.view(state, None)
    assert ENGINE.view(state, TABLE_SEAT) == spectator
    assert all(place.face is None for place in spectator.pyramid)
    assert spectator.next_block is None and spectator.legal == ()
    assert spectator.supplies == (BlocksSupply(count=11), BlocksSupply(count=12))
    assert spectator.general_supply == BlocksSupply(count=24)
    assert not spectator.omniscient
    for seat in (0, 1):
        view = ENGINE.view(state, seat)
        faces = [p.face for p in view.pyramid if p.filled]
        placers = [p.placer for p in view.pyramid if p.filled]
        assert all(
            (face is not None) == (placer == seat) for face, placer in zip(faces, placers, strict=True)
        )
        assert "987654321" not in repr(view) and "seed" not in repr(view)
        assert "987654321" not in repr(view.data()) and "seed" not in repr(view.data())
    with pytest.raises(ValueError, match="seat must be"):
        ENGINE.view(state, 2)


def test_lp3_the_full_view_shows_everything_for_replays() -> None:
    state = ENGINE.initial_state(None, 77)
    state = ENGINE.apply(state, "place 0,0")
    full = ENGINE.full_view(state)
    assert full.seat is None and full.omniscient
    assert full.pyramid[0].face == ENGINE.initial_state(None, 77).supplies[0][0]
    assert full.supplies[1].blocks == state.supplies[1]
    assert full.general_supply.blocks == state.general
    assert full.next_block == state.supplies[1][0]
    assert full.legal == tuple(str(a) for a in ENGINE.legal_actions(state))
    assert "seed" not in repr(full) and "seed" not in repr(full.data())


def typed_parts(value: Any, where: str) -> Iterator[str]:
    """Every path inside ``value`` that is not a frozen dataclass, a tuple or a plain scalar."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if not type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
            yield where
        for field in dataclasses.fields(value):
            if field.name != "config" or where != "view":
                yield from typed_parts(getattr(value, field.name), f"{where}.{field.name}")
    elif isinstance(value, tuple):
        for k, item in enumerate(value):
            yield from typed_parts(item, f"{where}[{k}]")
    elif not isinstance(value, (str, int, type(None))):
        yield where


def test_lp3_views_are_frozen_typed_values_with_json_ready_data() -> None:
    hands0 = [ROYAL, WHEEL, ["9h", "9d", "Kc", "7c", "3s"]]
    hands1 = [["8c", "8d", "8h", "8s", "2c"], SIX_HIGH, ["9c", "9s", "Kd", "7d", "2s"]]
    built = build(ENGINE.initial_state(ADVANCED, 0, scripted_deck((["X1", *BLOCKS[1:15]], BLOCKS[26:41]))))
    joker = ENGINE.apply(built, "take 4,3")
    states = [
        ENGINE.initial_state(ADVANCED, 0),
        built,
        joker,  # blocks turned over
        ENGINE.apply(joker, f"keep {joker.revealed[0]}"),  # holding a block kept
        ENGINE.apply(build(ENGINE.initial_state(None, 3)), "take 4,1"),  # holding a block taken
        play_scripted(TWO_WON, TWO_LOST, ADVANCED),  # a showdown scored, the next game dealt
        play_scripted(hands0, hands1),  # over
    ]
    assert [state.phase for state in states] == ["build", "take", "joker", "hand", "hand", "build", "over"]
    for state in states:
        for view in (ENGINE.view(state, 0), ENGINE.view(state, None), ENGINE.full_view(state)):
            assert isinstance(view, BlocksView) and isinstance(view.config, Mapping)
            assert list(typed_parts(view, "view")) == []
            with pytest.raises(dataclasses.FrozenInstanceError):
                view.phase = "over"  # type: ignore[misc]
            assert json.loads(json.dumps(view.data()))["phase"] == view.phase
    scored = ENGINE.view(states[-2], None).last_result
    assert scored is not None and scored.breakdown is not None and scored.hands[0][0].value > 0
    over = ENGINE.view(states[-1], None).outcome
    assert over is not None and over.winner == 0 and over.games[-1].hands == over.hands
