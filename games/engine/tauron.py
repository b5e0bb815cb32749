"""Tauron Hold-Em (RULES.md section 6, TH-1..TH-6): Triad's deck, hands and betting, with
two hole cards each and six shared cards.

One game is a whole match (TR-15): hands follow each other until one seat holds every
chip or ``hands`` hands have been played; players then rank by chips, and seats equal in
chips play place tie-replay hands. Seats are numbered 0..players-1 clockwise, so "left of
seat s" is seat s+1. The first hand's dealer is seat 0; the button then moves to the next
seat that still has chips (TH-1).

A hand (TH-2, TH-3): every seat dealt in antes (TR-4); two hole cards each, one at a time
from the left of the dealer; a betting round; the first three shared cards (the board);
a round; two more; a round; the capstone card; a round; then the showdown, where in deal
order each player still in shows or folds (TR-7). Betting is Triad's (TR-8, shared in
``betting``). The shared cards are the six cards under the hole cards, in order: a stage
is turned up when the round before it ends. A hand's value is ``triad_hands.hand_value``
of the two hole cards with the six shared cards (TH-4).

Ties (TH-5, TR-14): the pot is held and the table (``TABLE_SEAT``) deals the tied seats a
tie-replay hand: fresh hole cards and all six shared cards at once, no ante, no betting,
straight to the showdown; it repeats while tied.

Randomness (all from the seed): the deck of hand k is
``rng.shuffled(DECK, derive_seed(seed, "hand", k))``; the r-th tie-replay deal of hand k
uses the label ``("tie-replay", k, r)``; the r-th place tie-replay at the end uses
``("place-tie", r)`` (Triad's labels). A caller's ``deck`` replaces the first hand's deck.

Hidden information (LP-3): ``view(state, seat)`` shows a seat its own hole cards, the
board and the hands shown at the showdown; a spectator sees the board and shown hands
only. ``full_view(state)`` shows everything but the seed (every hole, folded hands, the
deck order); it is meant for replays of finished games only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.engine import betting
from games.engine.base import TABLE_SEAT, Engine, IllegalAction, Move, View, Words, check_seed, gettext_noop
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
from games.engine.config import resolve
from games.engine.rng import derive_seed, shuffled
from games.engine.triad import OPTIONS as TRIAD_OPTIONS
from games.engine.triad_hands import DECK, best_pyramid_name, hand_name, hand_value, pyramid_split

__all__ = [
    "DECK",
    "ENGINE",
    "ShownHand",
    "TauronAction",
    "TauronEngine",
    "TauronOutcome",
    "TauronResult",
    "TauronSeat",
    "TauronState",
    "TauronView",
]

OPTIONS = {key: TRIAD_OPTIONS[key] for key in ("players", "ante", "stack", "max_bet", "max_raises", "hands")}
"""Triad's table options, the same bounds: Tauron has no draw and no face-up variant."""

HOLE = 2
STAGES = (0, 3, 5, 6)
"""Shared cards out during each of the four betting rounds (TH-2, TH-3)."""
BOARD = STAGES[-1]
SHOWDOWN_ROUND = len(STAGES)

_KINDS = (CHECK, CALL, BET, RAISE, FOLD, SHOW, TIE_REPLAY)
_SIZED = (BET, RAISE)


@dataclass(frozen=True)
class TauronAction:
    """``check``, ``call``, ``bet N``, ``raise N`` (N chips on top of the call), ``fold``,
    ``show``, and the table's ``tie-replay``."""

    kind: str
    amount: int = 0

    def __str__(self) -> str:
        return f"{self.kind} {self.amount}" if self.kind in _SIZED else self.kind

    def move(self) -> Move:
        return Move(str(self), self.kind, amount=self.amount if self.kind in _SIZED else None)


# ---- the view's parts (also kept in the state: a result holds only public cards) ------------


@dataclass(frozen=True, kw_only=True)
class ShownHand:
    """A hand shown at the showdown: the hole cards and the best pyramid of hole + board."""

    seat: int
    hole: tuple[str, ...]
    name: str
    pyramid: tuple[str, ...]
    kickers: tuple[str, ...]
    """The cards left out of the pyramid, best first (TR-13)."""


@dataclass(frozen=True, kw_only=True)
class TauronResult(DealResult):
    """How a deal ended, kept for display until the next deal ends."""

    board: tuple[str, ...]
    shown: tuple[ShownHand, ...]


