"""Tri-Peaks Solitaire (RULES.md section 2, rules TP-1 .. TP-6).

Positions: the layout is a flat tuple of 28 slots, rows 0 to 3 left to right (row 0
holds slots 0-2, row 1 slots 3-8, row 2 slots 9-17, row 3 slots 18-27); ``None``
marks a played card. The stock is a tuple with its top card first; the waste a tuple
with its top card last.

A card's face is derived, not stored: it is face up when the ``face_up`` variant is
played or when it is free, since a card turns face up as soon as it is free (TP-1)
and stays free from then on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, ClassVar

from games.engine.base import IllegalAction, Move, and_words, gettext_noop
from games.engine.cards import RANKS, rank_value
from games.engine.config import Option, boolean, resolve
from games.engine.solitaire_common import (
    LOST,
    PLAYING,
    RESIGNED,
    WON,
    Draw,
    Resign,
    SolitaireEngine,
    SolitaireOutcome,
    SolitaireView,
    add_score,
    deal,
    parse_card,
)

ROW_SIZES = (3, 6, 9, 10)
LAYOUT_SIZE = sum(ROW_SIZES)
ROW_STARTS = tuple(sum(ROW_SIZES[:r]) for r in range(len(ROW_SIZES)))
APEXES = (0, 1, 2)

APEX_POINTS = 15
LAST_APEX_POINTS = 30
STOCK_CARD_POINTS = 5
DRAW_POINTS = -5

OPTIONS: dict[str, Option] = {"face_up": Option(False, boolean)}


def _covered_by(row: int, j: int) -> tuple[int, ...]:
    """TP-1's covering, as slots of the flat layout."""
    if row == len(ROW_SIZES) - 1:
        return ()
    below = ROW_STARTS[row + 1]
    if row == 0:
        return below + 2 * j, below + 2 * j + 1
    if row == 1:
        peak, k = divmod(j, 2)
        return below + 3 * peak + k, below + 3 * peak + k + 1
    return below + j, below + j + 1


POSITIONS: tuple[tuple[int, int], ...] = tuple(
    (r, j) for r, size in enumerate(ROW_SIZES) for j in range(size)
)
"""Slot -> (row, index in row)."""
COVERED_BY: tuple[tuple[int, ...], ...] = tuple(_covered_by(r, j) for r, j in POSITIONS)
"""Slot -> the slots lying on it."""


@dataclass(frozen=True)
class TriPeaksConfig:
    face_up: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class TriPeaksState:
    config: TriPeaksConfig
    layout: tuple[str | None, ...]
    stock: tuple[str, ...]
    """Top card first."""
    waste: tuple[str, ...]
    """Top card last."""
    run: int = 0
    """Cards played since the last draw (TP-6)."""
    score: int = 0
    moves: int = 0
    status: str = PLAYING


@dataclass(frozen=True)
class Play:
    """Move a free face-up layout card onto the waste (TP-3)."""

    card: str

    def __str__(self) -> str:
        return self.card

    def move(self) -> Move:
        return Move(str(self), "play", cards=(self.card,))


TriPeaksAction = Play | Draw | Resign


@dataclass(frozen=True, kw_only=True)
class TriPeaksCell:
    """One layout place (TP-1): its row and index in the row, its card (``None`` when face
    down in the player's view, or once played), whether the card is face up, played
    (``removed``), free, and playable onto the waste now."""

    row: int
    index: int
    card: str | None
    face_up: bool
    removed: bool
    free: bool
    playable: bool


@dataclass(frozen=True, kw_only=True)
class TriPeaksOutcome(SolitaireOutcome):
    """``engine.outcome(state)`` as a view part; ``reason`` is ``cleared``, ``no_moves`` or
    ``resigned``."""

    peaks_cleared: int
    stock_left: int


