"""Poker-style betting and the match around it: what Triad and Tauron Hold-Em share.

Triad's rules for the ante (TR-4), a betting round (TR-8), tie-replay hands (TR-14) and
the match (TR-15) are Tauron's too (TH-1, TH-3, TH-5). The functions here read a state
through ``Table``, the fields both engines' states have, and return values or the state
fields they change; each engine puts those into its own state with ``dataclasses.replace``.
Their views share ``MatchOutcome``, the typed form of ``outcome_of``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from games.engine.base import TABLE_SEAT, IllegalAction, Words, and_words, gettext_noop

HAND, TIE_REPLAY, PLACE_TIE, OVER = "hand", "tie-replay", "place-tie", "over"
"""Deal kinds (``HAND``, ``TIE_REPLAY``, ``PLACE_TIE``) and the phases at which the table
deals a tie-replay hand (``TIE_REPLAY``, ``PLACE_TIE``) or nothing is left (``OVER``)."""
BET, SHOWDOWN = "bet", "showdown"
CHECK, CALL, RAISE, FOLD, SHOW = "check", "call", "raise", "fold", "show"
WAGERS = (CHECK, CALL, BET, RAISE)

_MAX_CHIP_DIGITS = 9
"""No stack comes near a billion chips; longer texts would only reach ``int()``'s own
4,300-digit limit, which raises a plain ``ValueError``."""

T = TypeVar("T")


@dataclass(frozen=True)
class TableRules:
    """The options every betting game has (TR-4, TR-8, TR-15)."""

    players: int
    ante: int
    stack: int
    max_bet: int | None
    max_raises: int
    hands: int


class Table(Protocol):
    """The state fields betting and the match read: both engines' states have them. ``order``
    is the seats dealt into this deal in deal order; ``bets`` the chips each put in this round."""

    @property
    def rules(self) -> TableRules: ...
    @property
    def phase(self) -> str: ...
    @property
    def hand_no(self) -> int: ...
    @property
    def chips(self) -> tuple[int, ...]: ...
    @property
    def pot(self) -> int: ...
    @property
    def order(self) -> tuple[int, ...]: ...
    @property
    def folded(self) -> tuple[bool, ...]: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def bets(self) -> tuple[int, ...]: ...
    @property
    def acted(self) -> tuple[bool, ...]: ...
    @property
    def raises(self) -> int: ...
    @property
    def tied(self) -> tuple[int, ...]: ...


# ---- small values -----------------------------------------------------------------


def check_ante(game: str, config: dict[str, Any]) -> dict[str, Any]:
    """``config`` if its ante fits in a stack (TR-4), else ``ValueError``."""
    if config["ante"] > config["stack"]:
        raise ValueError(f"{game} config option 'ante' ({config['ante']}) may not exceed 'stack'")
    return config


def chip_count(text: str) -> int | None:
    """``text`` as a number of chips, or ``None``. ASCII digits only: ``str.isdigit`` also
    accepts '³' (which ``int()`` refuses) and Arabic-Indic or fullwidth digits (which it
    reads), and an action's text must be its canonical form (TR-8's 'bet N')."""
    if not (text.isascii() and text.isdigit()) or len(text) > _MAX_CHIP_DIGITS:
        return None
    return int(text)


# bump and put slice rather than rebuild the tuple item by item: broadcast playouts
# (bench/broadcast.py) call them millions of times a match, and a generator was most of them.
def bump(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    if not 0 <= seat < len(values):
        return values
    return (*values[:seat], values[seat] + delta, *values[seat + 1 :])


def put(values: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    if not 0 <= seat < len(values):
        return values
    return (*values[:seat], value, *values[seat + 1 :])


def seat_list(seats: Sequence[int]) -> Words:
    """ "seat 1 and seat 2", "seat 0, seat 1 and seat 3", as words the site can translate."""
    return and_words([Words(gettext_noop("seat %(seat)s"), {"seat": seat}) for seat in seats])


# ---- action texts ---------------------------------------------------------------------


def split_action(text: str, kinds: Sequence[str], such_as: Words, examples: Words) -> tuple[str, list[str]]:
    """An action text's kind (lower case) and its words after it; ``IllegalAction`` if the
    text is not text, is empty or names no kind of ``kinds``."""
    if not isinstance(text, str):
        raise IllegalAction(
            gettext_noop("an action must be text such as %(such_as)s, not %(text)s"),
            such_as=such_as,
            text=repr(text),
        )
    words = text.split()
    if not words:
        raise IllegalAction(gettext_noop("an empty action; try %(examples)s"), examples=examples)
    kind = words[0].lower()
    if kind not in kinds:
        raise IllegalAction(
            gettext_noop("unknown action %(action)s; actions are %(kinds)s"),
            action=repr(words[0]),
            kinds=", ".join(kinds),
        )
    return kind, words[1:]


def chips_arg(kind: str, args: Sequence[str]) -> int:
    """The chips of ``bet N`` / ``raise N`` (TR-8); ``IllegalAction`` unless one whole number >= 1."""
    amount = chip_count(args[0]) if len(args) == 1 else None
    if amount is None or amount < 1:
        raise IllegalAction(
            gettext_noop("'%(kind)s' needs a whole number of chips, at least 1, e.g. '%(kind)s 3'"), kind=kind
        )
    return amount


def no_args(kind: str, args: Sequence[str]) -> None:
    if args:
        raise IllegalAction(gettext_noop("'%(kind)s' takes nothing after it"), kind=kind)


# ---- a deal ---------------------------------------------------------------------------


def deal_order(dealer: int, players: int, seats: Sequence[int]) -> tuple[int, ...]:
    """``seats`` in deal order: left of the dealer first, the dealer last (TR-5, TH-2)."""
    return tuple(seat for step in range(1, players + 1) if (seat := (dealer + step) % players) in seats)


def deal_hands(
    cards: Sequence[str], order: Sequence[int], size: int, players: int
) -> tuple[tuple[str, ...], ...]:
    """``size`` cards to each seat of ``order`` from the top, one at a time round the table."""
    hands: list[tuple[str, ...]] = [()] * players
    for index, seat in enumerate(order):
        hands[seat] = tuple(cards[index : size * len(order) : len(order)])
    return tuple(hands)


def take_antes(ante: int, chips: tuple[int, ...], order: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """The stacks after everyone dealt in antes, and the pot (TR-4).

    A short stack lowers the ante for all, since there are no all-ins.
    """
    ante = min(ante, *(chips[seat] for seat in order))
    return tuple(c - ante if seat in order else c for seat, c in enumerate(chips)), ante * len(order)


def live(state: Table) -> list[int]:
    """The seats still in the deal, in deal order."""
    folded = state.folded
    return [seat for seat in state.order if not folded[seat]]


def new_round(state: Table) -> dict[str, Any]:
    """The fields of a fresh betting (or showdown) round: the first seat still in opens (TR-8)."""
    n = state.rules.players
    return {"to_act": live(state)[0], "bets": (0,) * n, "acted": (False,) * n, "raises": 0}


def current_seat(state: Table) -> int | None:
    """The seat to act, ``TABLE_SEAT`` while the table is to deal a tie-replay hand (TR-14,
    TR-15), ``None`` once the match is over."""
    if state.phase == OVER:
        return None
    if state.phase in (TIE_REPLAY, PLACE_TIE):
        return TABLE_SEAT
    return state.to_act


def turn_of(state: Table, kind: str) -> int | None:
    """Who takes an action of ``kind`` now: the seat to act, or ``None`` for the table's
    tie-replay deal (TR-14, TR-15); ``IllegalAction`` if it is not their action to take."""
    if state.phase == OVER:
        raise IllegalAction(gettext_noop("the match is over; no more actions"))
    if state.phase in (TIE_REPLAY, PLACE_TIE):
        if kind != TIE_REPLAY:
            raise IllegalAction(
                gettext_noop(
                    "%(seats)s are tied; the table deals them a tie-replay hand ('tie-replay') "
                    "before anyone acts"
                ),
                seats=seat_list(state.tied),
            )
        return None
    seat = state.to_act
    assert seat is not None
    if kind == TIE_REPLAY:
        raise IllegalAction(
            gettext_noop("'tie-replay' is the table's action after a tie; seat %(seat)s is to act"), seat=seat
        )
    return seat


# ---- a betting round (TR-8) -------------------------------------------------------------


def bet_limits(state: Table) -> tuple[int, int, str] | None:
    """(smallest, largest, why largest) for a bet or raise by the seat to act, or ``None``."""
    seat = state.to_act
    assert seat is not None
    high = max(state.bets)
    to_call = high - state.bets[seat]
    if high and state.raises >= state.rules.max_raises:
        return None
    if state.rules.max_bet is not None:
        limit, why = state.rules.max_bet, gettext_noop("the table's max_bet")
    else:
        # Pot limit: a raise may add the pot as it stands after the call.
        limit, why = state.pot + to_call, gettext_noop("the pot limit")
    # TR-8: nothing beyond what every player still in can match, so no all-ins, no side pots.
    cap = min(state.bets[p] + state.chips[p] for p in live(state)) - high
    if cap < limit:
        limit, why = cap, gettext_noop("what every player still in can match")
    return (1, limit, why) if limit >= 1 else None


def bet_options(state: Table) -> list[tuple[str, int]]:
    """The seat to act's wagers as (kind, chips), fold aside: check or call, then each bet or raise."""
    seat = state.to_act
    assert seat is not None
    high = max(state.bets)
    options = [(CALL if high > state.bets[seat] else CHECK, 0)]
    limits = bet_limits(state)
    if limits is not None:
        kind = RAISE if high else BET
        options += [(kind, amount) for amount in range(limits[0], limits[1] + 1)]
    return options


