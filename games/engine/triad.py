"""Triad, the Colonial "Pyramid" card game (RULES.md section 3, TR-1..TR-15).

One game is a whole match (TR-15): hands follow each other until one seat holds every
chip or ``hands`` hands have been played. Seats are numbered 0..players-1 clockwise, so
"left of seat s" is seat s+1. The first hand's dealer is seat 0; the button then moves
to the next seat that still has chips.

Randomness (all from the seed, never from global state): the deal of hand k is
``rng.shuffled(DECK, derive_seed(seed, "hand", k))``; the r-th tie-replay deal of hand k
uses the label ``("tie-replay", k, r)``; the r-th place tie-replay at the end uses
``("place-tie", r)``; the n-th reshuffle of a deal's discards (TR-9) appends
``"reshuffle", n`` to that deal's label. A caller's ``deck`` replaces the first hand's
shuffled deck (its draws come from the same deck); every later deal uses the seed.

Hidden information (LP-3): ``view(state, seat)`` shows a seat its own cards, the cards
shown at the showdown and, with ``face_up``, every hand. ``full_view(state)`` shows
everything but the seed (every hand, folded hands, the deck order); it is meant for
replays of finished games only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.engine.base import TABLE_SEAT, Engine, IllegalAction, check_seed
from games.engine.cards import check_deck
from games.engine.config import Option, boolean, integer, one_of, resolve
from games.engine.rng import derive_seed, shuffled
from games.engine.triad_hands import (
    CODES,
    DECK,
    hand_name,
    hand_value,
    pyramid_split,
    sort_cards,
)

__all__ = ["DECK", "ENGINE", "TriadAction", "TriadEngine", "TriadState", "hand_name", "hand_value"]

OPTIONS = {
    "players": Option(2, integer(2, 6)),
    "cards": Option(6, one_of(6, 8)),
    "no_discard": Option(False, boolean),
    "discard_twice": Option(False, boolean),
    "face_up": Option(False, boolean),
    "ante": Option(1, integer(1, 1000)),
    # Bounded because every bet size is a separate legal action.
    "stack": Option(100, integer(1, 10_000)),
    "max_bet": Option(None, integer(1, allow_none=True)),
    "max_raises": Option(3, integer(0, 10)),
    "hands": Option(12, integer(1, 1000)),
}

BET, DRAW, SHOWDOWN = "bet", "draw", "showdown"
TIE_REPLAY, PLACE_TIE, OVER = "tie-replay", "place-tie", "over"
"""Phases. The first three are seat rounds; at the next two the table deals a tie-replay hand."""
HAND = "hand"
"""A regular hand's kind; a deal is a ``HAND``, a ``TIE_REPLAY`` (held pot) or a ``PLACE_TIE``."""

CHECK, CALL, RAISE, FOLD, DISCARD, SHOW = "check", "call", "raise", "fold", "discard", "show"
_KINDS = (CHECK, CALL, BET, RAISE, FOLD, DISCARD, SHOW, TIE_REPLAY)
_MAX_CHIP_DIGITS = 9
"""No stack comes near a billion chips; longer texts would only reach ``int()``'s own
4,300-digit limit, which raises a plain ``ValueError``."""


def _chip_count(text: str) -> int | None:
    """``text`` as a number of chips, or ``None``. ASCII digits only: ``str.isdigit`` also
    accepts '³' (which ``int()`` refuses) and Arabic-Indic or fullwidth digits (which it
    reads), and an action's text must be its canonical form (TR-8's 'bet N')."""
    if not (text.isascii() and text.isdigit()) or len(text) > _MAX_CHIP_DIGITS:
        return None
    return int(text)


