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
everything but the seed (every hand, folded hands, the deck order and the discard pile);
it is meant for replays of finished games only. Both are a ``TriadView``, a frozen value
of frozen parts and tuples (only ``config`` is a mapping), like Tauron Hold-Em's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from games.engine import betting
from games.engine.base import (
    TABLE_SEAT,
    Engine,
    IllegalAction,
    Move,
    View,
    Words,
    check_seed,
    evolve,
    gettext_noop,
)
from games.engine.betting import (
    BET,
    CALL,
    CHECK,
    FOLD,
    HAND,
    OVER,
    PLACE_TIE,
    RAISE,
    SHOW,
    SHOWDOWN,
    TIE_REPLAY,
    WAGERS,
    DealResult,
    MatchOutcome,
    SeatChips,
    TableRules,
    bump,
    live,
    put,
)
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

__all__ = [
    "DECK",
    "ENGINE",
    "MatchOutcome",
    "TriadAction",
    "TriadEngine",
    "TriadResult",
    "TriadSeat",
    "TriadShownHand",
    "TriadState",
    "TriadView",
    "hand_name",
    "hand_value",
]

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

DRAW = "draw"
"""Phases: ``BET``, ``DRAW`` and ``SHOWDOWN`` are seat rounds; at ``TIE_REPLAY`` and
``PLACE_TIE`` the table deals a tie-replay hand; then ``OVER``. A deal is a ``HAND``, a
``TIE_REPLAY`` (held pot) or a ``PLACE_TIE`` (all from ``betting``)."""

DISCARD = "discard"
_KINDS = (CHECK, CALL, BET, RAISE, FOLD, DISCARD, SHOW, TIE_REPLAY)
_TIMEOUT_PREFERENCE = (CHECK, f"{DISCARD} -", SHOW, FOLD)


@dataclass(frozen=True)
class Rules(TableRules):
    """A normalized config: the betting options of every table game, and Triad's own."""

    cards: int
    no_discard: bool
    discard_twice: bool
    face_up: bool

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

    def move(self) -> Move:
        """The action as a page offers it: bets carry their chips, a discard its cards."""
        amount = self.amount if self.kind in (BET, RAISE) else None
        return Move(str(self), self.kind, cards=self.cards, amount=amount)


# ---- the view's parts ---------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TriadShownHand:
    """A hand shown at the showdown: its cards and its best pyramid (TR-10..TR-13)."""

    seat: int
    cards: tuple[str, ...]
    name: str
    pyramid: tuple[str, ...]
    kickers: tuple[str, ...]
    """The cards left out of the pyramid, best first (TR-13)."""


@dataclass(frozen=True, kw_only=True)
class TriadResult(DealResult):
    """How the last finished deal ended, kept for display until the next deal ends."""

    shown: tuple[TriadShownHand, ...]
    """In deal order (TR-7); a folded hand is never among them."""


@dataclass(frozen=True, kw_only=True)
class TriadSeat(SeatChips):
    cards: tuple[str, ...] | None
    """``None`` unless visible to the viewer: its own, shown, or ``face_up`` (LP-3)."""
    shown: bool
    hand_name: str | None
    """The best pyramid of the visible cards."""
    discarded: tuple[int, ...]
    """How many cards it discarded in each draw of this deal (announced, so public)."""
    mucked: tuple[str, ...] | None = None
    """A folded hand, in a full view only."""


@dataclass(frozen=True, kw_only=True)
class TriadView(View):
    """What one seat may know (LP-3).

    ``hand`` (1-based) of ``hands``; ``deal`` is ``hand``, ``tie-replay`` or ``place-tie``;
    ``phase`` is ``bet``, ``draw``, ``showdown``, ``tie-replay`` / ``place-tie`` (the table
    is to deal one) or ``over``; ``rounds`` are the deal's rounds and ``round`` the index of
    this one; ``draws_left`` the draws after this round; ``to_call``, ``min_bet`` and
    ``max_bet`` are for the seat to act in a betting round (``min_bet``/``max_bet`` ``None``
    when no bet or raise is possible); ``cards`` is the viewer's own hand; ``places`` the
    seats grouped by place at the end of the match (TR-15). ``omniscient``, ``deck`` and
    ``discard_pile`` are set in a full view only."""

    hand: int
    hands: int
    deal: str
    phase: str
    rounds: tuple[str, ...]
    round: int
    draws_left: int
    dealer: int
    to_act: int | None
    pot: int
    held_pot: int
    deck_count: int
    discard_count: int
    raises: int
    max_raises: int
    max_discard: int
    to_call: int | None
    min_bet: int | None
    max_bet: int | None
    seats: tuple[TriadSeat, ...]
    cards: tuple[str, ...] | None
    tied: tuple[int, ...]
    places: tuple[tuple[int, ...], ...]
    last_result: TriadResult | None
    outcome: MatchOutcome | None
    omniscient: bool = False
    deck: tuple[str, ...] | None = None
    discard_pile: tuple[str, ...] | None = None