@dataclass(frozen=True, kw_only=True)
class TauronSeat(SeatChips):
    hole: tuple[str, ...] | None
    """``None`` unless visible to the viewer: its own, or shown (LP-3)."""
    shown: bool
    hand_name: str | None
    """The best pyramid of the visible hole cards with the board so far."""
    mucked: tuple[str, ...] | None = None
    """A folded hole, in a full view only."""


TauronOutcome = MatchOutcome
"""How the match ended: the outcome type Tauron shares with Triad."""


@dataclass(frozen=True, kw_only=True)
class TauronView(View):
    """What one seat may know (LP-3). ``phase`` is ``bet``, ``showdown``, ``tie-replay`` or
    ``place-tie`` (the table is to deal one), or ``over``; ``stage`` is how many shared
    cards are out (0, 3, 5, 6); ``to_call``, ``min_bet``, ``max_bet`` are for the seat to
    act in a betting round (``min_bet``/``max_bet`` ``None`` when no bet or raise is possible);
    ``hole`` is the viewer's own hole cards. ``omniscient`` and ``deck`` are set in a full view."""

    hand: int
    hands: int
    deal: str
    phase: str
    stage: int
    board: tuple[str, ...]
    dealer: int
    to_act: int | None
    pot: int
    held_pot: int
    deck_count: int
    raises: int
    max_raises: int
    to_call: int | None
    min_bet: int | None
    max_bet: int | None
    seats: tuple[TauronSeat, ...]
    hole: tuple[str, ...] | None
    tied: tuple[int, ...]
    places: tuple[tuple[int, ...], ...]
    last_result: TauronResult | None
    outcome: TauronOutcome | None
    omniscient: bool = False
    deck: tuple[str, ...] | None = None


@dataclass(frozen=True)
class TauronState:
    rules: TableRules
    seed: int
    chips: tuple[int, ...]
    hand_no: int
    dealer: int
    kind: str
    pot: int
    held: int
    """A pot held for a tie-replay hand (TR-14)."""
    phase: str
    round_no: int
    """0..3 the betting rounds, 4 the showdown."""
    to_act: int | None
    order: tuple[int, ...]
    """Seats dealt into this deal, in deal order (left of the dealer first)."""
    folded: tuple[bool, ...]
    holes: tuple[tuple[str, ...], ...]
    mucked: tuple[tuple[str, ...], ...]
    """Folded holes, never shown (TR-7)."""
    shown: tuple[bool, ...]
    board: tuple[str, ...]
    deck: tuple[str, ...]
    """The undealt cards, top first: the shared cards still to come are on top."""
    bets: tuple[int, ...]
    acted: tuple[bool, ...]
    raises: int
    replays: int
    tied: tuple[int, ...]
    places: tuple[tuple[int, ...], ...]
    """At the end of the match: seats grouped by place, best first (TR-15)."""
    last: TauronResult | None
    forfeited: int | None = None
    """TN-6: the seat that lost the match by forfeit (``forfeit``), which ended it."""