@dataclass(frozen=True)
class Rules:
    """A normalized config."""

    players: int
    cards: int
    no_discard: bool
    discard_twice: bool
    face_up: bool
    ante: int
    stack: int
    max_bet: int | None
    max_raises: int
    hands: int

    @property
    def max_discard(self) -> int:
        return 6 if self.cards == 8 else 4

    def rounds(self, kind: str) -> tuple[str, ...]:
        """The rounds of a deal (TR-6, TR-7, TR-9); tie-replays skip the betting (TR-14)."""
        draws = 0 if self.no_discard else 2 if self.discard_twice else 1
        if kind != HAND:
            return (DRAW,) * draws + (SHOWDOWN,)
        return (BET,) + (DRAW, BET) * draws + (SHOWDOWN,)


@dataclass(frozen=True)
class TriadAction:
    """``check``, ``call``, ``bet N``, ``raise N`` (N chips on top of the call), ``fold``,
    ``discard G2 P3`` / ``discard -``, ``show``, and the table's ``tie-replay``."""

    kind: str
    amount: int = 0
    cards: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.kind in (BET, RAISE):
            return f"{self.kind} {self.amount}"
        if self.kind == DISCARD:
            return f"{DISCARD} {' '.join(self.cards) or '-'}"
        return self.kind


@dataclass(frozen=True)
class HandResult:
    """How a deal ended, kept for display until the next deal ends."""

    hand: int
    kind: str
    pot: int
    winners: tuple[int, ...]
    """The best hands; more than one is a tie that a tie-replay hand settles (TR-14)."""
    shown: tuple[tuple[int, tuple[str, ...]], ...]
    folded: tuple[int, ...]
    unseen: bool
    """Won because every other player folded (TR-8); the winner showed nothing."""


@dataclass(frozen=True)
class TriadState:
    rules: Rules
    seed: int
    hand_no: int
    dealer: int
    chips: tuple[int, ...]
    pot: int
    held: int
    """A pot held for a tie-replay hand (TR-14)."""
    kind: str
    label: tuple[str | int, ...]
    """The seed label of this deal, so reshuffles get streams of their own."""
    rounds: tuple[str, ...]
    round_no: int
    phase: str
    to_act: int | None
    order: tuple[int, ...]
    """Seats dealt into this deal, in deal order (left of the dealer first)."""
    folded: tuple[bool, ...]
    hands: tuple[tuple[str, ...], ...]
    mucked: tuple[tuple[str, ...], ...]
    """Folded hands, never shown (TR-7)."""
    shown: tuple[bool, ...]
    deck: tuple[str, ...]
    pile: tuple[str, ...]
    """Discards of this deal not yet reshuffled into the deck (TR-9)."""
    reshuffles: int
    bets: tuple[int, ...]
    acted: tuple[bool, ...]
    raises: int
    discarded: tuple[tuple[int, ...], ...]
    """How many cards each seat discarded in each draw of this deal (announced, so public)."""
    replays: int
    tied: tuple[int, ...]
    places: tuple[tuple[int, ...], ...]
    """At the end of the match: seats grouped by place, best first; groups of two or more
    still have a place tie-replay to play (TR-15)."""
    last: HandResult | None


