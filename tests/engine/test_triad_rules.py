"""One test (or a few) per Triad rule: TR-4 .. TR-9, TR-14, TR-15 and LP-3 (RULES.md).

TR-1..TR-3 and TR-10..TR-13 (the deck and the hand ranking) are in test_triad_hands.py,
LP-4 in test_triad_bot.py. Most deals here are hand-built decks: ``deck_for`` puts the
given hands where the deal (one card at a time, left of the dealer first) sends them.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import FrozenInstanceError, asdict, fields, is_dataclass, replace
from typing import Any

import pytest

from games.engine import TABLE_SEAT, IllegalAction, get_engine, triad
from games.engine.betting import MatchOutcome
from games.engine.rng import shuffled
from games.engine.triad import DECK, TriadEngine, TriadState, TriadView, hand_value
from games.engine.triad_hands import sort_cards

ENGINE: TriadEngine = triad.ENGINE
assert get_engine("triad") is ENGINE

STRONG = "P3 P3 P3 P2 P2 P1"  # perfect purple full
MEDIUM = "G3 G3 G3 G2 G2 O2"  # perfect green second-level
WEAK = "O3 G3 O2 P1 G1 O1"  # ordinary first-level
FULL_A = "P3 G3 O3 P2 G2 P1"  # two ordinary full pyramids: no kickers, so they tie
FULL_B = "O3 O3 G3 O2 O2 G1"


def deck_for(hands: Sequence[str], then: str = "", dealer: int = 0) -> list[str]:
    """The 55-card deck that deals ``hands[seat]`` to each seat, with ``then`` next on top."""
    cards = [hand.split() for hand in hands]
    order = [(dealer + step) % len(cards) for step in range(1, len(cards) + 1)]
    named = [cards[seat][i] for i in range(len(cards[0])) for seat in order] + then.split()
    assert not Counter(named) - Counter(DECK), "more of a card than the deck holds"
    return named + sort_cards((Counter(DECK) - Counter(named)).elements())


def fill(partial: Sequence[str], size: int, then: str = "") -> list[str]:
    """Complete each partial hand to ``size`` cards from what ``partial`` and ``then`` leave over."""
    pool = Counter(DECK) - Counter(" ".join([*partial, then]).split())
    spare = sort_cards(pool.elements())
    hands = []
    for hand in partial:
        cards = hand.split()
        while len(cards) < size:
            cards.append(spare.pop())
        hands.append(" ".join(cards))
    return hands


def start(deal: Sequence[str], then: str = "", **config: object) -> TriadState:
    config.setdefault("players", len(deal))
    return ENGINE.initial_state(config, seed=5, deck=deck_for(deal, then))


def play(state: TriadState, *actions: str) -> TriadState:
    for action in actions:
        state = ENGINE.apply(state, action)
    return state


def legal(state: TriadState) -> list[str]:
    return [str(action) for action in ENGINE.legal_actions(state)]


def refused(state: TriadState, action: str, *words: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, action)
    for word in words:
        assert word in str(caught.value), str(caught.value)


# ---- TR-4 .. TR-7: a hand ------------------------------------------------------


def test_tr4_ante_button_and_busted_seats() -> None:
    """TR-4: everyone antes; the button moves one seat left after each hand, past busted
    seats; a stack shorter than the ante lowers it for everyone (there are no all-ins)."""
    state = start([WEAK, STRONG, MEDIUM], players=3, stack=5, ante=3)
    assert (state.dealer, state.chips, state.pot) == (0, (2, 2, 2), 9)
    state = play(state, "bet 2", "fold", "call", "discard -", "discard -", "check", "check", "show", "show")
    assert state.last is not None and state.last.winners == (1,)
    # Hand 2: seat 0 is out; the button skips to seat 1; seat 2's 2 chips cap the ante at 2.
    assert (state.hand_no, state.dealer, state.order) == (2, 1, (2, 1))
    assert (state.chips, state.pot) == ((0, 11, 0), 4)
    assert ENGINE.view(state, None).seats[0].out is True


def test_tr5_deal_one_card_at_a_time_from_left_of_the_dealer() -> None:
    """TR-5: six cards each, one at a time, starting left of the dealer (seat 0 deals first)."""
    deck = shuffled(DECK, 99)
    state = ENGINE.initial_state({"players": 3}, seed=9, deck=deck)
    assert state.hands[1] == tuple(deck[0:18:3])
    assert state.hands[2] == tuple(deck[1:18:3])
    assert state.hands[0] == tuple(deck[2:18:3])
    assert state.deck == tuple(deck[18:])
    eight = ENGINE.initial_state({"players": 3, "cards": 8}, seed=9, deck=deck)
    assert [len(hand) for hand in eight.hands] == [8, 8, 8] and len(eight.deck) == 55 - 24


def test_tr6_betting_before_the_draw_and_the_draw_order() -> None:
    """TR-6: the first betting round comes before any discard; then each player, left of
    the dealer first and the dealer last, discards 0 to 4 cards and is dealt as many."""
    state = start([MEDIUM, WEAK], then="P1 P2 O3")
    assert state.phase == "bet"
    refused(state, "discard P1", "betting round")
    state = play(state, "check", "check")
    assert (state.phase, ENGINE.current_player(state)) == ("draw", 1)
    refused(state, "discard O3 G3 O2 G1 O1", "at most 4")
    refused(state, "discard P2", "does not hold P2")
    state = play(state, "discard G1 O1")
    assert Counter(state.hands[1]) == Counter(["O3", "G3", "O2", "P1", "P1", "P2"])
    assert ENGINE.current_player(state) == 0  # the dealer draws last
    state = play(state, "discard O2")
    assert Counter(state.hands[0]) == Counter(["G3", "G3", "G3", "G2", "G2", "O3"])
    assert ENGINE.view(state, None).seats[1].discarded == (2,)


def test_tr7_second_round_then_showdown_in_deal_order() -> None:
    """TR-7: a betting round after the draw; then each player, in deal order, shows or
    folds, and a folded hand is never shown."""
    state = play(start([STRONG, WEAK]), "check", "check", "discard -", "discard -")
    assert state.phase == "bet" and ENGINE.current_player(state) == 1
    state = play(state, "check", "check")
    assert state.phase == "showdown" and legal(state) == ["show", "fold"]
    state = play(state, "show")
    view = ENGINE.view(state, None)
    assert view.seats[1].cards == tuple(WEAK.split()) and view.seats[0].cards is None
    # The stronger hand folds anyway: the weaker shown hand wins, and the folded one stays hidden.
    state = play(state, "fold")
    assert (
        state.last is not None and state.last.winners == (1,) and state.chips == (98, 100)
    )  # after the next ante
    result = ENGINE.view(state, 1).last_result
    assert result is not None
    assert result.shown[0].seat == 1 and result.shown[0].name == "First-Level Pyramid"
    assert [entry.seat for entry in result.shown] == [1] and result.folded == (0,)
    assert "P3" not in json.dumps(asdict(result))


def test_tr7_best_shown_hand_wins() -> None:
    state = play(start([WEAK, STRONG]), "check", "check", "discard -", "discard -", "check", "check")
    state = play(state, "show", "show")
    assert state.last is not None and state.last.winners == (1,) and state.chips == (98, 100)
    result = ENGINE.view(state, None).last_result
    assert result is not None
    assert [(entry.seat, entry.name) for entry in result.shown] == [
        (1, "Perfect Purple Full Pyramid"),
        (0, "First-Level Pyramid"),
    ]


# ---- TR-8: betting ---------------------------------------------------------------


def test_tr8_check_bet_raise_call() -> None:
    """TR-8: the player left of the dealer opens; the round ends when all have matched."""
    state = start([WEAK, MEDIUM])
    assert ENGINE.current_player(state) == 1 and legal(state)[0] == "check"
    state = play(state, "bet 2")
    assert legal(state)[0] == "call" and "check" not in legal(state)
    refused(state, "check", "cannot check", "2 chips to call")
    state = play(state, "raise 3")  # 2 to call + 3
    assert (state.pot, state.chips) == (9, (94, 97))
    state = play(state, "call")
    assert (state.phase, state.pot, state.chips) == ("draw", 12, (94, 94))


def test_tr8_pot_limit_is_the_default_max_bet() -> None:
    """TR-8: without max_bet a bet may be at most the pot; a raise the pot after the call."""
    state = start([WEAK, MEDIUM])
    assert [a for a in legal(state) if a.startswith("bet")] == ["bet 1", "bet 2"]
    refused(state, "bet 3", "may not exceed 2", "pot limit")
    state = play(state, "bet 2")
    assert [a for a in legal(state) if a.startswith("raise")][-1] == "raise 6"
    view = ENGINE.view(state, 0)
    assert (view.to_call, view.min_bet, view.max_bet) == (2, 1, 6)


def test_tr8_max_bet_config() -> None:
    state = start([WEAK, MEDIUM], max_bet=5)
    refused(state, "bet 6", "may not exceed 5", "max_bet")
    state = play(state, "bet 5", "raise 5")
    assert state.pot == 2 + 5 + 10


def test_tr8_max_raises_per_round() -> None:
    state = start([WEAK, MEDIUM], max_raises=1)
    state = play(state, "bet 1", "raise 1")
    assert not [a for a in legal(state) if a.startswith("raise")]
    refused(state, "raise 1", "no more raises", "limit is 1")
    state = play(state, "call", "discard -", "discard -", "bet 1", "raise 1")  # the count starts again
    assert legal(state) == ["call", "fold"]


def test_tr8_no_bet_beyond_what_every_player_still_in_can_match() -> None:
    """TR-8: the short stack caps bets (no all-ins, no side pots); a folded one no longer does."""
    state = start([WEAK, MEDIUM, STRONG], max_bet=20)
    state = replace(state, chips=(3, 50, 50))
    refused(state, "bet 4", "may not exceed 3", "what every player still in can match")
    state = play(state, "bet 3")
    assert legal(state) == ["call", "fold"]  # no raise: seat 0 could not match it
    state = play(state, "call", "fold", "discard -", "discard -", "bet 20")
    assert state.chips == (3, 27, 47)


def test_tr8_fold_at_any_turn_and_last_player_wins_unseen() -> None:
    """TR-8: folding is always possible on one's turn; if all but one fold, that one wins unseen."""
    state = start([WEAK, MEDIUM, STRONG])
    assert legal(state)[-1] == "fold"  # even when checking is free
    state = play(state, "bet 1", "fold", "fold")
    assert state.last is not None
    assert (state.last.winners, state.last.unseen, state.last.shown) == ((1,), True, ())
    assert state.chips == (98, 101, 98) and state.hand_no == 2  # the next ante is in
    state = play(start([WEAK, MEDIUM]), "check", "check", "fold")  # in the draw
    assert state.last is not None and state.last.winners == (0,)
    state = play(start([WEAK, MEDIUM]), "check", "check", "discard -", "discard -", "check", "check", "fold")
    assert state.last is not None and state.last.winners == (0,) and state.last.unseen