# ---- the state -------------------------------------------------------------------------


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
    forfeited: int | None = None
    """TN-6: the seat that lost the match by forfeit (``forfeit``), which ended it."""


def _remove(hand: Sequence[str], cards: Sequence[str]) -> tuple[str, ...] | None:
    """``hand`` less the multiset ``cards``, or ``None`` if it does not hold them all."""
    rest = list(hand)
    for card in cards:
        if card not in rest:
            return None
        rest.remove(card)
    return tuple(rest)


class TriadEngine(Engine[TriadState, TriadAction]):
    name = "triad"
    options = OPTIONS
    version = 1
    min_players = 2
    max_players = 6

    # ---- setup -------------------------------------------------------------------

    def normalize_config(self, config: dict[str, Any] | None) -> dict[str, Any]:
        resolved = resolve(self.name, config, OPTIONS)
        if resolved["no_discard"] and resolved["discard_twice"]:
            raise ValueError("triad config options 'no_discard' and 'discard_twice' cannot both be true")
        return betting.check_ante(self.name, resolved)

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
        order = betting.deal_order(state.dealer, n, seats)
        chips, pot = betting.take_antes(rules.ante, state.chips, order) if kind == HAND else (state.chips, 0)
        dealt = evolve(
            state,
            kind=kind,
            label=label,
            rounds=rules.rounds(kind),
            order=order,
            chips=chips,
            pot=pot,
            folded=(False,) * n,
            hands=betting.deal_hands(cards, order, rules.cards, n),
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
        return evolve(state, round_no=round_no, phase=state.rounds[round_no], **betting.new_round(state))

    # ---- queries -----------------------------------------------------------------

    def current_player(self, state: TriadState) -> int | None:
        return betting.current_seat(state)

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
        return [*(TriadAction(kind, amount) for kind, amount in betting.bet_options(state)), fold]

    # ---- actions -----------------------------------------------------------------

    def parse_action(self, text: str) -> TriadAction:
        kind, args = betting.split_action(
            text,
            _KINDS,
            Words(gettext_noop("'call' or 'discard G2 P3'"), {}),
            Words(gettext_noop("'check', 'bet 3', 'discard G2 P3' or 'fold'"), {}),
        )
        if kind in (BET, RAISE):
            return TriadAction(kind, betting.chips_arg(kind, args))
        if kind == DISCARD:
            if args == ["-"]:
                args = []
            cards = [arg.upper() for arg in args]
            unknown = [card for card, arg in zip(cards, args, strict=True) if card not in CODES]
            if unknown:
                raise IllegalAction(
                    gettext_noop("not Triad cards: %(cards)s; cards are P1..O3 and X ('discard G2 P3')"),
                    cards=unknown,
                )
            return TriadAction(DISCARD, cards=tuple(sort_cards(cards)))
        betting.no_args(kind, args)
        return TriadAction(kind)

    def _apply(self, state: TriadState, action: TriadAction) -> TriadState:
        if not isinstance(action, TriadAction):
            raise IllegalAction(gettext_noop("not a triad action: %(action)s"), action=repr(action))
        seat = betting.turn_of(state, action.kind)
        if seat is None:
            return self._tie_replay(state)
        if action.kind == FOLD:
            return self._fold(state, seat)
        if state.phase == BET:
            return self._bet_action(state, seat, action)
        if state.phase == DRAW:
            if action.kind != DISCARD:
                raise IllegalAction(
                    gettext_noop(
                        "seat %(seat)s is to draw: discard 0 to %(most)s cards ('discard G2 P3', "
                        "'discard -') or fold"
                    ),
                    seat=seat,
                    most=state.rules.max_discard,
                )
            return self._draw(state, seat, action.cards)
        if action.kind != SHOW:
            raise IllegalAction(
                gettext_noop("seat %(seat)s is at the showdown: 'show' the hand or 'fold'"), seat=seat
            )
        shown = put(state.shown, seat, True)
        return self._advance(evolve(state, shown=shown, acted=put(state.acted, seat, True)))

    def _bet_action(self, state: TriadState, seat: int, action: TriadAction) -> TriadState:
        if action.kind not in WAGERS:
            if action.kind == DISCARD:
                raise IllegalAction(
                    gettext_noop(
                        "seat %(seat)s is to act in a betting round (check, call, bet, raise or fold); "
                        "discarding comes in the draw"
                    ),
                    seat=seat,
                )
            raise IllegalAction(
                gettext_noop(
                    "seat %(seat)s is to act in a betting round (check, call, bet, raise or fold); "
                    "hands are shown at the showdown"
                ),
                seat=seat,
            )
        return self._advance(evolve(state, **betting.wager(state, seat, action.kind, action.amount)))

    def _draw(self, state: TriadState, seat: int, cards: tuple[str, ...]) -> TriadState:
        """TR-6: discard and be dealt as many; TR-9: an empty deck takes in the discards so far."""
        limit = state.rules.max_discard
        if len(cards) > limit:
            raise IllegalAction(
                gettext_noop("at most %(most)s cards may be discarded, not %(count)s"),
                most=limit,
                count=len(cards),
            )
        kept = _remove(state.hands[seat], cards)
        if kept is None:
            missing = Counter(cards) - Counter(state.hands[seat])
            raise IllegalAction(
                gettext_noop("seat %(seat)s does not hold %(cards)s"),
                seat=seat,
                cards=" ".join(missing.elements()),
            )
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
            evolve(
                state,
                hands=put(state.hands, seat, kept + drawn),
                deck=deck,
                pile=pile + cards,
                reshuffles=reshuffles,
                discarded=put(state.discarded, seat, (*state.discarded[seat], len(cards))),
                acted=put(state.acted, seat, True),
            )
        )

    def _fold(self, state: TriadState, seat: int) -> TriadState:
        """TR-8: a player may fold whenever it is their turn; the hand is mucked unseen."""
        return self._advance(
            evolve(
                state,
                folded=put(state.folded, seat, True),
                mucked=put(state.mucked, seat, state.hands[seat]),
                hands=put(state.hands, seat, ()),
                acted=put(state.acted, seat, True),
            )
        )

    def _advance(self, state: TriadState) -> TriadState:
        """Pass the turn, or end the round or the deal."""
        still_in = live(state)
        if len(still_in) == 1:
            return self._settle(state, still_in)
        to_act = betting.next_to_act(state)
        if to_act is not None:
            return evolve(state, to_act=to_act)
        if state.phase != SHOWDOWN:
            return self._start_round(state, state.round_no + 1)
        values = [hand_value(state.hands[seat]) for seat in still_in]
        best = max(values)
        return self._settle(
            state, [seat for seat, value in zip(still_in, values, strict=True) if value == best]
        )

    def _settle(self, state: TriadState, winners: list[int]) -> TriadState:
        """End a deal won by ``winners`` (more than one: tied after all kickers, TR-14)."""
        still_in = live(state)
        result = HandResult(
            hand=state.hand_no,
            kind=state.kind,
            pot=state.pot if state.kind == HAND else state.held,
            winners=tuple(winners),
            shown=tuple((seat, state.hands[seat]) for seat in state.order if state.shown[seat]),
            folded=tuple(seat for seat in state.order if state.folded[seat]),
            unseen=len(still_in) == 1 and not state.shown[still_in[0]],
        )
        state = evolve(state, last=result, to_act=None, bets=(0,) * state.rules.players)
        if state.kind == PLACE_TIE:
            return self._settle_places(state, still_in)
        if len(winners) > 1:
            return evolve(state, phase=TIE_REPLAY, held=state.held + state.pot, pot=0, tied=tuple(winners))
        chips = bump(state.chips, winners[0], state.pot + state.held)
        state = evolve(state, chips=chips, pot=0, held=0)
        if betting.match_over(state):
            return self._end_match(state)
        dealer = betting.next_dealer(chips, state.dealer)
        state = evolve(state, hand_no=state.hand_no + 1, dealer=dealer, replays=0)
        seats = tuple(seat for seat, c in enumerate(chips) if c)
        return self._deal(state, HAND, seats, (HAND, state.hand_no))

    def _tie_replay(self, state: TriadState) -> TriadState:
        """TR-14 / TR-15: the tied seats alone get a fresh deal: no ante, no betting."""
        replays = state.replays + 1
        label: tuple[str | int, ...] = (
            (TIE_REPLAY, state.hand_no, replays) if state.phase == TIE_REPLAY else (PLACE_TIE, replays)
        )
        kind = TIE_REPLAY if state.phase == TIE_REPLAY else PLACE_TIE
        return self._deal(evolve(state, replays=replays), kind, state.tied, label)

    def _end_match(self, state: TriadState) -> TriadState:
        """TR-15: rank by chips; equal stacks are settled by place tie-replays."""
        return self._next_place_tie(evolve(state, places=betting.places_by_chips(state.chips), replays=0))

    def _settle_places(self, state: TriadState, still_in: list[int]) -> TriadState:
        """Split the tied group by the place tie-replay: shown hands by value, then folded ones."""
        values = {seat: hand_value(state.hands[seat]) for seat in still_in}
        folded = tuple(seat for seat in state.order if state.folded[seat])
        places = betting.split_place(state.places, state.tied, values, folded)
        return self._next_place_tie(evolve(state, places=places))

    def _next_place_tie(self, state: TriadState) -> TriadState:
        return evolve(state, **betting.after_places(state.places))

    # ---- results and views -----------------------------------------------------

    def action_from_fields(self, fields: Mapping[str, object]) -> TriadAction:
        """A table form's fields: ``action``, with ``amount`` for a bet or raise, or the
        ``discard`` cards (none: stand pat)."""
        kind = fields.get("action")
        if not isinstance(kind, str) or not kind:
            raise IllegalAction(gettext_noop("no action was named"))
        if kind == DISCARD:
            cards = fields.get("discard") or []
            if isinstance(cards, str):
                cards = [cards]
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                raise IllegalAction(gettext_noop("a discard lists card texts such as 'G2'"))
            return self.parse_action(" ".join([DISCARD, *cards]) if cards else f"{DISCARD} -")
        if "amount" in fields:
            amount = fields["amount"]
            if isinstance(amount, bool) or not isinstance(amount, (int, str)):
                raise IllegalAction(gettext_noop("'%(kind)s' needs a whole number of chips"), kind=kind)
            return self.parse_action(f"{kind} {amount}")
        return self.parse_action(kind)

    def bot_action(self, view: TriadView, seed: int) -> str:
        from games.engine.triad_bot import choose  # the bot imports this module

        return choose(view, seed)

    def timeout_action(self, view: TriadView, seed: int) -> str:
        """LP-1: check if it may, else fold. Where a phase has no betting (the draw and the
        showdown), "check" is read as its no-cost counterpart: stand pat (``discard -``) and
        ``show``; folding there would throw away a hand for being slow, which is not what the
        rule is for."""
        legal = view.legal
        if not legal:
            raise ValueError("this seat has no move to make")
        return next((choice for choice in _TIMEOUT_PREFERENCE if choice in legal), FOLD)

    def outcome(self, state: TriadState) -> dict[str, Any] | None:
        """``{"winner", "ranking" (best first), "places" (per seat, 1 = first), "chips", "hands"}``."""
        if state.phase != OVER:
            return None
        return betting.match_result(state.places, state.chips, state.hand_no, state.forfeited)

    def forfeit(self, state: TriadState, seat: int) -> TriadState:
        """TN-6: the match ends now; ``seat`` is last, the others placed by their chips."""
        return replace(
            state, phase=OVER, to_act=None, places=betting.forfeit_places(state.chips, seat), forfeited=seat
        )

    def view(self, state: TriadState, seat: int | None) -> TriadView:
        """What ``seat`` may know (LP-3): its own cards, shown hands and, with ``face_up``,
        every hand; ``None`` or -1 is a spectator, who sees the public cards only."""
        if seat is not None and seat != TABLE_SEAT and not 0 <= seat < state.rules.players:
            raise ValueError(f"seat must be 0..{state.rules.players - 1}, None or -1, not {seat}")
        viewer = None if seat == TABLE_SEAT else seat
        return self._view(state, viewer, lambda s: s == viewer or state.rules.face_up or state.shown[s])

    def full_view(self, state: TriadState) -> TriadView:
        """Every card, folded hands, the deck order and the discard pile included: for
        replays of finished games."""
        return replace(
            self._view(state, None, lambda s: True, full=True),
            omniscient=True,
            deck=state.deck,
            discard_pile=state.pile,
        )

    def _view(
        self, state: TriadState, viewer: int | None, visible: Callable[[int], bool], full: bool = False
    ) -> TriadView:
        to_act = self.current_player(state)
        moves = (
            tuple(_move(a) for a in self.legal_actions(state))
            if viewer is not None and viewer == to_act
            else ()
        )
        to_call, min_bet, max_bet = betting.bet_terms(state)
        return TriadView(
            game=self.name,
            seat=viewer,
            config={key: getattr(state.rules, key) for key in OPTIONS},
            moves=moves,
            hand=state.hand_no,
            hands=state.rules.hands,
            deal=state.kind,
            phase=state.phase,
            rounds=state.rounds,
            round=state.round_no,
            draws_left=state.rounds[state.round_no + 1 :].count(DRAW) if state.phase in (BET, DRAW) else 0,
            dealer=state.dealer,
            to_act=to_act,
            pot=state.pot,
            held_pot=state.held,
            deck_count=len(state.deck),
            discard_count=len(state.pile),
            raises=state.raises,
            max_raises=state.rules.max_raises,
            max_discard=state.rules.max_discard,
            to_call=to_call,
            min_bet=min_bet,
            max_bet=max_bet,
            seats=tuple(_seat_view(state, s, visible(s), full) for s in range(state.rules.players)),
            cards=state.hands[viewer] if viewer is not None else None,
            tied=state.tied,
            places=state.places,
            last_result=_result_view(state.last),
            outcome=betting.match_outcome(self.outcome(state)),
        )


