"""Pyramid Solitaire (RULES.md section 1, rules PY-1 .. PY-8).

Positions: the tableau is a flat tuple in deal order, row by row from the apex, left
to right; slot ``k`` is (row, index) ``GEOMETRY[rows].positions[k]``, and ``None`` marks
a removed card. The stock is a tuple with its top card first; the waste a tuple with
its top card last, so a draw moves ``stock[0]`` to the end of ``waste`` and a plain
redeal makes the waste the new stock unchanged (PY-4: the card drawn first comes
first again).

Helpers meant for the solver: ``GEOMETRY``, ``exposed_positions``, ``available_cards``,
``can_redeal``, ``par_score``, ``cards_left`` and the state's ``pass_number`` and
``redeals_left``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from itertools import combinations
from typing import Any, ClassVar

from games.engine import rng
from games.engine.base import IllegalAction, Move, Words, and_words, gettext_noop
from games.engine.cards import rank_value
from games.engine.config import Option, boolean, integer, one_of, resolve
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
    card_order,
    deal,
    parse_card,
)

DECK_SIZE = 52
TARGET = 13
RESERVE_SIZE = 6
MAX_PAR_REDEALS = 2

TABLEAU_CARD_POINTS = 5
OTHER_CARD_POINTS = 2
ROW_POINTS = 25
TABLEAU_POINTS = 250
ALL_CARDS_POINTS = 500
REDEAL_POINTS = -20
# PY-7's "never below 0" holds at every step (see add_score), not only at the end: a redeal at
# 10 points leaves 0, and the points earned after it count in full.
PAR_BASE = (50, 35, 20)
"""PY-8: the par base for a tableau cleared in pass 1, 2 or 3."""

OPTIONS: dict[str, Option] = {
    "rows": Option(7, one_of(7, 6)),
    "redeals": Option(2, integer(0, allow_none=True)),
    "reserve": Option(False, boolean),
    "clear_the_board": Option(False, boolean),
    "waste_off_limits": Option(False, boolean),
    "reshuffle": Option(False, boolean),
    "overlap_pairs": Option(False, boolean),
    "scoring": Option("points", one_of("points", "par")),
}


@dataclass(frozen=True)
class PyramidConfig:
    """The variant being played (PY-6), with the standard game's defaults."""

    rows: int = 7
    redeals: int | None = 2
    reserve: bool = False
    clear_the_board: bool = False
    waste_off_limits: bool = False
    reshuffle: bool = False
    overlap_pairs: bool = False
    scoring: str = "points"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Geometry:
    """Which tableau slot covers which (PY-1), for one tableau size."""

    rows: int
    positions: tuple[tuple[int, int], ...]
    """Slot ``k`` -> (row, index in row)."""
    covered_by: tuple[tuple[int, ...], ...]
    """Slot ``k`` -> the slots lying on it: (r+1, i) and (r+1, i+1); none on the last row."""
    covers: tuple[tuple[int, ...], ...]
    """Slot ``k`` -> the slots it lies on."""
    row_slots: tuple[tuple[int, ...], ...]
    """Row ``r`` -> its slots."""

    @property
    def size(self) -> int:
        return len(self.positions)


