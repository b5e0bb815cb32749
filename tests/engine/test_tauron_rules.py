"""One test (or a few) per Tauron Hold-Em rule: TH-1 .. TH-6 with the Triad rules they
take over (TR-7, TR-8, TR-14, TR-15) and LP-1, LP-3 (RULES.md sections 5 and 6).

The hand ranking itself (TR-10 .. TR-13) is Triad's, tested in test_triad_hands.py; LP-4
is in test_tauron_bot.py. Most deals here are hand-built decks: ``deck_for`` puts the
given holes where the deal (one card at a time, left of the dealer first) sends them and
the board right under them.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from games.engine import TABLE_SEAT, IllegalAction, Move, get_engine, tauron
from games.engine.rng import shuffled
from games.engine.tauron import DECK, TauronEngine, TauronState, TauronView
from games.engine.triad_hands import best_pyramid_name, hand_value, pyramid_split, sort_cards

ENGINE: TauronEngine = tauron.ENGINE

BOARD = "G3 O2 P1 G3 O1 P2"
"""Shared cards that make no pyramid of their own worth much: the holes decide."""
STRONG = "P3 X"  # with BOARD: a Full Pyramid with the Capstone as best kicker
MEDIUM = "G2 P1"  # a Perfect Green First-Level Pyramid
WEAK = "O2 O2"  # an ordinary First-Level Pyramid, the lowest this board allows
TIE_A = "G3 G3"  # two Full Pyramids with equal kickers: they tie
TIE_B = "O3 O3"
CHECK_ROUND_2 = ("check", "check")


def deck_for(holes: Sequence[str], board: str = BOARD, dealer: int = 0) -> list[str]:
    """The 55-card deck that deals ``holes[seat]`` to each seat and then ``board``."""
    cards = [hole.split() for hole in holes]
    order = [(dealer + step) % len(cards) for step in range(1, len(cards) + 1)]
    named = [cards[seat][i] for i in range(2) for seat in order] + board.split()
    assert not Counter(named) - Counter(DECK), "more of a card than the deck holds"
    return named + sort_cards((Counter(DECK) - Counter(named)).elements())


def start(holes: Sequence[str], board: str = BOARD, **config: object) -> TauronState:
    config.setdefault("players", len(holes))
    return ENGINE.initial_state(config, seed=5, deck=deck_for(holes, board))


def play(state: TauronState, *actions: str) -> TauronState:
    for action in actions:
        state = ENGINE.apply(state, action)
    return state


def checked_through(state: TauronState, rounds: int = 4) -> TauronState:
    """Every player still in checks ``rounds`` betting rounds."""
    for _ in range(rounds):
        while state.phase == "bet" and "check" in legal(state):
            before = state.round_no
            state = play(state, "check")
            if state.round_no != before:
                break
    return state


def legal(state: TauronState) -> list[str]:
    return [str(action) for action in ENGINE.legal_actions(state)]


def refused(state: TauronState, action: str, *words: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, action)
    for word in words:
        assert word in str(caught.value), str(caught.value)


def test_the_engine_is_registered() -> None:
    assert get_engine("tauron") is ENGINE
    assert (ENGINE.name, ENGINE.version, ENGINE.min_players, ENGINE.max_players) == ("tauron", 1, 2, 6)


# ---- TH-1: the table ------------------------------------------------------------------


def test_th1_ante_button_and_busted_seats() -> None:
    """TH-1 / TR-4: everyone antes; the button moves one seat left after each hand, past
    busted seats; a stack shorter than the ante lowers it for everyone (no all-ins)."""
    state = start([WEAK, STRONG, MEDIUM], stack=5, ante=3)
    assert (state.dealer, state.chips, state.pot, state.order) == (0, (2, 2, 2), 9, (1, 2, 0))
    state = play(state, "bet 2", "fold", "call")
    state = checked_through(state, 3)
    state = play(state, "show", "show")
    assert state.last is not None and state.last.winners == (1,)
    # Hand 2: seat 0 is out; the button skips to seat 1; seat 2's 2 chips cap the ante at 2.
    assert (state.hand_no, state.dealer, state.order) == (2, 1, (2, 1))
    assert (state.chips, state.pot) == ((0, 11, 0), 4)
    view = ENGINE.view(state, None)
    assert view.seats[0].out and not view.seats[0].in_deal and view.dealer == 1


# ---- TH-2: the deal ------------------------------------------------------------------


def test_th2_two_hole_cards_one_at_a_time_then_the_board_in_three_stages() -> None:
    """TH-2: two cards each face down, one at a time from the left of the dealer; then
    three, two and one shared cards face up, each stage when the round before it ends."""
    deck = shuffled(DECK, 99)
    state = ENGINE.initial_state({"players": 3}, seed=9, deck=deck)
    assert state.holes == ((deck[2], deck[5]), (deck[0], deck[3]), (deck[1], deck[4]))
    assert state.board == () and state.deck == tuple(deck[6:])
    stages: list[tuple[int, tuple[str, ...]]] = []
    for _ in range(4):
        stages.append((ENGINE.view(state, None).stage, state.board))
        state = play(state, "check", "check", "check")
    assert stages == [
        (0, ()),
        (3, tuple(deck[6:9])),
        (5, tuple(deck[6:11])),
        (6, tuple(deck[6:12])),
    ]
    assert state.phase == "showdown" and state.board == tuple(deck[6:12]) and len(state.deck) == 55 - 12


def test_th2_no_draw_and_no_discard() -> None:
    state = start([WEAK, STRONG])
    refused(state, "discard -", "unknown action")
    assert all(not text.startswith("discard") for text in legal(state))


def test_th4_a_hand_is_named_with_the_board_so_far() -> None:
    """TH-4: a seat's view names the best pyramid of its hole with the shared cards out,
    whatever their number (Triad values only whole hands of 6 or 8)."""
    state = start([MEDIUM, WEAK])
    assert ENGINE.view(state, 0).seats[0].hand_name == "No Pyramid"
    state = play(state, "check", "check", "check", "check")
    assert ENGINE.view(state, 0).seats[0].hand_name == "Perfect Green First-Level Pyramid"  # G2 G3 G3
    with pytest.raises(ValueError, match="at most 8"):
        best_pyramid_name(["O3"] * 9)


# ---- TH-3 / TR-8: betting -----------------------------------------------------------------


def test_th3_four_rounds_each_opened_by_the_first_player_still_in() -> None:
    """TH-3: a round after the hole cards and after each stage; the player left of the
    dealer opens each (TR-8), or the next one still in."""
    state = start([WEAK, STRONG, MEDIUM])
    assert ENGINE.current_player(state) == 1
    state = play(state, "fold", "check", "check")
    assert (state.round_no, ENGINE.current_player(state), len(state.board)) == (1, 2, 3)
    state = play(state, "bet 2", "call")
    assert (state.round_no, ENGINE.current_player(state), state.pot) == (2, 2, 7)
    state = play(state, *CHECK_ROUND_2, *CHECK_ROUND_2)
    assert state.phase == "showdown" and ENGINE.current_player(state) == 2


def test_tr8_check_bet_raise_call() -> None:
    """TR-8: the round ends when everyone still in has matched the highest bet."""
    state = start([WEAK, MEDIUM])
    assert ENGINE.current_player(state) == 1 and legal(state)[0] == "check"
    state = play(state, "bet 2")
    assert legal(state)[0] == "call" and "check" not in legal(state)
    refused(state, "check", "cannot check", "2 chips to call")
    refused(state, "bet 1", "already a bet")
    state = play(state, "raise 3")  # 2 to call + 3
    assert (state.pot, state.chips) == (9, (94, 97))
    state = play(state, "call")
    assert (state.round_no, state.pot, state.chips, len(state.board)) == (1, 12, (94, 94), 3)
    refused(state, "raise 1", "no bet to raise")
    refused(state, "call", "nothing to call")


def test_tr8_pot_limit_is_the_default_max_bet() -> None:
    """TR-8 (TH-3): without max_bet a bet may be at most the pot; a raise the pot after the call."""
    state = start([WEAK, MEDIUM])
    assert [a for a in legal(state) if a.startswith("bet")] == ["bet 1", "bet 2"]
    refused(state, "bet 3", "may not exceed 2", "pot limit")
    state = play(state, "bet 2")
    assert [a for a in legal(state) if a.startswith("raise")][-1] == "raise 6"
    view = ENGINE.view(state, 0)
    assert (view.to_call, view.min_bet, view.max_bet) == (2, 1, 6)
    assert view.moves[0] == Move("call", "call")
    assert view.moves[1] == Move("raise 1", "raise", amount=1)
    assert view.moves[-1] == Move("fold", "fold")


def test_tr8_max_bet_config() -> None:
    state = start([WEAK, MEDIUM], max_bet=5)
    refused(state, "bet 6", "may not exceed 5", "max_bet")
    state = play(state, "bet 5", "raise 5")
    assert state.pot == 2 + 5 + 10


def test_tr8_max_raises_per_round() -> None:
    """TH-3: at most 3 raises a round by default; the count starts again each round."""
    state = play(start([WEAK, MEDIUM]), "bet 1", "raise 1", "raise 1", "raise 1")
    assert legal(state) == ["call", "fold"]
    refused(state, "raise 1", "no more raises", "limit is 3")
    state = play(state, "call", "bet 1", "raise 1")
    assert any(text.startswith("raise") for text in legal(state))
    one = play(start([WEAK, MEDIUM], max_raises=1), "bet 1", "raise 1")
    assert legal(one) == ["call", "fold"]


def test_tr8_no_bet_beyond_what_every_player_still_in_can_match() -> None:
    """TR-8: the short stack caps bets (no all-ins, no side pots); a folded one no longer does."""
    state = replace(start([WEAK, MEDIUM, STRONG], max_bet=20), chips=(3, 50, 50))
    refused(state, "bet 4", "may not exceed 3", "what every player still in can match")
    state = play(state, "bet 3")
    assert legal(state) == ["call", "fold"]  # no raise: seat 0 could not match it
    state = play(state, "call", "fold", "bet 20")
    assert state.chips == (3, 27, 47)


def test_tr8_fold_at_any_turn_and_the_last_player_wins_unseen() -> None:
    """TR-8: folding is always possible on one's turn; if all but one fold, that one wins
    the pot unseen: no card of theirs is shown."""
    state = start([WEAK, MEDIUM, STRONG])
    assert legal(state)[-1] == "fold"  # even when checking is free
    state = play(state, "bet 1", "fold", "fold")
    assert state.last is not None
    assert (state.last.winners, state.last.unseen, state.last.shown) == ((1,), True, ())
    assert state.chips == (98, 101, 98) and state.hand_no == 2  # the next ante is in
    later = play(start([WEAK, MEDIUM]), *CHECK_ROUND_2, *CHECK_ROUND_2, "check", "fold")
    assert later.last is not None and later.last.winners == (1,) and later.last.unseen
    assert later.last.board == tuple(BOARD.split()[:5])


# ---- TH-4, TH-5: the showdown ------------------------------------------------------------


def test_th4_the_hand_is_the_hole_with_the_six_shared_cards() -> None:
    """TH-4: each hand is valued as Triad values eight cards; the best shown hand wins."""
    state = checked_through(start([WEAK, STRONG]))
    assert state.phase == "showdown" and legal(state) == ["show", "fold"]
    assert ENGINE.value(state, 1) == hand_value([*STRONG.split(), *BOARD.split()])
    state = play(state, "show", "show")
    assert state.last is not None and state.last.winners == (1,) and state.chips == (98, 100)
    shown = state.last.shown
    assert [(hand.seat, hand.hole, hand.name) for hand in shown] == [
        (1, ("P3", "X"), "Full Pyramid"),
        (0, ("O2", "O2"), "First-Level Pyramid"),
    ]
    pyramid, kickers = pyramid_split([*STRONG.split(), *BOARD.split()])
    assert (list(shown[0].pyramid), list(shown[0].kickers)) == (pyramid, kickers)
    assert state.last.board == tuple(BOARD.split())


def test_th5_showdown_in_deal_order_and_a_folded_hand_is_never_shown() -> None:
    """TH-5 / TR-7: in deal order each player still in shows or folds; the stronger hand
    may fold, and then the weaker shown one wins and the folded one stays hidden."""
    state = checked_through(start([STRONG, WEAK]))
    assert ENGINE.current_player(state) == 1
    state = play(state, "show")
    view = ENGINE.view(state, None)
    assert view.seats[1].hole == ("O2", "O2") and view.seats[0].hole is None
    assert view.seats[1].hand_name == "First-Level Pyramid"
    state = play(state, "fold")
    assert state.last is not None and state.last.winners == (1,) and not state.last.unseen
    result = ENGINE.view(state, 1).last_result
    assert result is not None and [hand.seat for hand in result.shown] == [1] and result.folded == (0,)
    assert "X" not in json.dumps(ENGINE.view(state, 1).data())


def test_th5_a_tie_holds_the_pot_for_a_tie_replay_hand() -> None:
    """TH-5 / TR-14: equal after all kickers: the pot is held and the tied players alone
    play a fresh hand (new holes, all six shared cards at once), no ante, no betting."""
    state = play(start([WEAK, TIE_A, TIE_B]), "bet 1", "call", "fold")
    state = checked_through(state, 3)
    state = play(state, "show", "show")
    assert ENGINE.value(state, 1) == ENGINE.value(state, 2)
    assert (state.phase, ENGINE.current_player(state)) == ("tie-replay", TABLE_SEAT)
    assert legal(state) == ["tie-replay"] and ENGINE.view(state, 1).moves == ()
    assert (state.pot, state.held, state.chips, state.tied) == (0, 5, (99, 98, 98), (1, 2))
    spectator = ENGINE.view(state, None)
    assert spectator.last_result is not None and spectator.last_result.tie
    refused(state, "show", "seat 1 and seat 2 are tied", "tie-replay")
    state = play(state, "tie-replay")
    assert (state.kind, state.order, state.phase, state.pot, state.chips) == (
        "tie-replay",
        (1, 2),
        "showdown",
        0,
        (99, 98, 98),
    )
    assert state.holes[0] == () and len(state.board) == 6 and len(state.deck) == 55 - 4 - 6
    values = [ENGINE.value(state, seat) for seat in (1, 2)]
    assert values[0] != values[1], "seed 5 deals no second tie"
    state = play(state, "show", "show")
    winner = 1 if values[0] > values[1] else 2
    assert state.last is not None and state.last.winners == (winner,) and state.held == 0
    assert state.last.deal == "tie-replay" and state.last.pot == 5
    assert state.chips[winner] == 98 + 5 - 1  # the held pot, less the next hand's ante
    assert (state.hand_no, state.kind, state.order) == (2, "hand", (2, 0, 1))


def test_th5_tie_replays_repeat_while_tied_and_a_fold_settles_one() -> None:
    state = play(start([WEAK, TIE_A, TIE_B]), "check", "check", "fold")
    state = play(checked_through(state, 3), "show", "show", "tie-replay")
    first_deal = state.holes
    state = replace(state, holes=((), tuple(TIE_A.split()), tuple(TIE_B.split())), board=tuple(BOARD.split()))
    state = play(state, "show", "show")
    assert (state.phase, state.held, state.replays) == ("tie-replay", 3, 1)
    state = play(state, "tie-replay")
    assert state.holes != first_deal  # each replay has a deal of its own
    state = play(state, "fold")
    assert state.last is not None and state.last.winners == (2,) and state.chips[2] == 99 + 3 - 1


# ---- TR-15: the match --------------------------------------------------------------------


def test_tr15_the_match_ends_after_the_last_hand_and_ranks_by_chips() -> None:
    state = play(start([WEAK, MEDIUM, STRONG], hands=1), "bet 1", "call", "fold")
    state = play(checked_through(state, 3), "show", "show")
    assert ENGINE.current_player(state) is None and ENGINE.legal_actions(state) == []
    assert ENGINE.outcome(state) == {
        "winner": 2,
        "ranking": [2, 0, 1],
        "places": [2, 3, 1],
        "chips": [99, 98, 103],
        "hands": 1,
    }
    view = ENGINE.view(state, 0)
    assert view.phase == "over" and view.outcome is not None and view.outcome.ranking == (2, 0, 1)
    refused(state, "check", "match is over")


def test_tr15_the_match_ends_when_one_player_holds_every_chip() -> None:
    state = play(checked_through(start([WEAK, STRONG], stack=2, ante=2)), "show", "show")
    outcome = ENGINE.outcome(state)
    assert outcome is not None and (outcome["winner"], outcome["chips"], outcome["hands"]) == (1, [0, 4], 1)


def test_tr15_equal_stacks_play_a_place_tie_replay() -> None:
    """TR-15: players equal in chips at the end play a tie-replay hand for the place."""
    state = play(start([WEAK, MEDIUM, STRONG], hands=1), "fold", "fold")
    assert state.chips == (102, 99, 99) and ENGINE.outcome(state) is None
    assert (state.phase, ENGINE.current_player(state), state.tied) == ("place-tie", TABLE_SEAT, (1, 2))
    state = play(state, "tie-replay")
    assert (state.kind, state.order, state.phase, len(state.board)) == ("place-tie", (1, 2), "showdown", 6)
    state = play(state, "show", "fold")
    assert ENGINE.outcome(state) == {
        "winner": 0,
        "ranking": [0, 1, 2],
        "places": [1, 2, 3],
        "chips": [102, 99, 99],
        "hands": 1,
    }


# ---- TH-6: timeouts and the bot -------------------------------------------------------------


def test_th6_a_timeout_checks_if_it_may_shows_at_the_showdown_else_folds() -> None:
    """TH-6 / LP-1: check if possible, else fold; at the showdown 'show' is the no-cost move."""
    state = start([WEAK, STRONG])
    assert ENGINE.timeout_action(ENGINE.view(state, 1), 0) == "check"
    state = play(state, "bet 2")
    assert ENGINE.timeout_action(ENGINE.view(state, 0), 0) == "fold"
    state = checked_through(play(state, "call"), 3)
    assert ENGINE.timeout_action(ENGINE.view(state, 1), 0) == "show"
    with pytest.raises(ValueError, match="no move"):
        ENGINE.timeout_action(ENGINE.view(state, 0), 0)


def test_th6_the_bot_action_is_the_bots() -> None:
    from games.engine.tauron_bot import choose

    view = ENGINE.view(start([WEAK, STRONG]), 1)
    assert ENGINE.bot_action(view, 7) == choose(view, 7)


# ---- LP-3: hidden information ----------------------------------------------------------------


def test_lp3_a_seat_sees_its_own_hole_and_the_board_only() -> None:
    state = play(start([WEAK, STRONG]), "check", "check")
    mine = ENGINE.view(state, 0)
    assert isinstance(mine, TauronView) and mine.hole == ("O2", "O2") and mine.seats[1].hole is None
    assert mine.board == tuple(BOARD.split()[:3]) and mine.seats[1].card_count == 2 and mine.moves == ()
    assert mine.seats[0].hand_name == "No Pyramid"  # O2 O2 with G3 O2 P1: one third-level card
    assert ENGINE.view(state, 1).seats[1].hand_name == "First-Level Pyramid"  # P3 X with G3 O2 P1
    assert ENGINE.view(state, 1).legal[0] == "check"
    for viewer in (None, TABLE_SEAT):
        spectator = ENGINE.view(state, viewer)
        assert spectator.seat is None and spectator.hole is None
        assert all(entry.hole is None and entry.hand_name is None for entry in spectator.seats)
    text = json.dumps(mine.data())
    assert "seed" not in text and '"X"' not in text and mine.deck is None
    with pytest.raises(ValueError, match="seat must be"):
        ENGINE.view(state, 2)


def test_lp3_full_view_for_replays_shows_everything() -> None:
    state = play(start([WEAK, STRONG, MEDIUM]), "fold")
    full = ENGINE.full_view(state)
    assert full.omniscient and full.seats[1].mucked == ("P3", "X") and full.seats[1].hole == ()
    assert full.seats[2].hole == ("G2", "P1") and full.deck == state.deck
    assert ENGINE.view(state, 1).seats[1].hole == ()  # folded: nothing left, even to itself
    assert ENGINE.view(state, 2).seats[1].hole is None
    assert all(entry.mucked is None for entry in ENGINE.view(state, 2).seats)


def _values(value: Any) -> list[Any]:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [getattr(value, field.name) for field in dataclasses.fields(value)]
    return list(value) if isinstance(value, tuple) else []


def test_views_are_frozen_typed_values() -> None:
    """A view is a frozen dataclass of frozen dataclasses and tuples; only ``config`` is a mapping."""
    state = play(checked_through(start([WEAK, STRONG])), "show", "show")
    view = ENGINE.view(state, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.pot = 3  # type: ignore[misc]
    pending = [getattr(view, field.name) for field in dataclasses.fields(view) if field.name != "config"]
    while pending:
        value = pending.pop()
        assert not isinstance(value, list | dict | set), value
        pending += _values(value)
    assert dict(view.config) == ENGINE.normalize_config({"players": 2})


# ---- config, seeds, decks and action texts ----------------------------------------------


@pytest.mark.parametrize(
    ("config", "words"),
    [
        ({"players": 7}, "'players'"),
        ({"players": 1}, "'players'"),
        ({"cards": 8}, "unknown tauron config"),
        ({"face_up": True}, "unknown tauron config"),
        ({"no_discard": True}, "unknown tauron config"),
        ({"ante": 5, "stack": 4}, "'ante'"),
        ({"ante": 0}, "'ante'"),
        ({"stack": 10_001}, "'stack'"),
        ({"max_bet": 0}, "'max_bet'"),
        ({"max_raises": 11}, "'max_raises'"),
        ({"hands": 0}, "'hands'"),
        ({"hands": True}, "'hands'"),
    ],
)
def test_bad_configs_are_named(config: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        ENGINE.initial_state(config)


def test_the_default_config() -> None:
    assert ENGINE.normalize_config(None) == {
        "players": 2,
        "ante": 1,
        "stack": 100,
        "max_bet": None,
        "max_raises": 3,
        "hands": 12,
    }


def test_bad_seeds_and_decks() -> None:
    with pytest.raises(ValueError, match="seed"):
        ENGINE.initial_state(None, seed=-1)
    with pytest.raises(ValueError, match="missing"):
        ENGINE.initial_state(None, seed=1, deck=list(DECK)[1:])
    with pytest.raises(ValueError, match="unknown"):
        ENGINE.initial_state(None, seed=1, deck=["Ah", *list(DECK)[1:]])


def test_action_texts() -> None:
    assert str(ENGINE.parse_action("RAISE 4")) == "raise 4"
    assert str(ENGINE.parse_action("  bet   7 ")) == "bet 7"
    assert ENGINE.parse_action("tie-replay").kind == "tie-replay"
    for bad in ("", "   ", "bet", "bet x", "bet 0", "bet -1", "bet 1 2", "bet \u0663", "bet 1" + "0" * 20):
        with pytest.raises(IllegalAction, match="bet"):
            ENGINE.parse_action(bad)
    for bad in ("discard -", "shove", "show now", "check 3"):
        with pytest.raises(IllegalAction):
            ENGINE.parse_action(bad)
    with pytest.raises(IllegalAction, match="text"):
        ENGINE.parse_action(3)  # type: ignore[arg-type]
    state = start([WEAK, STRONG])
    assert ENGINE.apply(state, ENGINE.legal_actions(state)[1]) == ENGINE.apply(state, "bet 1")
    refused(state, "show", "betting round")
    refused(state, "tie-replay", "table's action")
    state = checked_through(state)
    refused(state, "check", "showdown")


@pytest.mark.parametrize(
    ("fields", "text"),
    [
        ({"action": "bet", "amount": "5"}, "bet 5"),
        ({"action": "bet", "amount": 5}, "bet 5"),
        ({"action": "RAISE", "amount": " 12 "}, "raise 12"),
        ({"action": "check"}, "check"),
        ({"action": "check", "amount": ""}, "check"),
        ({"action": "bet 3"}, "bet 3"),
        ({"action": "fold", "amount": None}, "fold"),
    ],
)
def test_actions_from_form_fields(fields: dict[str, object], text: str) -> None:
    assert str(ENGINE.action_from_fields(fields)) == text


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"action": ""},
        {"action": 3},
        {"action": "bet"},
        {"action": "bet", "amount": ""},
        {"action": "bet", "amount": "five"},
        {"action": "bet", "amount": "0"},
        {"action": "bet", "amount": -2},
        {"action": "bet", "amount": True},
        {"action": "bet", "amount": 2.5},
        {"action": "bet", "amount": "\uff15"},
        {"action": "bet", "amount": 10**12},
        {"action": "check", "amount": "3"},
        {"action": "bet 2", "amount": "3"},
        {"action": None, "amount": "3"},
    ],
)
def test_malformed_form_fields_are_illegal(fields: dict[str, object]) -> None:
    with pytest.raises(IllegalAction):
        ENGINE.action_from_fields(fields)