def _seat_view(state: TriadState, seat: int, visible: bool, full: bool) -> TriadSeat:
    hand, chips, in_deal = state.hands[seat], state.chips[seat], seat in state.order
    return _seat(
        seat,
        chips,
        state.bets[seat],
        in_deal,
        state.folded[seat],
        chips == 0 and not in_deal,
        len(hand),
        hand if visible else None,
        state.shown[seat],
        state.discarded[seat],
        state.mucked[seat] if full else None,
    )


@lru_cache(maxsize=4096)
def _seat(
    seat: int,
    chips: int,
    bet: int,
    in_deal: bool,
    folded: bool,
    out: bool,
    card_count: int,
    cards: tuple[str, ...] | None,
    shown: bool,
    discarded: tuple[int, ...],
    mucked: tuple[str, ...] | None,
) -> TriadSeat:
    """A seat as a view shows it. Kept: most of a view's seats are those of the view before,
    and making them anew, naming their hands, was most of a view's cost (a showdown's views
    are a third of what broadcast playouts spend on the bots, bench/broadcast.py)."""
    return TriadSeat(
        seat=seat,
        chips=chips,
        bet=bet,
        in_deal=in_deal,
        folded=folded,
        out=out,
        card_count=card_count,
        cards=cards,
        shown=shown,
        hand_name=hand_name(cards) if cards else None,
        discarded=discarded,
        mucked=mucked,
    )