def _bump(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    return tuple(value + delta if i == seat else value for i, value in enumerate(values))


def _put(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return tuple(value if i == seat else old for i, old in enumerate(values))


def _remove(hand: Sequence[str], cards: Sequence[str]) -> tuple[str, ...] | None:
    """``hand`` less the multiset ``cards``, or ``None`` if it does not hold them all."""
    rest = list(hand)
    for card in cards:
        if card not in rest:
            return None
        rest.remove(card)
    return tuple(rest)


def _seat_list(seats: Sequence[int]) -> str:
    names = [f"seat {seat}" for seat in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class TriadEngine(Engine[TriadState, TriadAction]):
    name = "triad"
    version = 1
    min_players = 2
    max_players = 6

    # ---- setup -------------------------------------------------------------------

    def normalize_config(self, config: dict[str, Any] | None) -> dict[str, Any]:
        resolved = resolve(self.name, config, OPTIONS)
        if resolved["no_discard"] and resolved["discard_twice"]:
            raise ValueError("triad config options 'no_discard' and 'discard_twice' cannot both be true")
        if resolved["ante"] > resolved["stack"]:
            raise ValueError(f"triad config option 'ante' ({resolved['ante']}) may not exceed 'stack'")
        return resolved

    def initial_state(
        self, config: dict[str, Any] | None = None, seed: int = 0, deck: Sequence[str] | None = None
    ) -> TriadState:
        rules = Rules(**self.normalize_config(config))
        check_seed(seed)
        fixed = None if deck is None else check_deck(deck, DECK, "a triad deck")
        n = rules.players
        empty: tuple[tuple[str, ...], ...] = ((),) * n
        state = TriadState(
            rules=rules,
            seed=seed,
            hand_no=1,
            dealer=0,
            chips=(rules.stack,) * n,
            pot=0,
            held=0,
            kind=HAND,
            label=(),
            rounds=(),
            round_no=0,
            phase=BET,
            to_act=None,
            order=(),
            folded=(False,) * n,
            hands=empty,
            mucked=empty,
            shown=(False,) * n,
            deck=(),
            pile=(),
            reshuffles=0,
            bets=(0,) * n,
            acted=(False,) * n,
            raises=0,
            discarded=((),) * n,
            replays=0,
            tied=(),
            places=(),
            last=None,
        )
        return self._deal(state, HAND, tuple(range(n)), (HAND, 1), fixed)

    def _deal(
        self,
        state: TriadState,
        kind: str,
        seats: tuple[int, ...],
        label: tuple[str | int, ...],
        fixed: tuple[str, ...] | None = None,
    ) -> TriadState:
        """A fresh deal to ``seats``: one card at a time from the top, left of the dealer first (TR-5)."""
        rules, n = state.rules, state.rules.players
        cards = fixed if fixed is not None else tuple(shuffled(DECK, derive_seed(state.seed, *label)))
        order = tuple(seat for step in range(1, n + 1) if (seat := (state.dealer + step) % n) in seats)
        hands: list[tuple[str, ...]] = [()] * n
        for index, seat in enumerate(order):
            hands[seat] = cards[index : rules.cards * len(order) : len(order)]
        chips, pot = state.chips, 0
        if kind == HAND:
            # TR-4: everyone antes; a short stack lowers the ante for all, since there are no all-ins.
            ante = min(rules.ante, *(chips[seat] for seat in order))
            chips = tuple(c - ante if seat in order else c for seat, c in enumerate(chips))
            pot = ante * len(order)
        dealt = replace(
            state,
            kind=kind,
            label=label,
            rounds=rules.rounds(kind),
            order=order,
            chips=chips,
            pot=pot,
            folded=(False,) * n,
            hands=tuple(hands),
            mucked=((),) * n,
            shown=(False,) * n,
            deck=cards[rules.cards * len(order) :],
            pile=(),
            reshuffles=0,
            discarded=((),) * n,
            tied=state.tied if kind != HAND else (),
        )
        return self._start_round(dealt, 0)

    def _start_round(self, state: TriadState, round_no: int) -> TriadState:
        phase = state.rounds[round_no]
        first = next(seat for seat in state.order if not state.folded[seat])
        n = state.rules.players
        return replace(
            state, round_no=round_no, phase=phase, to_act=first, bets=(0,) * n, acted=(False,) * n, raises=0
        )

    # ---- queries -----------------------------------------------------------------

    def current_player(self, state: TriadState) -> int | None:
        if state.phase == OVER:
            return None
        if state.phase in (TIE_REPLAY, PLACE_TIE):
            return TABLE_SEAT
        return state.to_act

    def _bet_limits(self, state: TriadState) -> tuple[int, int, str] | None:
        """(smallest, largest, why largest) for a bet or raise by the seat to act, or ``None``."""
        seat = state.to_act
        assert seat is not None
        high = max(state.bets)
        to_call = high - state.bets[seat]
        if high and state.raises >= state.rules.max_raises:
            return None
        if state.rules.max_bet is not None:
            limit, why = state.rules.max_bet, "the table's max_bet"
        else:
            # Pot limit: a raise may add the pot as it stands after the call.
            limit, why = state.pot + to_call, "the pot limit"
        # TR-8: nothing beyond what every player still in can match, so no all-ins, no side pots.
        cap = min(state.bets[p] + state.chips[p] for p in state.order if not state.folded[p]) - high
        if cap < limit:
            limit, why = cap, "what every player still in can match"
        return (1, limit, why) if limit >= 1 else None

    def legal_actions(self, state: TriadState) -> list[TriadAction]:
        if state.phase == OVER:
            return []
        if state.phase in (TIE_REPLAY, PLACE_TIE):
            return [TriadAction(TIE_REPLAY)]
        seat = state.to_act
        assert seat is not None
        fold = TriadAction(FOLD)
        if state.phase == SHOWDOWN:
            return [TriadAction(SHOW), fold]
        if state.phase == DRAW:
            discards = _discards(state.hands[seat], state.rules.max_discard)
            return [TriadAction(DISCARD, cards=cards) for cards in discards] + [fold]
        high = max(state.bets)
        actions = [TriadAction(CALL if high > state.bets[seat] else CHECK)]
        limits = self._bet_limits(state)
        if limits is not None:
            kind = RAISE if high else BET
            actions += [TriadAction(kind, amount) for amount in range(limits[0], limits[1] + 1)]
        return [*actions, fold]

    # ---- actions -----------------------------------------------------------------

    def parse_action(self, text: str) -> TriadAction:
        if not isinstance(text, str):
            raise IllegalAction(f"an action must be text such as 'call' or 'discard G2 P3', not {text!r}")
        words = text.split()
        if not words:
            raise IllegalAction("an empty action; try 'check', 'bet 3', 'discard G2 P3' or 'fold'")
        kind, args = words[0].lower(), words[1:]
        if kind not in _KINDS:
            raise IllegalAction(f"unknown action {words[0]!r}; actions are {', '.join(_KINDS)}")
        if kind in (BET, RAISE):
            amount = _chip_count(args[0]) if len(args) == 1 else None
            if amount is None or amount < 1:
                raise IllegalAction(f"'{kind}' needs a whole number of chips, at least 1, e.g. '{kind} 3'")
            return TriadAction(kind, amount)
        if kind == DISCARD:
            if args == ["-"]:
                args = []
            cards = [arg.upper() for arg in args]
            unknown = [card for card, arg in zip(cards, args, strict=True) if card not in CODES]
            if unknown:
                raise IllegalAction(f"not Triad cards: {unknown}; cards are P1..O3 and X ('discard G2 P3')")
            return TriadAction(DISCARD, cards=tuple(sort_cards(cards)))
        if args:
            raise IllegalAction(f"'{kind}' takes nothing after it")
        return TriadAction(kind)

    def _apply(self, state: TriadState, action: TriadAction) -> TriadState:
        if not isinstance(action, TriadAction):
            raise IllegalAction(f"not a triad action: {action!r}")
        if state.phase == OVER:
            raise IllegalAction("the match is over; no more actions")
        if state.phase in (TIE_REPLAY, PLACE_TIE):
            if action.kind != TIE_REPLAY:
                raise IllegalAction(
                    f"{_seat_list(state.tied)} are tied; the table deals them a tie-replay hand "
                    "('tie-replay') before anyone acts"
                )
            return self._tie_replay(state)
        seat = state.to_act
        assert seat is not None
        if action.kind == TIE_REPLAY:
            raise IllegalAction(f"'tie-replay' is the table's action after a tie; seat {seat} is to act")
        if action.kind == FOLD:
            return self._fold(state, seat)
        if state.phase == BET:
            return self._bet_action(state, seat, action)
        if state.phase == DRAW:
            if action.kind != DISCARD:
                raise IllegalAction(
                    f"seat {seat} is to draw: discard 0 to {state.rules.max_discard} cards "
                    "('discard G2 P3', 'discard -') or fold"
                )
            return self._draw(state, seat, action.cards)
        if action.kind != SHOW:
            raise IllegalAction(f"seat {seat} is at the showdown: 'show' the hand or 'fold'")
        shown = _put(state.shown, seat, True)
        return self._advance(replace(state, shown=shown, acted=_put(state.acted, seat, True)))

    def _bet_action(self, state: TriadState, seat: int, action: TriadAction) -> TriadState:
        high = max(state.bets)
        to_call = high - state.bets[seat]
        if action.kind not in (CHECK, CALL, BET, RAISE):
            later = (
                "discarding comes in the draw"
                if action.kind == DISCARD
                else "hands are shown at the showdown"
            )
            raise IllegalAction(
                f"seat {seat} is to act in a betting round (check, call, bet, raise or fold); {later}"
            )
        if action.kind == CHECK and to_call:
            raise IllegalAction(f"seat {seat} cannot check: {to_call} chips to call")
        if action.kind == CALL and not to_call:
            raise IllegalAction(f"seat {seat} has nothing to call; check instead")
        if action.kind == BET and high:
            raise IllegalAction(f"there is already a bet of {high} this round; call, raise or fold")
        if action.kind == RAISE and not high:
            raise IllegalAction("there is no bet to raise this round; bet instead")
        raises = state.raises
        if action.kind in (BET, RAISE):
            limits = self._bet_limits(state)
            if limits is None:
                if action.kind == RAISE and state.raises >= state.rules.max_raises:
                    raise IllegalAction(f"no more raises this round: the limit is {state.rules.max_raises}")
                raise IllegalAction(f"no {action.kind} is possible: a player still in has no chips left")
            if action.amount < limits[0]:
                raise IllegalAction(f"a {action.kind} is at least {limits[0]} chip")
            if action.amount > limits[1]:
                raise IllegalAction(f"a {action.kind} may not exceed {limits[1]} chips now ({limits[2]})")
            raises += action.kind == RAISE
        put_in = to_call + (action.amount if action.kind in (BET, RAISE) else 0)
        acted = _put(state.acted, seat, True)
        if action.kind in (BET, RAISE):
            # Everyone else must answer the new bet.
            acted = tuple(p == seat for p in range(state.rules.players))
        return self._advance(
            replace(
                state,
                chips=_bump(state.chips, seat, -put_in),
                bets=_bump(state.bets, seat, put_in),
                pot=state.pot + put_in,
                raises=raises,
                acted=acted,
            )
        )

    def _draw(self, state: TriadState, seat: int, cards: tuple[str, ...]) -> TriadState:
        """TR-6: discard and be dealt as many; TR-9: an empty deck takes in the discards so far."""
        limit = state.rules.max_discard
        if len(cards) > limit:
            raise IllegalAction(f"at most {limit} cards may be discarded, not {len(cards)}")
        kept = _remove(state.hands[seat], cards)
        if kept is None:
            missing = Counter(cards) - Counter(state.hands[seat])
            raise IllegalAction(f"seat {seat} does not hold {' '.join(missing.elements())}")
        cards = tuple(sort_cards(cards))  # the pile's order feeds reshuffles: keep it canonical
        deck, pile, reshuffles = state.deck, state.pile, state.reshuffles
        drawn = deck[: len(cards)]
        deck = deck[len(cards) :]
        if len(drawn) < len(cards):
            # The seat's own discards join the pile only after it is served, so it cannot draw them back.
            reshuffles += 1
            deck = tuple(shuffled(pile, derive_seed(state.seed, *state.label, "reshuffle", reshuffles)))
            pile = ()
            need = len(cards) - len(drawn)
            drawn, deck = drawn + deck[:need], deck[need:]
        return self._advance(
            replace(
                state,
                hands=_put(state.hands, seat, kept + drawn),
                deck=deck,
                pile=pile + cards,
                reshuffles=reshuffles,
                discarded=_put(state.discarded, seat, (*state.discarded[seat], len(cards))),
                acted=_put(state.acted, seat, True),
            )
        )

    def _fold(self, state: TriadState, seat: int) -> TriadState:
        """TR-8: a player may fold whenever it is their turn; the hand is mucked unseen."""
        return self._advance(
            replace(
                state,
                folded=_put(state.folded, seat, True),
                mucked=_put(state.mucked, seat, state.hands[seat]),
                hands=_put(state.hands, seat, ()),
                acted=_put(state.acted, seat, True),
            )
        )

    def _advance(self, state: TriadState) -> TriadState:
        """Pass the turn, or end the round or the deal."""
        live = [seat for seat in state.order if not state.folded[seat]]
        if len(live) == 1:
            return self._settle(state, live)
        high = max(state.bets)
        waiting = [seat for seat in live if not state.acted[seat] or state.bets[seat] < high]
        if waiting:
            # Turns go left around the table from the seat that just acted.
            current = state.order.index(state.to_act)
            ring = state.order[current + 1 :] + state.order[: current + 1]
            return replace(state, to_act=next(seat for seat in ring if seat in waiting))
        if state.phase != SHOWDOWN:
            return self._start_round(state, state.round_no + 1)
        best = max(hand_value(state.hands[seat]) for seat in live)
        return self._settle(state, [seat for seat in live if hand_value(state.hands[seat]) == best])

    def _settle(self, state: TriadState, winners: list[int]) -> TriadState:
        """End a deal won by ``winners`` (more than one: tied after all kickers, TR-14)."""
        live = [seat for seat in state.order if not state.folded[seat]]
        result = HandResult(
            hand=state.hand_no,
            kind=state.kind,
            pot=state.pot if state.kind == HAND else state.held,
            winners=tuple(winners),
            shown=tuple((seat, state.hands[seat]) for seat in state.order if state.shown[seat]),
            folded=tuple(seat for seat in state.order if state.folded[seat]),
            unseen=len(live) == 1 and not state.shown[live[0]],
        )
        state = replace(state, last=result, to_act=None, bets=(0,) * state.rules.players)
        if state.kind == PLACE_TIE:
            return self._settle_places(state, live)
        if len(winners) > 1:
            return replace(state, phase=TIE_REPLAY, held=state.held + state.pot, pot=0, tied=tuple(winners))
        chips = _bump(state.chips, winners[0], state.pot + state.held)
        state = replace(state, chips=chips, pot=0, held=0)
        if state.hand_no >= state.rules.hands or sum(1 for c in chips if c) == 1:
            return self._end_match(state)
        n = state.rules.players
        dealer = next(seat for step in range(1, n + 1) if chips[seat := (state.dealer + step) % n])
        state = replace(state, hand_no=state.hand_no + 1, dealer=dealer, replays=0)
        return self._deal(state, HAND, tuple(seat for seat in range(n) if chips[seat]), (HAND, state.hand_no))

    def _tie_replay(self, state: TriadState) -> TriadState:
        """TR-14 / TR-15: the tied seats alone get a fresh deal: no ante, no betting."""
        replays = state.replays + 1
        label: tuple[str | int, ...] = (
            (TIE_REPLAY, state.hand_no, replays) if state.phase == TIE_REPLAY else (PLACE_TIE, replays)
        )
        kind = TIE_REPLAY if state.phase == TIE_REPLAY else PLACE_TIE
        return self._deal(replace(state, replays=replays), kind, state.tied, label)

    def _end_match(self, state: TriadState) -> TriadState:
        """TR-15: rank by chips; equal stacks are settled by place tie-replays."""
        amounts = sorted(set(state.chips), reverse=True)
        places = tuple(tuple(seat for seat, c in enumerate(state.chips) if c == amount) for amount in amounts)
        return self._next_place_tie(replace(state, places=places, replays=0))

    def _settle_places(self, state: TriadState, live: list[int]) -> TriadState:
        """Split the tied group by the place tie-replay: shown hands by value, then folded ones."""
        values = {seat: hand_value(state.hands[seat]) for seat in live}
        ordered = sorted(set(values.values()), reverse=True)
        groups = [tuple(seat for seat in live if values[seat] == value) for value in ordered]
        folded = tuple(seat for seat in state.order if state.folded[seat])
        if folded:
            groups.append(folded)
        index = state.places.index(state.tied)
        places = state.places[:index] + tuple(groups) + state.places[index + 1 :]
        return self._next_place_tie(replace(state, places=places))

    def _next_place_tie(self, state: TriadState) -> TriadState:
        group = next((group for group in state.places if len(group) > 1), None)
        if group is None:
            return replace(state, phase=OVER, to_act=None, tied=())
        return replace(state, phase=PLACE_TIE, to_act=None, tied=group)

    # ---- results and views -----------------------------------------------------

    def outcome(self, state: TriadState) -> dict[str, Any] | None:
        """``{"winner", "ranking" (best first), "places" (per seat, 1 = first), "chips", "hands"}``."""
        if state.phase != OVER:
            return None
        ranking = [seat for group in state.places for seat in group]
        places = [0] * state.rules.players
        for place, seat in enumerate(ranking, start=1):
            places[seat] = place
        return {
            "winner": ranking[0],
            "ranking": ranking,
            "places": places,
            "chips": list(state.chips),
            "hands": state.hand_no,
        }

    def view(self, state: TriadState, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (LP-3); ``None`` or -1 is a spectator.

        Keys: ``game``, ``seat``, ``config``; ``hand`` (1-based) of ``hands``; ``deal``
        (``hand``, ``tie-replay`` or ``place-tie``); ``phase`` (``bet``, ``draw``,
        ``showdown``; ``tie-replay`` / ``place-tie`` while the table is to deal one;
        ``over``); ``rounds`` and ``round`` (the deal's rounds and the index of this one);
        ``draws_left`` after this round; ``dealer``; ``to_act`` (as ``current_player``);
        ``pot``, ``held_pot``, ``deck_count``, ``discard_count``; ``raises``,
        ``max_raises``, ``max_discard``; for the seat to act in a betting round
        ``to_call``, ``min_bet`` and ``max_bet`` (``None`` when no bet or raise is
        possible); ``seats`` (per seat: ``chips``, ``bet`` this round, ``in_deal``,
        ``folded``, ``out``, ``card_count``, ``cards`` (``None`` unless visible: one's own,
        shown or ``face_up``), ``shown``, ``hand_name`` of visible cards, ``discarded``
        counts per draw); ``cards`` (one's own); ``legal`` (texts, empty unless it is
        this seat's turn); ``tied``; ``places`` (at the end); ``last_result`` (the last
        finished deal: ``winners``, ``tie``, ``unseen``, ``pot``, ``folded``, ``shown``
        hands with ``name``, ``pyramid`` and ``kickers``); ``outcome``.
        """
        if seat is not None and seat != TABLE_SEAT and not 0 <= seat < state.rules.players:
            raise ValueError(f"seat must be 0..{state.rules.players - 1}, None or -1, not {seat}")
        viewer = None if seat == TABLE_SEAT else seat
        return self._view(state, viewer, lambda s: s == viewer or state.rules.face_up or state.shown[s])

    def full_view(self, state: TriadState) -> dict[str, Any]:
        """Every card, folded hands and the deck order included: for replays of finished games."""
        data = self._view(state, None, lambda s: True)
        data["omniscient"] = True
        data["deck"] = list(state.deck)
        data["discard_pile"] = list(state.pile)
        for entry in data["seats"]:
            entry["mucked"] = list(state.mucked[entry["seat"]])
        return data

    def _view(self, state: TriadState, viewer: int | None, visible: Any) -> dict[str, Any]:
        seats = []
        for s in range(state.rules.players):
            cards = list(state.hands[s]) if visible(s) else None
            seats.append(
                {
                    "seat": s,
                    "chips": state.chips[s],
                    "bet": state.bets[s],
                    "in_deal": s in state.order,
                    "folded": state.folded[s],
                    "out": state.chips[s] == 0 and s not in state.order,
                    "card_count": len(state.hands[s]),
                    "cards": cards,
                    "shown": state.shown[s],
                    "hand_name": hand_name(cards) if cards else None,
                    "discarded": list(state.discarded[s]),
                }
            )
        to_act = self.current_player(state)
        legal = [str(a) for a in self.legal_actions(state)] if viewer is not None and viewer == to_act else []
        betting: dict[str, Any] = {"to_call": None, "min_bet": None, "max_bet": None}
        if state.phase == BET and state.to_act is not None:
            limits = self._bet_limits(state)
            betting = {
                "to_call": max(state.bets) - state.bets[state.to_act],
                "min_bet": limits[0] if limits else None,
                "max_bet": limits[1] if limits else None,
            }
        return {
            "game": self.name,
            "seat": viewer,
            "config": _config_of(state.rules),
            "hand": state.hand_no,
            "hands": state.rules.hands,
            "deal": state.kind,
            "phase": state.phase,
            "rounds": list(state.rounds),
            "round": state.round_no,
            "draws_left": state.rounds[state.round_no + 1 :].count(DRAW) if state.phase in (BET, DRAW) else 0,
            "dealer": state.dealer,
            "to_act": to_act,
            "pot": state.pot,
            "held_pot": state.held,
            "deck_count": len(state.deck),
            "discard_count": len(state.pile),
            "raises": state.raises,
            "max_raises": state.rules.max_raises,
            "max_discard": state.rules.max_discard,
            **betting,
            "seats": seats,
            "cards": list(state.hands[viewer]) if viewer is not None else None,
            "legal": legal,
            "tied": list(state.tied),
            "places": [list(group) for group in state.places],
            "last_result": _result_view(state.last),
            "outcome": self.outcome(state),
        }


def _config_of(rules: Rules) -> dict[str, Any]:
    return {key: getattr(rules, key) for key in OPTIONS}


def _result_view(result: HandResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    shown = []
    for seat, cards in result.shown:
        pyramid, kickers = pyramid_split(cards)
        shown.append(
            {
                "seat": seat,
                "cards": list(cards),
                "name": hand_name(cards),
                "pyramid": pyramid,
                "kickers": kickers,
            }
        )
    return {
        "hand": result.hand,
        "deal": result.kind,
        "pot": result.pot,
        "winners": list(result.winners),
        "tie": len(result.winners) > 1,
        "unseen": result.unseen,
        "shown": shown,
        "folded": list(result.folded),
    }


def _discards(hand: Sequence[str], limit: int) -> list[tuple[str, ...]]:
    """Every distinct multiset of up to ``limit`` cards of ``hand``: fewest first, then best cards first."""
    counts = Counter(hand)
    kinds = sort_cards(counts)
    found: list[tuple[str, ...]] = []

    def extend(index: int, chosen: tuple[str, ...]) -> None:
        if index == len(kinds):
            found.append(chosen)
            return
        card = kinds[index]
        for n in range(min(counts[card], limit - len(chosen)) + 1):
            extend(index + 1, chosen + (card,) * n)

    extend(0, ())
    return sorted(found, key=lambda cards: (len(cards), [-CODES[c] for c in cards]))


ENGINE = TriadEngine()