# ---- TR-9: variants --------------------------------------------------------------


def test_tr9_no_discard() -> None:
    state = start([WEAK, STRONG], no_discard=True)
    assert state.rounds == ("bet", "showdown")
    state = play(state, "check", "check")
    assert legal(state) == ["show", "fold"]


def test_tr9_discard_twice() -> None:
    """TR-9: draw, betting, draw, betting."""
    state = start([WEAK, STRONG], discard_twice=True)
    assert state.rounds == ("bet", "draw", "bet", "draw", "bet", "showdown")
    state = play(state, "check", "check", "discard -", "discard O1", "check", "check")
    assert state.phase == "draw" and ENGINE.view(state, None).draws_left == 0
    state = play(state, "discard -", "discard -", "check", "check", "show", "show")
    assert state.last is not None and state.last.winners == (1,)


def test_tr9_face_up() -> None:
    """TR-9: every hand is public: every seat and spectators see all of them."""
    state = start([WEAK, STRONG], face_up=True)
    for viewer in (0, 1, None):
        assert [entry.cards for entry in ENGINE.view(state, viewer).seats] == [
            tuple(WEAK.split()),
            tuple(STRONG.split()),
        ]


def test_tr9_eight_cards() -> None:
    """TR-9: eight cards dealt, up to six discarded."""
    hands = fill(["O3 G3", "P3"], 8)
    state = play(start(hands, cards=8), "check", "check")
    assert len(state.hands[1]) == 8
    refused(state, "discard " + " ".join(state.hands[1][:7]), "at most 6")
    state = play(state, "discard " + " ".join(state.hands[1][:6]))
    assert len(state.hands[1]) == 8