@dataclass(frozen=True, kw_only=True)
class TriPeaksView(SolitaireView):
    """What the player sees (LP-3): the face-up layout cards and the waste; face-down cards
    and the stock are hidden. ``layout`` is row by row from the apexes; ``run`` counts the
    cards played since the last draw (TP-6). In a full view every face-down card is shown
    and ``stock`` is set."""

    layout: tuple[tuple[TriPeaksCell, ...], ...]
    waste_top: str
    run: int
    peaks_cleared: int
    outcome: TriPeaksOutcome | None


def is_free(state: TriPeaksState, slot: int) -> bool:
    """Whether the card in ``slot`` is in play with nothing in play on it (TP-1)."""
    layout = state.layout
    return layout[slot] is not None and all(layout[j] is None for j in COVERED_BY[slot])


def is_face_up(state: TriPeaksState, slot: int) -> bool:
    return state.layout[slot] is not None and (state.config.face_up or is_free(state, slot))


def adjacent(a: str, b: str) -> bool:
    """One rank apart, K-A and A-K included (TP-3)."""
    return (rank_value(a) - rank_value(b)) % len(RANKS) in (1, len(RANKS) - 1)


def playable_slots(state: TriPeaksState) -> list[int]:
    """Free slots whose card may go onto the waste now, in layout order."""
    top = state.waste[-1]
    return [
        k
        for k, card in enumerate(state.layout)
        if card is not None and is_free(state, k) and adjacent(card, top)
    ]


def _settled(state: TriPeaksState) -> TriPeaksState:
    """``state`` with its status after a move: won, lost (TP-4) or still playing."""
    if all(card is None for card in state.layout):
        return replace(state, status=WON)
    if not state.stock and not playable_slots(state):
        return replace(state, status=LOST)
    return state


