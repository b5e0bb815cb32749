"""What the two solitaire engines (Pyramid and Tri-Peaks) share.

Both are one-seat games on a standard deck: the deal, card text parsing, the game's
status, the ``draw`` and ``resign`` actions, the seat check of ``view``, and the parts
every solitaire view has (``SolitaireView``, ``SolitaireOutcome``).
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Generic, Protocol, TypeVar

from games.engine import rng
from games.engine.base import TABLE_SEAT, Engine, IllegalAction, Move, View, check_seed, gettext_noop
from games.engine.cards import STANDARD_DECK, SUITS, check_deck, rank_value

PLAYING = "playing"
WON = "won"
LOST = "lost"
RESIGNED = "resigned"

# ASCII: with IGNORECASE alone, the Kelvin sign matches K and the long s matches S,
# giving card texts that are in no deck.
_CARD_TEXT = re.compile(r"(10|[2-9TJQKA])([CDHS])", re.IGNORECASE | re.ASCII)


def parse_card(text: str) -> str:
    """The canonical text of a card written ``Ah``, ``td``, ``10D`` ...; ``IllegalAction`` if not a card."""
    match = _CARD_TEXT.fullmatch(text.strip())
    if match is None:
        raise IllegalAction(
            gettext_noop("%(text)s is not a card: write rank then suit, e.g. 'Ah', 'Td', '7c'"),
            text=repr(text.strip()),
        )
    rank = match.group(1).upper()
    return ("T" if rank == "10" else rank) + match.group(2).lower()


def card_order(card: str) -> tuple[int, int]:
    """Sort key: by value, then suit (clubs, diamonds, hearts, spades)."""
    return rank_value(card), SUITS.index(card[1])


def deal(seed: int, deck: Sequence[str] | None) -> tuple[str, ...]:
    """The deck to deal from, top card first: ``deck`` if given, else the seed's shuffle."""
    check_seed(seed)
    if deck is None:
        return tuple(rng.shuffled(STANDARD_DECK, seed))
    return check_deck(deck, STANDARD_DECK)


def and_list(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: for messages."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def add_score(score: int, delta: int) -> int:
    """A score after ``delta``: a penalty that would take it below 0 stops at 0 (PY-7, TP-6)."""
    return max(0, score + delta)


@dataclass(frozen=True)
class Draw:
    """Turn the stock's top card onto the waste (PY-2, TP-3)."""

    def __str__(self) -> str:
        return "draw"

    def move(self) -> Move:
        return Move(str(self), "draw")


@dataclass(frozen=True)
class Resign:
    """Give the game up (PY-5; the same is offered in Tri-Peaks)."""

    def __str__(self) -> str:
        return "resign"

    def move(self) -> Move:
        return Move(str(self), "resign")


@dataclass(frozen=True, kw_only=True)
class SolitaireOutcome:
    """How a solitaire game ended; ``engine.outcome(state)`` is this as a dict (what a game
    record stores). ``reason`` says why: ``cleared``, ``no_moves``, ``resigned``, ...;
    ``moves`` is the number of moves made."""

    won: bool
    status: str
    reason: str
    score: int
    cards_left: int
    moves: int


@dataclass(frozen=True, kw_only=True)
class SolitaireView(View):
    """What every solitaire view shows (LP-3): the player's, a spectator's and the full one
    share this shape. ``stock`` (top card first) is ``None`` except in a full view.
    ``moves`` lists the legal moves in the player's own view (seat 0) only."""

    stock_count: int
    waste: tuple[str, ...]
    """Top card last."""
    waste_top: str | None
    score: int
    cards_left: int
    move_count: int
    """The moves made so far."""
    status: str
    over: bool
    outcome: SolitaireOutcome | None
    stock: tuple[str, ...] | None = None


class SolitaireAction(Protocol):
    def move(self) -> Move: ...


class SolitaireState(Protocol):
    @property
    def status(self) -> str: ...


S = TypeVar("S", bound=SolitaireState)
A = TypeVar("A", bound=SolitaireAction)
V = TypeVar("V", bound=SolitaireView)


class SolitaireEngine(Engine[S, A], Generic[S, A, V]):
    """A one-seat game: seat 0 acts while the game runs; spectators see what seat 0 sees,
    but for the moves, which only the player's own view lists."""

    action_types: ClassVar[tuple[type, ...]]

    def current_player(self, state: S) -> int | None:
        return 0 if state.status == PLAYING else None

    def _apply(self, state: S, action: A) -> S:
        known = isinstance(action, self.action_types)  # a flag: narrowing would lose ``A``
        if not known:
            raise IllegalAction(
                gettext_noop("%(action)s is not a %(game)s action"), action=repr(action), game=self.name
            )
        if state.status != PLAYING:
            raise IllegalAction(gettext_noop("the game is over (%(status)s)"), status=state.status)
        return self._play(state, action)

    @abstractmethod
    def _play(self, state: S, action: A) -> S:
        """Apply an action of this game to a running game."""

    def action_from_fields(self, fields: Mapping[str, object]) -> A:
        """A page's fields: the cards the player picked on the board (``card``, and for a
        pair ``partner``), or else ``action``, a move's text ("draw", "redeal", "resign")."""
        picked = [fields[key] for key in ("card", "partner") if fields.get(key)]
        if not picked:
            return super().action_from_fields(fields)
        if not all(isinstance(card, str) for card in picked):
            raise IllegalAction(gettext_noop("a picked card is a text such as '5h'"))
        return self.card_action(tuple(parse_card(str(card)) for card in picked))

    @abstractmethod
    def card_action(self, cards: tuple[str, ...]) -> A:
        """The action of playing the picked ``cards``; ``IllegalAction`` if no such action exists."""

    def view(self, state: S, seat: int | None) -> V:
        if seat not in (None, TABLE_SEAT, 0):
            raise ValueError(f"{self.name} has one seat, 0; got seat {seat!r}")
        return self._view(state, seat=0 if seat == 0 else None, reveal=False)

    def full_view(self, state: S) -> V:
        return self._view(state, seat=None, reveal=True)

    def offered(self, state: S, seat: int | None) -> tuple[Move, ...]:
        """The legal moves as ``seat`` is offered them: all of them for the player, seat 0;
        none for a spectator or a full view (``seat`` ``None``)."""
        if seat != 0:
            return ()
        return tuple(action.move() for action in self.legal_actions(state))

    @abstractmethod
    def _view(self, state: S, *, seat: int | None, reveal: bool) -> V:
        """The public view, the same for the player and for spectators but for ``moves``
        (LP-3); with ``reveal``, also every unseen card (for replays of finished games)."""