def test_tr9_deck_runs_out_during_the_draw() -> None:
    """TR-9: six players with eight cards leave 7 in the deck; the discards so far are
    shuffled into a new deck (a player's own discards join only after they are served)."""
    then = "P3 " * 7
    hands = fill(["O3", "G2 G2 G2 G2 G2 G2", "O2 O2 O2 O2 O2 O2", "O3 O3 O3 O3 O3 O3", "P1", "G1"], 8, then)
    state = start(hands, then, cards=8)
    assert state.deck == ("P3",) * 7
    state = play(state, *["check"] * 6, "discard G2 G2 G2 G2 G2 G2")
    assert state.deck == ("P3",) and state.pile == ("G2",) * 6
    state = play(state, "discard O2 O2 O2 O2 O2 O2")
    # One P3 from the old deck, five of seat 1's G2 from the reshuffled one.
    assert Counter(state.hands[2][2:]) == Counter({"G2": 5, "P3": 1})
    assert (state.deck, state.pile, state.reshuffles) == (("G2",), ("O2",) * 6, 1)
    state = play(state, "discard O3 O3 O3 O3 O3 O3")
    assert Counter(state.hands[3][2:]) == Counter({"O2": 5, "G2": 1}) and state.reshuffles == 2
    state = play(state, "discard -", "discard -", "discard -")
    assert state.phase == "bet"
    everything = Counter(state.deck) + Counter(state.pile) + sum((Counter(h) for h in state.hands), Counter())
    assert everything == Counter(DECK)