def bet_terms(state: Table) -> tuple[int | None, int | None, int | None]:
    """(to call, smallest bet, largest bet) for the seat to act in a betting round, for views."""
    if state.phase != BET or state.to_act is None:
        return None, None, None
    limits = bet_limits(state)
    to_call = max(state.bets) - state.bets[state.to_act]
    return (to_call, limits[0], limits[1]) if limits else (to_call, None, None)


def wager(state: Table, seat: int, kind: str, amount: int) -> dict[str, Any]:
    """The fields a check, call, bet or raise of ``amount`` changes; ``IllegalAction`` if TR-8 forbids it."""
    high = max(state.bets)
    to_call = high - state.bets[seat]
    if kind == CHECK and to_call:
        raise IllegalAction(
            gettext_noop("seat %(seat)s cannot check: %(to_call)s chips to call"), seat=seat, to_call=to_call
        )
    if kind == CALL and not to_call:
        raise IllegalAction(gettext_noop("seat %(seat)s has nothing to call; check instead"), seat=seat)
    if kind == BET and high:
        raise IllegalAction(
            gettext_noop("there is already a bet of %(high)s this round; call, raise or fold"), high=high
        )
    if kind == RAISE and not high:
        raise IllegalAction(gettext_noop("there is no bet to raise this round; bet instead"))
    raises = state.raises
    acted = put(state.acted, seat, True)
    if kind in (BET, RAISE):
        _check_size(state, kind, amount)
        raises += kind == RAISE
        # Everyone else must answer the new bet.
        acted = tuple(p == seat for p in range(state.rules.players))
    put_in = to_call + (amount if kind in (BET, RAISE) else 0)
    return {
        "chips": bump(state.chips, seat, -put_in),
        "bets": bump(state.bets, seat, put_in),
        "pot": state.pot + put_in,
        "raises": raises,
        "acted": acted,
    }