class TauronEngine(Engine[TauronState, TauronAction]):
    name = "tauron"
    version = 1
    min_players = 2
    max_players = 6
    options = OPTIONS

    # ---- setup -------------------------------------------------------------------

    def normalize_config(self, config: dict[str, Any] | None) -> dict[str, Any]:
        return betting.check_ante(self.name, resolve(self.name, config, OPTIONS))

    def initial_state(
        self, config: dict[str, Any] | None = None, seed: int = 0, deck: Sequence[str] | None = None
    ) -> TauronState:
        rules = TableRules(**self.normalize_config(config))
        check_seed(seed)
        fixed = None if deck is None else check_deck(deck, DECK, "a tauron deck")
        n = rules.players
        nobody: tuple[tuple[str, ...], ...] = ((),) * n
        no = (False,) * n
        # The fields of the first deal are placeholders here, which ``_deal`` fills in.
        state = TauronState(
            rules=rules,
            seed=seed,
            chips=(rules.stack,) * n,
            hand_no=1,
            dealer=0,
            replays=0,
            tied=(),
            places=(),
            last=None,
            kind=HAND,
            holes=nobody,
            mucked=nobody,
            board=(),
            deck=(),
            order=(),
            folded=no,
            shown=no,
            pot=0,
            held=0,
            phase=BET,
            round_no=0,
            to_act=None,
            bets=(0,) * n,
            acted=no,
            raises=0,
        )
        return self._deal(state, HAND, tuple(range(n)), (HAND, 1), fixed)

    def _deal(
        self,
        state: TauronState,
        kind: str,
        seats: tuple[int, ...],
        label: tuple[str | int, ...],
        fixed: tuple[str, ...] | None = None,
    ) -> TauronState:
        """TH-2: two hole cards each, one at a time from the left of the dealer; the shared
        cards wait on top of the deck. A tie-replay hand has no betting (TH-5): its six
        shared cards come at once and the showdown follows."""
        n = state.rules.players
        cards = fixed if fixed is not None else tuple(shuffled(DECK, derive_seed(state.seed, *label)))
        order = betting.deal_order(state.dealer, n, seats)
        rest = cards[HOLE * len(order) :]
        board = () if kind == HAND else rest[:BOARD]
        chips, pot = (
            betting.take_antes(state.rules.ante, state.chips, order) if kind == HAND else (state.chips, 0)
        )
        dealt = replace(
            state,
            kind=kind,
            holes=betting.deal_hands(cards, order, HOLE, n),
            board=board,
            deck=rest[len(board) :],
            mucked=((),) * n,
            order=order,
            folded=(False,) * n,
            shown=(False,) * n,
            chips=chips,
            pot=pot,
            tied=() if kind == HAND else state.tied,
        )
        return self._start_round(dealt, 0 if kind == HAND else SHOWDOWN_ROUND)

    def _start_round(self, state: TauronState, round_no: int) -> TauronState:
        """TH-3: a betting round after the hole cards and after each stage, which is turned
        up as the round starts; then the showdown."""
        if round_no < SHOWDOWN_ROUND:
            turned = STAGES[round_no] - len(state.board)
            state = replace(state, board=state.board + state.deck[:turned], deck=state.deck[turned:])
        phase = BET if round_no < SHOWDOWN_ROUND else SHOWDOWN
        return replace(state, round_no=round_no, phase=phase, **betting.new_round(state))

    # ---- queries -----------------------------------------------------------------

    def current_player(self, state: TauronState) -> int | None:
        return betting.current_seat(state)

    def legal_actions(self, state: TauronState) -> list[TauronAction]:
        if state.phase == OVER:
            return []
        if state.phase in (TIE_REPLAY, PLACE_TIE):
            return [TauronAction(TIE_REPLAY)]
        fold = TauronAction(FOLD)
        if state.phase == SHOWDOWN:
            return [TauronAction(SHOW), fold]
        return [*(TauronAction(kind, amount) for kind, amount in betting.bet_options(state)), fold]

    def value(self, state: TauronState, seat: int) -> int:
        """TH-4: the value of the seat's hole cards with the six shared cards."""
        return hand_value(state.holes[seat] + state.board)

    # ---- actions -----------------------------------------------------------------

    def parse_action(self, text: str) -> TauronAction:
        kind, args = betting.split_action(
            text,
            _KINDS,
            Words(gettext_noop("'call' or 'bet 3'"), {}),
            Words(gettext_noop("'check', 'call', 'bet 3' or 'fold'"), {}),
        )
        if kind in _SIZED:
            return TauronAction(kind, betting.chips_arg(kind, args))
        betting.no_args(kind, args)
        return TauronAction(kind)

    def action_from_fields(self, fields: Mapping[str, object]) -> TauronAction:
        """A form's fields: ``{"action": "bet", "amount": "5"}`` (the amount a text or a whole
        number) is ``bet 5``; without an amount, the ``action`` field is the action's text."""
        amount = fields.get("amount")
        if amount is None or amount == "":
            return super().action_from_fields(fields)
        kind = fields.get("action")
        if not isinstance(kind, str) or kind.strip().lower() not in _SIZED:
            raise IllegalAction(gettext_noop("only a bet or a raise takes an amount of chips"))
        if isinstance(amount, bool) or not isinstance(amount, int | str):
            raise IllegalAction(
                gettext_noop("'%(kind)s' needs a whole number of chips, not %(amount)s"),
                kind=kind.strip().lower(),
                amount=repr(amount),
            )
        return self.parse_action(f"{kind.strip()} {str(amount).strip()}")

    def _apply(self, state: TauronState, action: TauronAction) -> TauronState:
        if not isinstance(action, TauronAction):
            raise IllegalAction(gettext_noop("not a tauron action: %(action)s"), action=repr(action))
        seat = betting.turn_of(state, action.kind)
        if seat is None:
            return self._tie_replay(state)
        if action.kind == FOLD:
            return self._fold(state, seat)
        if state.phase == BET:
            if action.kind not in WAGERS:
                raise IllegalAction(
                    gettext_noop(
                        "seat %(seat)s is to act in a betting round (check, call, bet, raise or fold); "
                        "hands are shown at the showdown"
                    ),
                    seat=seat,
                )
            return self._advance(replace(state, **betting.wager(state, seat, action.kind, action.amount)))
        if action.kind != SHOW:
            raise IllegalAction(
                gettext_noop("seat %(seat)s is at the showdown: 'show' the hand or 'fold'"), seat=seat
            )
        return self._advance(
            replace(state, shown=put(state.shown, seat, True), acted=put(state.acted, seat, True))
        )

    def _fold(self, state: TauronState, seat: int) -> TauronState:
        """TR-8: a player may fold whenever it is their turn; the hole is mucked unseen (TR-7)."""
        mucked = put(state.mucked, seat, state.holes[seat])
        folded = put(state.folded, seat, True)
        holes = put(state.holes, seat, ())
        return self._advance(
            replace(state, folded=folded, mucked=mucked, holes=holes, acted=put(state.acted, seat, True))
        )

    def _advance(self, state: TauronState) -> TauronState:
        """Pass the turn, or end the round, or the deal at its showdown or when one is left."""
        still_in = live(state)
        to_act = betting.next_to_act(state) if len(still_in) > 1 else None
        if to_act is not None:
            return replace(state, to_act=to_act)
        if len(still_in) == 1:
            return self._settle(state, still_in)  # TR-8: the last player in wins unseen
        if state.round_no < SHOWDOWN_ROUND:
            return self._start_round(state, state.round_no + 1)
        return self._settle(state, self._best(state, still_in))

    def _best(self, state: TauronState, seats: list[int]) -> list[int]:
        """The seats with the best hand (TH-4); more than one are tied after all kickers."""
        values = {seat: self.value(state, seat) for seat in seats}
        best = max(values.values())
        return [seat for seat in seats if values[seat] == best]

    def _settle(self, state: TauronState, winners: list[int]) -> TauronState:
        """End a deal won by ``winners``; more than one are tied after all kickers (TH-5)."""
        result = _result(state, winners)
        state = replace(state, last=result, to_act=None, bets=(0,) * state.rules.players, raises=0)
        if state.kind == PLACE_TIE:
            values = {seat: self.value(state, seat) for seat in live(state)}
            places = betting.split_place(state.places, state.tied, values, result.folded)
            return replace(state, places=places, **betting.after_places(places))
        if result.tie:
            return replace(state, phase=TIE_REPLAY, held=state.held + state.pot, pot=0, tied=result.winners)
        chips = bump(state.chips, winners[0], state.pot + state.held)
        state = replace(state, chips=chips, pot=0, held=0, replays=0)
        if betting.match_over(state):
            places = betting.places_by_chips(chips)
            return replace(state, places=places, **betting.after_places(places))
        state = replace(state, hand_no=state.hand_no + 1, dealer=betting.next_dealer(chips, state.dealer))
        return self._deal(
            state, HAND, tuple(seat for seat, c in enumerate(chips) if c), (HAND, state.hand_no)
        )

    def _tie_replay(self, state: TauronState) -> TauronState:
        """TH-5 / TR-14 / TR-15: the tied seats alone get a fresh deal: no ante, no betting."""
        replays = state.replays + 1
        label: tuple[str | int, ...] = (
            (TIE_REPLAY, state.hand_no, replays) if state.phase == TIE_REPLAY else (PLACE_TIE, replays)
        )
        return self._deal(replace(state, replays=replays), state.phase, state.tied, label)

    # ---- bots and clocks (LP-1, LP-4, TH-6) ----------------------------------------

    def bot_action(self, view: Any, seed: int) -> str:
        from games.engine.tauron_bot import choose  # the bot imports this module

        return choose(view, seed)

    def timeout_action(self, view: Any, seed: int) -> str:
        """LP-1 / TH-6: check if possible, else fold; at the showdown show, since folding
        there would throw away a hand for being slow, which is not what the rule is for."""
        legal = view.legal
        for choice in (CHECK, SHOW, FOLD):
            if choice in legal:
                return choice
        raise ValueError("this seat has no move to make")

    # ---- results and views -----------------------------------------------------

    def outcome(self, state: TauronState) -> dict[str, Any] | None:
        """``{"winner", "ranking" (best first), "places" (per seat, 1 = first), "chips", "hands"}``."""
        if state.phase != OVER:
            return None
        return betting.match_result(state.places, state.chips, state.hand_no, state.forfeited)

    def forfeit(self, state: TauronState, seat: int) -> TauronState:
        """TN-6: the match ends now; ``seat`` is last, the others placed by their chips."""
        return replace(
            state, phase=OVER, to_act=None, places=betting.forfeit_places(state.chips, seat), forfeited=seat
        )

    def view(self, state: TauronState, seat: int | None) -> TauronView:
        """What ``seat`` may know (LP-3): its own hole cards, the board, shown hands; ``None``
        or -1 is a spectator."""
        if seat is not None and seat != TABLE_SEAT and not 0 <= seat < state.rules.players:
            raise ValueError(f"seat must be 0..{state.rules.players - 1}, None or -1, not {seat}")
        viewer = None if seat == TABLE_SEAT else seat
        return self._view(state, viewer, lambda s: s == viewer or state.shown[s])

    def full_view(self, state: TauronState) -> TauronView:
        """Every card, folded holes and the deck order included: for replays of finished games."""
        return replace(self._view(state, None, lambda s: True, full=True), omniscient=True, deck=state.deck)

    def _view(
        self, state: TauronState, viewer: int | None, visible: Callable[[int], bool], full: bool = False
    ) -> TauronView:
        to_act = self.current_player(state)
        moves = (
            tuple(a.move() for a in self.legal_actions(state))
            if viewer is not None and viewer == to_act
            else ()
        )
        to_call, min_bet, max_bet = betting.bet_terms(state)
        return TauronView(
            game=self.name,
            seat=viewer,
            config={key: getattr(state.rules, key) for key in OPTIONS},
            moves=moves,
            hand=state.hand_no,
            hands=state.rules.hands,
            deal=state.kind,
            phase=state.phase,
            stage=len(state.board),
            board=state.board,
            dealer=state.dealer,
            to_act=to_act,
            pot=state.pot,
            held_pot=state.held,
            deck_count=len(state.deck),
            raises=state.raises,
            max_raises=state.rules.max_raises,
            to_call=to_call,
            min_bet=min_bet,
            max_bet=max_bet,
            seats=tuple(_seat_view(state, s, visible(s), full) for s in range(state.rules.players)),
            hole=state.holes[viewer] if viewer is not None else None,
            tied=state.tied,
            places=state.places,
            last_result=state.last,
            outcome=self._outcome_view(state),
        )

    def _outcome_view(self, state: TauronState) -> TauronOutcome | None:
        return betting.match_outcome(self.outcome(state))