# ---- TR-14, TR-15: ties and the match ------------------------------------------------


def test_tr14_tie_replay_for_the_held_pot() -> None:
    """TR-14: equal after all kickers: the pot is held and the tied players alone play a
    fresh hand, no ante, no betting, draw then showdown, started by the table."""
    state = start([WEAK, FULL_A, FULL_B], players=3)
    state = play(state, "bet 1", "call", "fold", "discard -", "discard -", "check", "check", "show", "show")
    assert hand_value(FULL_A.split()) == hand_value(FULL_B.split())
    assert (state.phase, ENGINE.current_player(state), legal(state)) == (
        "tie-replay",
        TABLE_SEAT,
        ["tie-replay"],
    )
    assert (state.pot, state.held, state.chips, state.tied) == (0, 5, (99, 98, 98), (1, 2))
    last = ENGINE.view(state, None).last_result
    assert ENGINE.view(state, 1).legal == () and last is not None and last.tie
    refused(state, "show", "tie-replay")
    state = play(state, "tie-replay")
    assert (state.kind, state.order, state.phase, state.pot, state.chips) == (
        "tie-replay",
        (1, 2),
        "draw",
        0,
        (99, 98, 98),
    )
    assert state.hands[0] == () and len(state.deck) == 55 - 12
    state = play(state, "discard -", "discard -")
    assert state.phase == "showdown"  # no betting
    values = [hand_value(state.hands[seat]) for seat in (1, 2)]
    assert values[0] != values[1], "seed 5 deals no second tie"
    state = play(state, "show", "show")
    winner = 1 if values[0] > values[1] else 2
    assert state.last is not None and state.last.winners == (winner,) and state.held == 0
    assert state.chips[winner] == 98 + 5 - 1  # the held pot, less the next hand's ante
    assert (state.hand_no, state.kind, state.order) == (2, "hand", (2, 0, 1))