def _check_size(state: Table, kind: str, amount: int) -> None:
    limits = bet_limits(state)
    if limits is None:
        if kind == RAISE and state.raises >= state.rules.max_raises:
            raise IllegalAction(
                gettext_noop("no more raises this round: the limit is %(limit)s"),
                limit=state.rules.max_raises,
            )
        if kind == RAISE:
            raise IllegalAction(gettext_noop("no raise is possible: a player still in has no chips left"))
        raise IllegalAction(gettext_noop("no bet is possible: a player still in has no chips left"))
    if amount < limits[0]:
        if kind == RAISE:
            raise IllegalAction(gettext_noop("a raise is at least %(least)s chip"), least=limits[0])
        raise IllegalAction(gettext_noop("a bet is at least %(least)s chip"), least=limits[0])
    if amount > limits[1]:
        why = Words(limits[2], {})
        if kind == RAISE:
            raise IllegalAction(
                gettext_noop("a raise may not exceed %(most)s chips now (%(why)s)"), most=limits[1], why=why
            )
        raise IllegalAction(
            gettext_noop("a bet may not exceed %(most)s chips now (%(why)s)"), most=limits[1], why=why
        )


def next_to_act(state: Table) -> int | None:
    """The next seat that still has to act this round, left of the one that just did; ``None``
    once every player still in has acted and matched the highest bet (TR-8)."""
    bets, acted, folded, order = state.bets, state.acted, state.folded, state.order
    high = max(bets)
    # One pass round the ring from the seat that just acted, which is always dealt in: no
    # lists on the way (broadcast playouts ask this after every action, bench/broadcast.py).
    current = order.index(state.to_act)
    for seat in order[current + 1 :] + order[: current + 1]:
        if not folded[seat] and (not acted[seat] or bets[seat] < high):
            return seat
    return None


# ---- the match (TR-15) ------------------------------------------------------------------


def match_over(state: Table) -> bool:
    """After a hand is paid: the last hand is played or one seat holds every chip (TR-15)."""
    return state.hand_no >= state.rules.hands or sum(1 for c in state.chips if c) == 1