def _seat_view(state: TauronState, seat: int, visible: bool, full: bool) -> TauronSeat:
    hole = state.holes[seat] if visible else None
    return TauronSeat(
        seat=seat,
        chips=state.chips[seat],
        bet=state.bets[seat],
        in_deal=seat in state.order,
        folded=state.folded[seat],
        out=state.chips[seat] == 0 and seat not in state.order,
        card_count=len(state.holes[seat]),
        hole=hole,
        shown=state.shown[seat],
        hand_name=best_pyramid_name(hole + state.board) if hole else None,
        mucked=state.mucked[seat] if full else None,
    )


def _result(state: TauronState, winners: list[int]) -> TauronResult:
    still_in = live(state)
    return TauronResult(
        hand=state.hand_no,
        deal=state.kind,
        pot=state.pot if state.kind == HAND else state.held,
        board=state.board,
        winners=tuple(winners),
        tie=len(winners) > 1,
        unseen=len(still_in) == 1 and not state.shown[still_in[0]],
        folded=tuple(seat for seat in state.order if state.folded[seat]),
        shown=tuple(
            _shown(seat, state.holes[seat], state.board) for seat in state.order if state.shown[seat]
        ),
    )


def _shown(seat: int, hole: tuple[str, ...], board: tuple[str, ...]) -> ShownHand:
    pyramid, kickers = pyramid_split(hole + board)
    return ShownHand(
        seat=seat,
        hole=hole,
        name=hand_name(hole + board),
        pyramid=tuple(pyramid),
        kickers=tuple(kickers),
    )


ENGINE = TauronEngine()