def test_tr14_repeats_while_tied_and_a_fold_settles_it() -> None:
    state = start([WEAK, FULL_A, FULL_B], players=3)
    state = play(state, "check", "check", "fold", "discard -", "discard -", "check", "check", "show", "show")
    state = play(state, "tie-replay", "discard -", "discard -")
    first_deal = state.hands
    state = replace(state, hands=((), tuple(FULL_A.split()), tuple(FULL_B.split())))
    state = play(state, "show", "show")
    assert (state.phase, state.held, state.replays) == ("tie-replay", 3, 1)
    state = play(state, "tie-replay")
    assert state.hands != first_deal  # each replay has a deal of its own
    state = play(state, "fold")
    assert state.last is not None and state.last.winners == (2,) and state.chips[2] == 99 + 3 - 1


def test_tr15_match_ends_after_the_last_hand_and_ranks_by_chips() -> None:
    """TR-15: the match ends after ``hands`` hands; players rank by chips."""
    state = start([WEAK, MEDIUM, STRONG], hands=1)
    state = play(state, "bet 1", "call", "fold", "discard -", "discard -", "check", "check", "show", "show")
    assert ENGINE.current_player(state) is None and ENGINE.legal_actions(state) == []
    assert ENGINE.outcome(state) == {
        "winner": 2,
        "ranking": [2, 0, 1],
        "places": [2, 3, 1],
        "chips": [99, 98, 103],
        "hands": 1,
    }
    refused(state, "check", "match is over")


def test_tr15_match_ends_when_one_player_holds_every_chip() -> None:
    state = start([WEAK, STRONG], stack=2, ante=2)
    state = play(state, "check", "check", "discard -", "discard -", "check", "check", "show", "show")
    outcome = ENGINE.outcome(state)
    assert (
        outcome is not None
        and outcome["winner"] == 1
        and outcome["chips"] == [0, 4]
        and outcome["hands"] == 1
    )


def test_tr15_equal_stacks_play_a_place_tie_replay() -> None:
    """TR-15: players equal in chips at the end play a tie-replay hand for the place."""
    state = play(start([WEAK, MEDIUM, STRONG], hands=1), "fold", "fold")
    assert state.chips == (102, 99, 99) and ENGINE.outcome(state) is None
    assert (state.phase, ENGINE.current_player(state), state.tied) == ("place-tie", TABLE_SEAT, (1, 2))
    state = play(state, "tie-replay")
    assert (state.kind, state.order, state.phase) == ("place-tie", (1, 2), "draw")
    state = play(state, "discard -", "discard -", "show", "fold")
    assert ENGINE.outcome(state) == {
        "winner": 0,
        "ranking": [0, 1, 2],
        "places": [1, 2, 3],
        "chips": [102, 99, 99],
        "hands": 1,
    }


# ---- LP-3: hidden information ----------------------------------------------------------


def test_lp3_a_seat_sees_its_own_cards_only() -> None:
    state = start([WEAK, STRONG])
    mine = ENGINE.view(state, 0)
    assert isinstance(mine, TriadView) and mine.seat == 0
    assert mine.cards == tuple(WEAK.split()) and mine.seats[1].cards is None
    assert mine.seats[1].card_count == 6 and mine.legal == () and mine.moves == ()
    assert ENGINE.view(state, 1).legal[0] == "check"
    for viewer in (None, TABLE_SEAT):
        spectator = ENGINE.view(state, viewer)
        assert spectator.seat is None and spectator.cards is None
        assert all(entry.cards is None and entry.hand_name is None for entry in spectator.seats)
    text = json.dumps(mine.data())
    assert "seed" not in text and mine.deck is None and mine.discard_pile is None
    assert STRONG not in " ".join(json.loads(text)["cards"])
    with pytest.raises(ValueError, match="seat must be"):
        ENGINE.view(state, 2)