@lru_cache(maxsize=4096)
def _move(action: TriadAction) -> Move:
    """An action as a page offers it. Kept: a betting round offers every bet size and a draw
    every discard, again in each view of the round (broadcast playouts build views by the
    hundred thousand, bench/broadcast.py)."""
    return action.move()


@lru_cache(maxsize=64)
def _result_view(result: HandResult | None) -> TriadResult | None:
    """Kept: every view until the next deal ends shows the same result, and naming its
    shown hands is a third of making a view."""
    if result is None:
        return None
    return TriadResult(
        hand=result.hand,
        deal=result.kind,
        pot=result.pot,
        winners=result.winners,
        tie=len(result.winners) > 1,
        unseen=result.unseen,
        folded=result.folded,
        shown=tuple(_shown(seat, cards) for seat, cards in result.shown),
    )


def _shown(seat: int, cards: tuple[str, ...]) -> TriadShownHand:
    pyramid, kickers = pyramid_split(cards)
    return TriadShownHand(
        seat=seat, cards=cards, name=hand_name(cards), pyramid=tuple(pyramid), kickers=tuple(kickers)
    )


@lru_cache(maxsize=1024)
def _discards(hand: tuple[str, ...], limit: int) -> tuple[tuple[str, ...], ...]:
    """Every distinct multiset of up to ``limit`` cards of ``hand``: fewest first, then best
    cards first. Kept by hand: up to a few hundred of them, in every view of a draw."""
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
    return tuple(sorted(found, key=lambda cards: (len(cards), [-CODES[c] for c in cards])))


ENGINE = TriadEngine()