def next_dealer(chips: tuple[int, ...], dealer: int) -> int:
    """The button moves left to the next seat that still has chips (TR-4, TH-1)."""
    n = len(chips)
    return next(seat for step in range(1, n + 1) if chips[seat := (dealer + step) % n])


def places_by_chips(chips: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Seats grouped by chips, most first; a group of two or more is a place tie (TR-15)."""
    amounts = sorted(set(chips), reverse=True)
    return tuple(tuple(seat for seat, c in enumerate(chips) if c == amount) for amount in amounts)


def split_place(
    places: tuple[tuple[int, ...], ...],
    tied: tuple[int, ...],
    values: Mapping[int, int],
    folded: tuple[int, ...],
) -> tuple[tuple[int, ...], ...]:
    """``places`` with the group ``tied`` split by a place tie-replay: the shown hands by
    ``values`` (seat -> hand value, in deal order), best first, then those who folded."""
    ordered = sorted(set(values.values()), reverse=True)
    groups = [tuple(seat for seat in values if values[seat] == value) for value in ordered]
    if folded:
        groups.append(folded)
    index = places.index(tied)
    return places[:index] + tuple(groups) + places[index + 1 :]


def after_places(places: tuple[tuple[int, ...], ...]) -> dict[str, Any]:
    """The fields once ``places`` are known: the next place tie to replay, or the match over."""
    group = next((group for group in places if len(group) > 1), None)
    if group is None:
        return {"phase": OVER, "to_act": None, "tied": ()}
    return {"phase": PLACE_TIE, "to_act": None, "tied": group}


def forfeit_places(chips: Sequence[int], seat: int) -> tuple[tuple[int, ...], ...]:
    """TN-6: the others by their chips, most first (equal stacks in seat order), then the seat
    that forfeited: the match stops where it stands, so the chips in the pot count for nobody."""
    others = sorted(
        (other for other in range(len(chips)) if other != seat), key=lambda other: (-chips[other], other)
    )
    return tuple((other,) for other in (*others, seat))


def match_result(
    places: tuple[tuple[int, ...], ...], chips: tuple[int, ...], hands: int, forfeited: int | None
) -> dict[str, Any]:
    """``outcome_of``, with ``"forfeit"``: the seat that lost by forfeit, if one did (TN-6)."""
    result = outcome_of(places, chips, hands)
    if forfeited is not None:
        result["forfeit"] = forfeited
    return result


def outcome_of(places: tuple[tuple[int, ...], ...], chips: tuple[int, ...], hands: int) -> dict[str, Any]:
    """``{"winner", "ranking" (best first), "places" (per seat, 1 = first), "chips", "hands"}``."""
    ranking = [seat for group in places for seat in group]
    per_seat = [0] * len(chips)
    for place, seat in enumerate(ranking, start=1):
        per_seat[seat] = place
    return {
        "winner": ranking[0],
        "ranking": ranking,
        "places": per_seat,
        "chips": list(chips),
        "hands": hands,
    }


@dataclass(frozen=True, kw_only=True)
class SeatChips:
    """A seat of a betting game as every view shows it; each game adds its cards."""

    seat: int
    chips: int
    bet: int
    """Chips put in during this betting round."""
    in_deal: bool
    folded: bool
    out: bool
    """No chips and not dealt in: out of the match."""
    card_count: int


@dataclass(frozen=True, kw_only=True)
class DealResult:
    """How a deal ended, kept for display until the next deal ends; each game adds the
    hands shown."""

    hand: int
    deal: str
    pot: int
    winners: tuple[int, ...]
    tie: bool
    """More than one winner: a tie that a tie-replay hand settles (TR-14)."""
    unseen: bool
    """Won because every other player folded (TR-8); the winner showed nothing."""
    folded: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class MatchOutcome:
    """How a match ended (TR-15), as a view shows it: ``outcome_of`` as a typed value."""

    winner: int
    ranking: tuple[int, ...]
    """Seats, best first."""
    places: tuple[int, ...]
    """Per seat, 1 = first."""
    chips: tuple[int, ...]
    hands: int


def match_outcome(data: Mapping[str, Any] | None) -> MatchOutcome | None:
    """An engine's ``outcome`` (``outcome_of``'s data, or ``None`` while the match runs) for its view."""
    if data is None:
        return None
    return MatchOutcome(
        winner=data["winner"],
        ranking=tuple(data["ranking"]),
        places=tuple(data["places"]),
        chips=tuple(data["chips"]),
        hands=data["hands"],
    )
