"""What the broadcast playouts need to know of each table game's states.

A playout runs the engine itself (``apply``, ``view``, ``bot_action``); a ``Table`` only
says where a deal starts and ends, who won it, which cards are not dealt yet and how to
deal them anew. Every state here is an engine's own frozen state, changed only as
``dataclasses.replace`` would change it (``evolve``).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterator
from dataclasses import fields
from fractions import Fraction
from functools import cache
from operator import attrgetter
from typing import Any

from games.engine.base import evolve
from games.engine.betting import HAND, OVER, PLACE_TIE, TIE_REPLAY
from games.engine.triad import DRAW
from games.engine.triad_bot import percentiles
from games.engine.triad_hands import to_codes

IN, FOLDED, OUT = "in", "folded", "out"
"""A seat's standing in a deal: still in it, folded (TR-8), or not dealt in (no chips left,
or not among the seats a tie-replay hand is dealt to)."""


class Table(ABC):
    """One game's deals, as the playouts see them."""

    order_free: bool
    """Whether the order of the cards one action deals doesn't matter to anything that
    follows (the engine and its bot read a hand or a board as a multiset): then a deal's
    cards can be enumerated as multisets (``playouts.enumerate``)."""

    @abstractmethod
    def deal(self, state: Any) -> tuple[object, ...]:
        """The deal ``state`` belongs to: one value per deal of the game."""

    @abstractmethod
    def deal_kind(self, state: Any) -> str:
        """``hand`` (a blocks game too), ``tie-replay`` or ``place-tie``."""

    @abstractmethod
    def hand_number(self, state: Any) -> int:
        """The 1-based hand of a match (blocks: game) the deal belongs to."""

    @abstractmethod
    def settled(self, state: Any) -> bool:
        """The deal ``state`` belongs to is over: a tie-replay is waiting, or the game is over."""

    @abstractmethod
    def undealt(self, state: Any) -> tuple[str, ...]:
        """The cards nobody has been dealt yet, in the order they will come."""

    @abstractmethod
    def redeal(self, state: Any, cards: tuple[str, ...], seed: int) -> Any:
        """``state`` with ``cards`` as its undealt cards and ``seed`` deciding any shuffle to
        come in this deal (a Triad reshuffle of the discards, TR-9)."""

    @abstractmethod
    def dealt(self, before: Any, after: Any) -> int:
        """How many undealt cards the action from ``before`` to ``after`` dealt (0: none, and
        no shuffle either); ``-1`` if it shuffled, which no enumeration can follow."""

    @abstractmethod
    def shares(self, state: Any) -> tuple[Fraction, ...]:
        """Each seat's share of the deal that has just ended: 1 the winner, 1/k each of k
        tied seats, 0 the others."""

    def float_shares(self, state: Any) -> tuple[float, ...]:
        """``shares`` as floats, what a sampled figure adds up."""
        return tuple(float(share) for share in self.shares(state))

    @abstractmethod
    def standing(self, state: Any) -> tuple[str, ...]:
        """Each seat's ``IN``, ``FOLDED`` or ``OUT`` in the deal of ``state``."""

    @abstractmethod
    def forfeited(self, state: Any) -> bool:
        """The game ended by a forfeit (TN-6), which abandons the deal being played."""

    def canonical(self, state: Any) -> Any:
        """``state`` with its cards in an order that only ``order_free`` games may choose: one
        order for every deal of the same multisets, so that bots meet fewer distinct views."""
        return state

    def knowledge(self, state: Any, seat: int) -> tuple[object, ...] | None:
        """A value that is equal for two states only if ``seat``'s views of them are (more may
        tell them apart, never less), far cheaper than the view; ``None``: none is known."""
        return None

    def draw(self, before: Any, after: Any, size: int) -> tuple[tuple[object, ...], float] | None:
        """For an action that dealt the ``size`` undealt cards on top into one seat's hand (a
        Triad draw): who drew and what they kept (a key), and a score of the hand it made,
        whose mean over a uniform draw ``draw_mean`` works out exactly: the sampled figures'
        control variate (``playouts``). ``None``: the action was not such a draw."""
        return None

    def draw_mean(self, key: tuple[object, ...], undealt: tuple[str, ...]) -> float:
        """The mean of ``draw``'s score for the draw ``key``, its cards a uniform multiset of
        ``undealt``."""
        raise NotImplementedError