def test_lp3_full_view_for_replays_shows_everything() -> None:
    state = play(start([WEAK, STRONG, MEDIUM], players=3), "fold")
    full = ENGINE.full_view(state)
    assert full.omniscient and full.seat is None and full.seats[1].mucked == tuple(STRONG.split())
    assert full.seats[2].cards == tuple(MEDIUM.split()) and full.deck == state.deck
    assert full.discard_pile == state.pile and full.moves == ()
    assert ENGINE.view(state, 1).seats[1].cards == ()  # folded: nothing left, even to itself
    assert ENGINE.view(state, 2).seats[1].cards is None
    seen = ENGINE.view(state, 2)
    assert all(entry.mucked is None for entry in seen.seats) and not seen.omniscient
    assert STRONG not in " ".join(card for entry in seen.seats for card in entry.cards or ())


def test_lp3_full_view_shows_the_discard_pile() -> None:
    state = play(start([MEDIUM, WEAK]), "check", "check", "discard G1 O1")
    full = ENGINE.full_view(state)
    assert full.discard_pile == ("G1", "O1") == state.pile and full.discard_count == 2
    assert ENGINE.view(state, 1).discard_pile is None and ENGINE.view(state, None).deck is None


def _values(value: Any) -> list[Any]:
    if is_dataclass(value) and not isinstance(value, type):
        return [getattr(value, field.name) for field in fields(value)]
    return list(value) if isinstance(value, tuple) else []


def test_views_are_frozen_typed_values() -> None:
    """A view is a frozen dataclass of frozen dataclasses and tuples; only ``config`` is a mapping."""
    state = play(start([WEAK, STRONG]), "check", "check", "discard -", "discard -", "check", "check")
    state = play(state, "show", "show")
    for view in (ENGINE.view(state, 0), ENGINE.full_view(state)):
        assert isinstance(view, TriadView) and view.last_result is not None
        with pytest.raises(FrozenInstanceError):
            view.pot = 3  # type: ignore[misc]
        pending = [getattr(view, field.name) for field in fields(view) if field.name != "config"]
        while pending:
            value = pending.pop()
            assert not isinstance(value, list | dict | set), value
            pending += _values(value)
        assert dict(view.config) == ENGINE.normalize_config({"players": 2})
    match_end = play(start([WEAK, STRONG], hands=1), "fold")
    outcome = ENGINE.view(match_end, None).outcome
    assert outcome == MatchOutcome(winner=0, ranking=(0, 1), places=(1, 2), chips=(101, 99), hands=1)
    assert json.loads(json.dumps(asdict(outcome))) == ENGINE.outcome(match_end)  # the stored form


# ---- config, seeds, decks and action texts ----------------------------------------------


@pytest.mark.parametrize(
    ("config", "words"),
    [
        ({"players": 7}, "'players'"),
        ({"cards": 7}, "'cards'"),
        ({"colour": 1}, "unknown triad config"),
        ({"face_up": 1}, "'face_up'"),
        ({"no_discard": True, "discard_twice": True}, "cannot both"),
        ({"ante": 5, "stack": 4}, "'ante'"),
        ({"max_bet": 0}, "'max_bet'"),
    ],
)
def test_bad_configs_are_named(config: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        ENGINE.initial_state(config)


def test_bad_seeds_and_decks() -> None:
    with pytest.raises(ValueError, match="seed"):
        ENGINE.initial_state(None, seed=-1)
    with pytest.raises(ValueError, match="missing"):
        ENGINE.initial_state(None, seed=1, deck=list(DECK)[1:])
    with pytest.raises(ValueError, match="unknown"):
        ENGINE.initial_state(None, seed=1, deck=["Ah", *list(DECK)[1:]])
    assert ENGINE.normalize_config(None)["max_bet"] is None


def test_action_texts() -> None:
    assert str(ENGINE.parse_action("discard p3  g2")) == "discard G2 P3"  # best card first
    assert str(ENGINE.parse_action("discard -")) == "discard -"
    assert str(ENGINE.parse_action("RAISE 4")) == "raise 4"
    for bad in ("", "bet", "bet x", "bet 0", "discard Q9", "shove", "show now"):
        with pytest.raises(IllegalAction):
            ENGINE.parse_action(bad)
    state = start([WEAK, STRONG])
    assert ENGINE.apply(state, ENGINE.legal_actions(state)[1]) == ENGINE.apply(state, "bet 1")