def _geometry(rows: int) -> Geometry:
    positions = tuple((r, i) for r in range(rows) for i in range(r + 1))
    start = [r * (r + 1) // 2 for r in range(rows + 1)]
    covered_by = tuple(
        () if r == rows - 1 else (start[r + 1] + i, start[r + 1] + i + 1) for r, i in positions
    )
    covers = tuple(
        tuple(p for p in range(len(positions)) if k in covered_by[p]) for k in range(len(positions))
    )
    row_slots = tuple(tuple(range(start[r], start[r + 1])) for r in range(rows))
    return Geometry(rows, positions, covered_by, covers, row_slots)


GEOMETRY: dict[int, Geometry] = {rows: _geometry(rows) for rows in (6, 7)}


@dataclass(frozen=True)
class PyramidState:
    config: PyramidConfig
    seed: int
    """Only for PY-6 ``reshuffle``'s redeals; never shown while the game runs (LP-3)."""
    tableau: tuple[str | None, ...]
    reserve: tuple[str | None, ...]
    stock: tuple[str, ...]
    """Top card first."""
    waste: tuple[str, ...]
    """Top card last."""
    removed: tuple[str, ...] = ()
    """In the order they were removed."""
    redeals_used: int = 0
    pass_removed: bool = False
    """Whether a card was removed since the last redeal (PY-5 with unlimited redeals)."""
    points: int = 0
    """The PY-7 score so far."""
    cleared_pass: int | None = None
    """The pass in which the tableau was emptied, for PY-8."""
    moves: int = 0
    status: str = PLAYING

    @property
    def geometry(self) -> Geometry:
        return GEOMETRY[self.config.rows]

    @property
    def pass_number(self) -> int:
        return self.redeals_used + 1

    @property
    def redeals_left(self) -> int | None:
        """``None`` when redeals are unlimited."""
        return None if self.config.redeals is None else self.config.redeals - self.redeals_used


@dataclass(frozen=True)
class Redeal:
    """Turn the waste over into a new stock (PY-4)."""

    def __str__(self) -> str:
        return "redeal"

    def move(self) -> Move:
        return Move(str(self), "redeal")


@dataclass(frozen=True)
class Remove:
    """Remove a King alone or two cards that make 13 (PY-3).

    The cards are kept lowest value first, so ``Remove(("8c", "5h"))`` and
    ``Remove(("5h", "8c"))`` are the same action, written ``5h+8c``.
    """

    cards: tuple[str, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.cards) <= 2 or len(set(self.cards)) != len(self.cards):
            raise IllegalAction(
                gettext_noop("remove one card or two different cards, not %(cards)s"), cards=list(self.cards)
            )
        object.__setattr__(self, "cards", tuple(sorted(self.cards, key=card_order)))

    def __str__(self) -> str:
        return "+".join(self.cards)

    def move(self) -> Move:
        """A ``remove`` whose ``cards`` are the pair (lowest value first) or the King."""
        return Move(str(self), "remove", cards=self.cards)


PyramidAction = Remove | Draw | Redeal | Resign


@dataclass(frozen=True, kw_only=True)
class PyramidSlot:
    """One tableau place (PY-1): its row and index in the row, its card (``None`` once
    removed), and whether no card in play covers it."""

    row: int
    index: int
    card: str | None
    exposed: bool


@dataclass(frozen=True, kw_only=True)
class PyramidOutcome(SolitaireOutcome):
    """``engine.outcome(state)`` as a view part. ``reason`` is ``cleared``,
    ``board_cleared``, ``resigned``, ``idle_pass`` or ``no_moves``; ``par`` is set with
    ``scoring=par`` (PY-8)."""

    scoring: str
    points: int
    par: int | None
    tableau_left: int
    tableau_cleared: bool
    cleared_pass: int | None
    passes: int
    redeals_used: int


@dataclass(frozen=True, kw_only=True)
class PyramidView(SolitaireView):
    """What the player sees (LP-3): every card but the stock below its top. ``tableau`` is
    row by row from the apex; ``available`` the cards that may be used now (PY-2, PY-3,
    PY-6), none once the game is over; ``pass_number`` counts from 1; ``redeals_left`` is
    ``None`` with unlimited redeals; ``score`` is the par score with ``scoring=par``, else
    ``points``. In a full view, ``stock`` and ``seed`` are set too."""

    tableau: tuple[tuple[PyramidSlot, ...], ...]
    reserve: tuple[str | None, ...]
    stock_top: str | None
    waste_top_available: bool
    removed: tuple[str, ...]
    """In the order they were removed."""
    available: tuple[str, ...]
    pass_number: int
    redeals_used: int
    redeals_left: int | None
    points: int
    par: int | None
    outcome: PyramidOutcome | None
    seed: int | None = None


def exposed(state: PyramidState) -> list[tuple[int, str]]:
    """(slot, card) of the tableau cards no card in play covers (PY-1), in deal order."""
    tableau, covered_by = state.tableau, state.geometry.covered_by
    return [
        (k, card)
        for k, card in enumerate(tableau)
        if card is not None and all(tableau[j] is None for j in covered_by[k])
    ]


def exposed_positions(state: PyramidState) -> list[int]:
    return [k for k, _ in exposed(state)]


def available_cards(state: PyramidState) -> list[str]:
    """Every card that may be used now (PY-2, PY-3, PY-6): exposed tableau cards in deal
    order, then the reserve, the stock top and the waste top."""
    cards = [card for _, card in exposed(state)]
    cards += [card for card in state.reserve if card is not None]
    if state.stock:
        cards.append(state.stock[0])
    if state.waste and not state.config.waste_off_limits:
        cards.append(state.waste[-1])
    return cards


def _overlap_pairs(state: PyramidState) -> list[tuple[str, str]]:
    """PY-6 ``overlap_pairs``: (covered card, the one exposed card still lying on it)."""
    tableau, geometry = state.tableau, state.geometry
    pairs = []
    for top, over in exposed(state):
        for below in geometry.covers[top]:
            under = tableau[below]
            if under is None or any(tableau[j] is not None for j in geometry.covered_by[below] if j != top):
                continue
            if rank_value(under) + rank_value(over) == TARGET:
                pairs.append((under, over))
    return pairs


def legal_removals(state: PyramidState) -> list[Remove]:
    """Kings first, then pairs in the order of ``available_cards``, then overlap pairs."""
    cards = available_cards(state)
    removals = [Remove((card,)) for card in cards if rank_value(card) == TARGET]
    removals += [Remove((a, b)) for a, b in combinations(cards, 2) if rank_value(a) + rank_value(b) == TARGET]
    if state.config.overlap_pairs:
        removals += [Remove(pair) for pair in _overlap_pairs(state)]
    return removals


def can_redeal(state: PyramidState) -> bool:
    """PY-4 with PY-5: the stock is empty, the waste is not, a redeal is left, and with
    unlimited redeals this pass removed a card."""
    if state.stock or not state.waste:
        return False
    if state.config.redeals is None:
        return state.pass_removed
    return state.redeals_used < state.config.redeals


def cards_left(state: PyramidState) -> int:
    return DECK_SIZE - len(state.removed)


def par_score(state: PyramidState) -> int:
    """PY-8's net score if the game ended now; reserve cards left count like stock cards."""
    if state.cleared_pass is None:
        return -cards_left(state)
    return PAR_BASE[state.cleared_pass - 1] - cards_left(state)


def _settled(state: PyramidState) -> PyramidState:
    """``state`` with its status after a move: won, lost (PY-5) or still playing."""
    tableau_empty = state.cleared_pass is not None
    if len(state.removed) == DECK_SIZE or (state.config.clear_the_board and tableau_empty):
        return replace(state, status=WON)
    if state.stock or can_redeal(state) or legal_removals(state):
        return state
    return replace(state, status=LOST)


class PyramidEngine(SolitaireEngine[PyramidState, PyramidAction, PyramidView]):
    name = "pyramid"
    options = OPTIONS
    version = 1
    action_types: ClassVar[tuple[type, ...]] = (Remove, Draw, Redeal, Resign)

    def normalize_config(self, config: dict[str, Any] | None) -> dict[str, Any]:
        resolved = resolve(self.name, config, OPTIONS)
        redeals = resolved["redeals"]
        if resolved["scoring"] == "par" and (redeals is None or redeals > MAX_PAR_REDEALS):
            raise ValueError(
                "pyramid config: par scoring counts three passes at most, so 'redeals' must be "
                f"0, 1 or 2 with scoring 'par' (got {redeals!r})"
            )
        return resolved

    def initial_state(
        self, config: dict[str, Any] | None = None, seed: int = 0, deck: Sequence[str] | None = None
    ) -> PyramidState:
        rules = PyramidConfig(**self.normalize_config(config))
        cards = deal(seed, deck)
        size = GEOMETRY[rules.rows].size
        reserve_end = size + (RESERVE_SIZE if rules.reserve else 0)
        return PyramidState(
            config=rules,
            seed=seed,
            tableau=cards[:size],
            reserve=cards[size:reserve_end],
            stock=cards[reserve_end:],
            waste=(),
        )

    def legal_actions(self, state: PyramidState) -> list[PyramidAction]:
        if state.status != PLAYING:
            return []
        actions: list[PyramidAction] = list(legal_removals(state))
        if state.stock:
            actions.append(Draw())
        if can_redeal(state):
            actions.append(Redeal())
        actions.append(Resign())
        return actions

    def parse_action(self, text: str) -> PyramidAction:
        if not isinstance(text, str):
            raise IllegalAction(gettext_noop("an action is text, not %(type)s"), type=type(text).__name__)
        word = text.strip().lower()
        if word == "draw":
            return Draw()
        if word == "redeal":
            return Redeal()
        if word == "resign":
            return Resign()
        parts = text.split("+")
        if len(parts) > 2:
            raise IllegalAction(
                gettext_noop("%(text)s: remove one King or two cards, e.g. 'Kh' or '5h+8c'"),
                text=repr(text.strip()),
            )
        return Remove(tuple(parse_card(part) for part in parts))

    def card_action(self, cards: tuple[str, ...]) -> PyramidAction:
        """PY-3: a King alone, or a pair."""
        return Remove(cards)

    def _play(self, state: PyramidState, action: PyramidAction) -> PyramidState:
        if isinstance(action, Resign):
            return replace(state, status=RESIGNED, moves=state.moves + 1)
        if isinstance(action, Draw):
            return _settled(self._draw(state))
        if isinstance(action, Redeal):
            return _settled(self._redeal(state))
        return _settled(self._remove(state, action))

    def _draw(self, state: PyramidState) -> PyramidState:
        if not state.stock:
            if can_redeal(state):
                raise IllegalAction(gettext_noop("the stock is empty; redeal to turn the waste over"))
            raise IllegalAction(gettext_noop("the stock is empty"))
        return replace(
            state, stock=state.stock[1:], waste=(*state.waste, state.stock[0]), moves=state.moves + 1
        )

    def _redeal(self, state: PyramidState) -> PyramidState:
        if state.stock:
            raise IllegalAction(
                gettext_noop("the stock still holds %(count)s cards: redeal only when it is empty"),
                count=len(state.stock),
            )
        if not state.waste:
            raise IllegalAction(gettext_noop("the waste is empty: there is nothing to redeal"))
        redeals = state.config.redeals
        if redeals is None and not state.pass_removed:
            raise IllegalAction(
                gettext_noop("this pass has removed no card yet, and with unlimited redeals it must")
            )
        if redeals is not None and state.redeals_used >= redeals:
            if redeals == 0:
                raise IllegalAction(gettext_noop("this game allows no redeal"))
            raise IllegalAction(gettext_noop("all %(count)s redeals are used"), count=redeals)
        stock = state.waste
        if state.config.reshuffle:
            stock = tuple(rng.shuffled(stock, rng.derive_seed(state.seed, "redeal", state.redeals_used + 1)))
        return replace(
            state,
            stock=stock,
            waste=(),
            redeals_used=state.redeals_used + 1,
            pass_removed=False,
            points=add_score(state.points, REDEAL_POINTS),
            moves=state.moves + 1,
        )

    def _remove(self, state: PyramidState, action: Remove) -> PyramidState:
        cards = action.cards
        # Where a card is comes first: "7h is covered by 2c and 9d" tells a player who
        # tapped a covered card more than "7h is worth 7" would.
        for card in cards:
            problem = self._unavailable(state, card, partner=[c for c in cards if c != card])
            if problem:
                raise IllegalAction(problem.template, **problem.params)
        total = sum(rank_value(card) for card in cards)
        if len(cards) == 1 and total != TARGET:
            raise IllegalAction(
                gettext_noop("%(card)s is worth %(total)s: only a King (13) is removed alone"),
                card=cards[0],
                total=total,
            )
        if len(cards) == 2 and total != TARGET:
            pair = {"first": cards[0], "second": cards[1], "total": total, "target": TARGET}
            if TARGET in map(rank_value, cards):
                raise IllegalAction(
                    gettext_noop(
                        "%(first)s + %(second)s make %(total)s, not %(target)s: a King is removed alone"
                    ),
                    **pair,
                )
            raise IllegalAction(gettext_noop("%(first)s + %(second)s make %(total)s, not %(target)s"), **pair)

        tableau, reserve = list(state.tableau), list(state.reserve)
        stock, waste = state.stock, state.waste
        gained = 0
        touched_rows = set()
        for card in cards:
            if card in tableau:
                k = tableau.index(card)
                tableau[k] = None
                touched_rows.add(state.geometry.positions[k][0])
                gained += TABLEAU_CARD_POINTS
                continue
            gained += OTHER_CARD_POINTS
            if card in reserve:
                reserve[reserve.index(card)] = None
            elif stock and card == stock[0]:
                stock = stock[1:]
            else:
                waste = waste[:-1]
        geometry = state.geometry
        gained += ROW_POINTS * sum(
            all(tableau[k] is None for k in geometry.row_slots[r]) for r in touched_rows
        )
        cleared_pass = state.cleared_pass
        if cleared_pass is None and touched_rows and all(card is None for card in tableau):
            cleared_pass = state.pass_number
            gained += TABLEAU_POINTS
        removed = (*state.removed, *cards)
        if len(removed) == DECK_SIZE:
            gained += ALL_CARDS_POINTS
        return replace(
            state,
            tableau=tuple(tableau),
            reserve=tuple(reserve),
            stock=stock,
            waste=waste,
            removed=removed,
            pass_removed=True,
            points=add_score(state.points, gained),
            cleared_pass=cleared_pass,
            moves=state.moves + 1,
        )

    def _unavailable(self, state: PyramidState, card: str, partner: list[str]) -> Words | None:
        """Why ``card`` may not be used now alongside ``partner``, or ``None`` if it may."""
        if card in state.removed:
            return Words(gettext_noop("%(card)s has already been removed"), {"card": card})
        if card in state.reserve:
            return None
        if card in state.stock:
            if card == state.stock[0]:
                return None
            return Words(
                gettext_noop("%(card)s is in the stock, under %(top)s"), {"card": card, "top": state.stock[0]}
            )
        if card in state.waste:
            if card != state.waste[-1]:
                return Words(
                    gettext_noop("%(card)s is in the waste, under %(top)s"),
                    {"card": card, "top": state.waste[-1]},
                )
            if state.config.waste_off_limits:
                return Words(
                    gettext_noop("%(card)s is on the waste, and waste cards may not be used in this game"),
                    {"card": card},
                )
            return None
        k = state.tableau.index(card)
        covering = [c for j in state.geometry.covered_by[k] if (c := state.tableau[j]) is not None]
        if not covering:
            return None
        if (
            state.config.overlap_pairs
            and covering == partner
            and state.tableau.index(partner[0]) in exposed_positions(state)
        ):
            return None
        return Words(
            gettext_noop("%(card)s is covered by %(cards)s"), {"card": card, "cards": and_words(covering)}
        )

    def _view(self, state: PyramidState, *, seat: int | None, reveal: bool) -> PyramidView:
        geometry = state.geometry
        exposed = set(exposed_positions(state))
        tableau = tuple(
            tuple(
                PyramidSlot(
                    row=r, index=geometry.positions[k][1], card=state.tableau[k], exposed=k in exposed
                )
                for k in geometry.row_slots[r]
            )
            for r in range(geometry.rows)
        )
        waste_top = state.waste[-1] if state.waste else None
        outcome = self.outcome(state)
        return PyramidView(
            game=self.name,
            seat=seat,
            config=state.config.as_dict(),
            moves=self.offered(state, seat),
            tableau=tableau,
            reserve=state.reserve,
            stock_count=len(state.stock),
            stock_top=state.stock[0] if state.stock else None,
            waste=state.waste,
            waste_top=waste_top,
            waste_top_available=waste_top is not None and not state.config.waste_off_limits,
            removed=state.removed,
            available=tuple(available_cards(state)) if state.status == PLAYING else (),
            pass_number=state.pass_number,
            redeals_used=state.redeals_used,
            redeals_left=state.redeals_left,
            score=self._score(state),
            points=state.points,
            par=par_score(state) if state.config.scoring == "par" else None,
            cards_left=cards_left(state),
            move_count=state.moves,
            status=state.status,
            over=state.status != PLAYING,
            outcome=None if outcome is None else PyramidOutcome(**outcome),
            stock=state.stock if reveal else None,
            seed=state.seed if reveal else None,
        )

    def _score(self, state: PyramidState) -> int:
        return par_score(state) if state.config.scoring == "par" else state.points

    def outcome(self, state: PyramidState) -> dict[str, Any] | None:
        if state.status == PLAYING:
            return None
        return {
            "won": state.status == WON,
            "status": state.status,
            "reason": _reason(state),
            "scoring": state.config.scoring,
            "score": self._score(state),
            "points": state.points,
            "par": par_score(state) if state.config.scoring == "par" else None,
            "cards_left": cards_left(state),
            "tableau_left": sum(card is not None for card in state.tableau),
            "tableau_cleared": state.cleared_pass is not None,
            "cleared_pass": state.cleared_pass,
            "passes": state.pass_number,
            "redeals_used": state.redeals_used,
            "moves": state.moves,
        }


def _reason(state: PyramidState) -> str:
    """Why the game ended: ``cleared``, ``board_cleared``, ``resigned``, ``idle_pass`` or ``no_moves``."""
    if state.status == WON:
        return "cleared" if len(state.removed) == DECK_SIZE else "board_cleared"
    if state.status == RESIGNED:
        return "resigned"
    if state.config.redeals is None and state.waste and not state.pass_removed:
        return "idle_pass"
    return "no_moves"


ENGINE = PyramidEngine()