class PokerTable(Table):
    """Triad and Tauron Hold-Em: a hand, each tie-replay hand and each place tie-replay is
    a deal (TR-14, TR-15, TH-5). Their undealt cards are the deck: Triad's draws, Tauron's
    shared cards to come (on top of the deck)."""

    order_free = True
    cards: str
    """The state's field of each seat's own cards."""
    hidden: frozenset[str]
    """The state's fields no seat's view shows beyond their length: the cards field, whose
    visible hands ``knowledge`` puts back, the undealt and discarded cards, folded hands and
    the seed."""

    def knowledge(self, state: Any, seat: int) -> tuple[object, ...]:
        """Every field of the state but the hidden ones, and the cards a seat's view shows:
        its own, those shown at the showdown and, in Triad's ``face_up``, all (LP-3)."""
        hands = getattr(state, self.cards)
        if getattr(state.rules, "face_up", False):
            seen = hands
        else:
            # Lengths, then the visible hands put back: a third of a generator's cost, and
            # the playouts ask this before every action (bench/broadcast.py).
            visible = list(map(len, hands))
            visible[seat] = hands[seat]
            if True in state.shown:
                for other, flag in enumerate(state.shown):
                    if flag:
                        visible[other] = hands[other]
            seen = tuple(visible)
        public, counted = _getters(type(state), self.hidden)
        return (seat, seen, tuple(map(len, counted(state))), public(state))

    def deal(self, state: Any) -> tuple[object, ...]:
        return (state.kind, state.hand_no, state.replays)

    def deal_kind(self, state: Any) -> str:
        return str(state.kind)

    def hand_number(self, state: Any) -> int:
        return int(state.hand_no)

    def settled(self, state: Any) -> bool:
        return state.phase in (TIE_REPLAY, PLACE_TIE, OVER)

    def undealt(self, state: Any) -> tuple[str, ...]:
        return tuple(state.deck)

    def redeal(self, state: Any, cards: tuple[str, ...], seed: int) -> Any:
        return evolve(state, deck=cards, seed=seed)

    def dealt(self, before: Any, after: Any) -> int:
        if getattr(after, "reshuffles", 0) != getattr(before, "reshuffles", 0):
            return -1
        return len(before.deck) - len(after.deck)

    def shares(self, state: Any) -> tuple[Fraction, ...]:
        return _poker_shares(state.last.winners, state.rules.players)

    def float_shares(self, state: Any) -> tuple[float, ...]:
        return _poker_float_shares(state.last.winners, state.rules.players)

    def standing(self, state: Any) -> tuple[str, ...]:
        return tuple(
            OUT if seat not in state.order else FOLDED if state.folded[seat] else IN
            for seat in range(state.rules.players)
        )

    def forfeited(self, state: Any) -> bool:
        return state.forfeited is not None


class BlocksTable(Table):
    """Pyramid Poker: a deal is a game of the match (BL-6, BL-7), a tie-replay game one of
    its own (BL-8). Both personal supplies are dealt at the start (BL-1), so the undealt
    blocks are the general supply, which only a Joker reaches (BL-5).

    Winning a game: with basic scoring, winning more pairs of hands (BL-6); with advanced
    scoring, scoring more points in it (BL-7), which is what the match adds up. Equal is a
    draw: half each."""

    order_free = False
    """The blocks a Joker turns over are offered in their order: not enumerated."""

    def deal(self, state: Any) -> tuple[object, ...]:
        return (state.game,)

    def deal_kind(self, state: Any) -> str:
        return TIE_REPLAY if state.tie_replay else HAND

    def hand_number(self, state: Any) -> int:
        return int(state.game) + 1

    def settled(self, state: Any) -> bool:
        return state.phase in (TIE_REPLAY, OVER)

    def undealt(self, state: Any) -> tuple[str, ...]:
        return tuple(state.general)

    def redeal(self, state: Any, cards: tuple[str, ...], seed: int) -> Any:
        return evolve(state, general=cards, seed=seed)

    def dealt(self, before: Any, after: Any) -> int:
        return len(before.general) - len(after.general)

    def shares(self, state: Any) -> tuple[Fraction, ...]:
        result = state.results[-1]
        ours, theirs = result.won if result.points is None else result.points
        if ours == theirs:
            return (Fraction(1, 2), Fraction(1, 2))
        return (Fraction(int(ours > theirs)), Fraction(int(ours < theirs)))

    def standing(self, state: Any) -> tuple[str, ...]:
        return (IN, IN)

    def forfeited(self, state: Any) -> bool:
        return state.forfeited is not None