class TriPeaksEngine(SolitaireEngine[TriPeaksState, TriPeaksAction, TriPeaksView]):
    name = "tripeaks"
    options = OPTIONS
    version = 1
    action_types: ClassVar[tuple[type, ...]] = (Play, Draw, Resign)

    def normalize_config(self, config: dict[str, Any] | None) -> dict[str, Any]:
        return resolve(self.name, config, OPTIONS)

    def initial_state(
        self, config: dict[str, Any] | None = None, seed: int = 0, deck: Sequence[str] | None = None
    ) -> TriPeaksState:
        rules = TriPeaksConfig(**self.normalize_config(config))
        cards = deal(seed, deck)
        return TriPeaksState(
            config=rules,
            layout=cards[:LAYOUT_SIZE],
            stock=cards[LAYOUT_SIZE + 1 :],
            waste=(cards[LAYOUT_SIZE],),
        )

    def legal_actions(self, state: TriPeaksState) -> list[TriPeaksAction]:
        if state.status != PLAYING:
            return []
        actions: list[TriPeaksAction] = [
            Play(card) for k in playable_slots(state) if (card := state.layout[k]) is not None
        ]
        if state.stock:
            actions.append(Draw())
        actions.append(Resign())
        return actions

    def parse_action(self, text: str) -> TriPeaksAction:
        if not isinstance(text, str):
            raise IllegalAction(gettext_noop("an action is text, not %(type)s"), type=type(text).__name__)
        words = text.split()
        if [word.lower() for word in words] == ["draw"]:
            return Draw()
        if [word.lower() for word in words] == ["resign"]:
            return Resign()
        if len(words) == 2 and words[0].lower() == "play":
            return Play(parse_card(words[1]))
        if len(words) == 1:
            return Play(parse_card(words[0]))
        raise IllegalAction(
            gettext_noop("%(text)s is not a Tri-Peaks action: try 'draw', a card such as 'Td', or 'resign'"),
            text=repr(text.strip()),
        )

    def card_action(self, cards: tuple[str, ...]) -> TriPeaksAction:
        """TP-3: one card onto the waste."""
        if len(cards) != 1:
            raise IllegalAction(gettext_noop("Tri-Peaks plays one card at a time onto the waste"))
        return Play(cards[0])

    def _play(self, state: TriPeaksState, action: TriPeaksAction) -> TriPeaksState:
        if isinstance(action, Resign):
            return replace(state, status=RESIGNED, moves=state.moves + 1)
        if isinstance(action, Draw):
            if not state.stock:
                raise IllegalAction(gettext_noop("the stock is empty"))
            return _settled(
                replace(
                    state,
                    stock=state.stock[1:],
                    waste=(*state.waste, state.stock[0]),
                    run=0,
                    score=add_score(state.score, DRAW_POINTS),
                    moves=state.moves + 1,
                )
            )
        return _settled(self._move(state, action.card))

    def _move(self, state: TriPeaksState, card: str) -> TriPeaksState:
        top = state.waste[-1]
        if card in state.waste:
            raise IllegalAction(gettext_noop("%(card)s is already on the waste"), card=card)
        slot = state.layout.index(card) if card in state.layout else None
        # A card in the stock and a face-down card are both unknown to the player, so
        # they get the same answer: telling them apart would reveal where the card is.
        if slot is None or not is_face_up(state, slot):
            raise IllegalAction(gettext_noop("%(card)s is not a face-up card of the layout"), card=card)
        covering = [c for j in COVERED_BY[slot] if (c := state.layout[j]) is not None]
        if covering:
            raise IllegalAction(
                gettext_noop("%(card)s is covered by %(cards)s"), card=card, cards=and_words(covering)
            )
        if not adjacent(card, top):
            raise IllegalAction(
                gettext_noop("%(card)s is not one rank above or below %(top)s"), card=card, top=top
            )
        layout = list(state.layout)
        layout[slot] = None
        run = state.run + 1
        gained = run
        if slot in APEXES:
            gained += APEX_POINTS
            if all(layout[k] is None for k in APEXES):
                gained += LAST_APEX_POINTS
        if all(c is None for c in layout):
            gained += STOCK_CARD_POINTS * len(state.stock)
        return replace(
            state,
            layout=tuple(layout),
            waste=(*state.waste, card),
            run=run,
            score=add_score(state.score, gained),
            moves=state.moves + 1,
        )

    def _view(self, state: TriPeaksState, *, seat: int | None, reveal: bool) -> TriPeaksView:
        playable = set(playable_slots(state)) if state.status == PLAYING else set()

        def cell(r: int, k: int) -> TriPeaksCell:
            face_up = is_face_up(state, k)
            return TriPeaksCell(
                row=r,
                index=k - ROW_STARTS[r],
                card=state.layout[k] if face_up or reveal else None,
                face_up=face_up,
                removed=state.layout[k] is None,
                free=is_free(state, k),
                playable=k in playable,
            )

        layout = tuple(
            tuple(cell(r, k) for k in range(ROW_STARTS[r], ROW_STARTS[r] + size))
            for r, size in enumerate(ROW_SIZES)
        )
        outcome = self.outcome(state)
        return TriPeaksView(
            game=self.name,
            seat=seat,
            config=state.config.as_dict(),
            moves=self.offered(state, seat),
            layout=layout,
            stock_count=len(state.stock),
            waste=state.waste,
            waste_top=state.waste[-1],
            run=state.run,
            score=state.score,
            cards_left=sum(card is not None for card in state.layout),
            peaks_cleared=sum(state.layout[k] is None for k in APEXES),
            move_count=state.moves,
            status=state.status,
            over=state.status != PLAYING,
            outcome=None if outcome is None else TriPeaksOutcome(**outcome),
            stock=state.stock if reveal else None,
        )

    def outcome(self, state: TriPeaksState) -> dict[str, Any] | None:
        if state.status == PLAYING:
            return None
        return {
            "won": state.status == WON,
            "status": state.status,
            "reason": {WON: "cleared", LOST: "no_moves", RESIGNED: "resigned"}[state.status],
            "score": state.score,
            "cards_left": sum(card is not None for card in state.layout),
            "peaks_cleared": sum(state.layout[k] is None for k in APEXES),
            "stock_left": len(state.stock),
            "moves": state.moves,
        }


ENGINE = TriPeaksEngine()