def _percentile(cards: tuple[str, ...]) -> float:
    return percentiles(len(cards))[to_codes(cards)]


def multisets(cards: tuple[str, ...], size: int) -> Iterator[tuple[int, tuple[str, ...]]]:
    """Each multiset of ``size`` of ``cards`` (sorted), with the number of the
    ``math.comb(len(cards), size)`` equally likely draws of ``size`` of them that deal it."""
    counts = sorted(Counter(cards).items())

    def extend(index: int, chosen: tuple[str, ...], ways: int) -> Iterator[tuple[int, tuple[str, ...]]]:
        if len(chosen) == size:
            yield ways, chosen
            return
        if index == len(counts):
            return
        card, have = counts[index]
        for n in range(min(have, size - len(chosen)), -1, -1):
            yield from extend(index + 1, chosen + (card,) * n, ways * math.comb(have, n))

    yield from extend(0, (), 1)


@cache
def _poker_shares(winners: tuple[int, ...], players: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(int(seat in winners), len(winners)) for seat in range(players))


@cache
def _poker_float_shares(winners: tuple[int, ...], players: int) -> tuple[float, ...]:
    return tuple(float(share) for share in _poker_shares(winners, players))


_GETTERS: dict[tuple[type, frozenset[str]], tuple[attrgetter[Any], attrgetter[Any]]] = {}


def _getters(kind: type, hidden: frozenset[str]) -> tuple[attrgetter[Any], attrgetter[Any]]:
    """Getters of a state class's fields: those not ``hidden``, and the hidden ones but the seed."""
    known = _GETTERS.get((kind, hidden))
    if known is None:
        names = [field.name for field in fields(kind)]
        known = (
            attrgetter(*(name for name in names if name not in hidden)),
            attrgetter(*(name for name in names if name in hidden and name != "seed")),
        )
        _GETTERS[kind, hidden] = known
    return known


class TriadTable(PokerTable):
    cards = "hands"
    hidden = frozenset({"hands", "deck", "pile", "mucked", "seed"})

    def draw(self, before: Any, after: Any, size: int) -> tuple[tuple[object, ...], float] | None:
        """A draw's score is the bot's percentile of the hand it made (``triad_bot``): the
        hand's chance of beating a random one, which tells most of who wins the deal."""
        seat = before.to_act
        if seat is None or before.phase != DRAW:
            return None
        hand = after.hands[seat]
        kept = list(hand)
        for card in before.deck[:size]:
            kept.remove(card)
        return (seat, tuple(sorted(kept)), size), _percentile(hand)

    def draw_mean(self, key: tuple[object, ...], undealt: tuple[str, ...]) -> float:
        _, kept, size = key
        assert isinstance(kept, tuple) and isinstance(size, int)
        whole = math.comb(len(undealt), size)
        return sum(ways / whole * _percentile(kept + cards) for ways, cards in multisets(undealt, size))

    def canonical(self, state: Any) -> Any:
        """Every hand sorted: a hand is valued, discarded from and read by the bot as a multiset."""
        return evolve(state, hands=tuple([tuple(sorted(hand)) for hand in state.hands]))


class TauronTable(PokerTable):
    cards = "holes"
    hidden = frozenset({"holes", "deck", "mucked", "seed"})

    def canonical(self, state: Any) -> Any:
        """The shared cards sorted: they are valued, and read by the bot, as a multiset."""
        return evolve(state, board=tuple(sorted(state.board)))


TABLES: dict[str, Table] = {"triad": TriadTable(), "tauron": TauronTable(), "blocks": BlocksTable()}
"""The games broadcast odds are computed for."""
