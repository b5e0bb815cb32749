"""Pyramid Poker, the two-player block game (``blocks``): RULES.md section 4, BL-1..BL-8.

How this engine reads the rules where the text leaves room (docs/rules.md, "Pyramid Poker", says
the same for players):

Deal (BL-1). The 54 blocks are the 52 cards and the Jokers ``X1``, ``X2``. A deck, given
or shuffled from the seed with ``rng.shuffled``, is dealt top first: the game's first
player takes blocks 1-15 as their personal supply (next block first), the second player
16-30, and the other 24 are the general supply (top first). Game ``k`` of a match
(``k`` counts every game dealt, tie replays included, from 0) uses the given deck or the
seed for ``k = 0`` and ``rng.derive_seed(seed, "game", k)`` after that. Seat ``k % 2``
is the first player of game ``k``, so first move alternates through a match.

Places (BL-2) are ``(row, index)``: row 0 is the foundation, places 0-7; row ``r`` has
places ``0 .. 7 - r``; ``(r, i)`` rests on ``(r-1, i)`` and ``(r-1, i+1)``. Building can
never get stuck: the lowest empty place is always open, and 30 < 36 places.

Actions (their canonical texts):
- ``place R,I`` (BL-3): put the next block of your own supply on open place (R, I). The
  player to place sees that block in their view (``next_block``) before choosing.
- ``take R,I`` (BL-4): take a block no block rests on. Only the taker sees its face.
- ``hand K`` (K = 1, 2, 3): put the block you hold into hand K (5 blocks at most); from
  then on it is face up for both. Every take ends with exactly one ``hand K``.
- ``keep CARD`` (BL-5): after taking a Joker. The Joker is discarded face up and up to 3
  blocks of the general supply are turned over face up, a turned-over Joker being
  discarded and replaced by the next supply block; the taker keeps one (then ``hand K``)
  and the others are discarded face up. The supply never runs dry: only 2 Jokers exist,
  so at most 6 blocks are turned over in a game (both Jokers in the pyramid) and at most
  4 when one Joker is in the supply, against 24 in it.
- ``tie-replay``: a table action (``current_player == TABLE_SEAT``) that deals the
  tie-replay game of BL-8.
Each player takes exactly 15 blocks (30 takes, alternating) and each take puts exactly
one block into a hand, Joker or not, so the three hands fill exactly when the pyramid
empties and a hand step always has a hand with room.

Showdown (BL-6). Hand K meets hand K; the better poker hand wins that pair, equal poker
value is a drawn pair. A player wins the game by winning more pairs than the opponent
(2-1, 2-0, 3-0, and also 1-0 with two drawn pairs). The game *ends equal* when both won
the same number of pairs (1-1 with a draw, or three draws).

Advanced scoring (BL-7, ``scoring="advanced"``). A game scores, for each player: the sum
of their three hands' points (Royal Flush 5 ... No Pair -1, ``poker.HAND_POINTS``); +3 if
they won exactly two pairs, +4 if they won all three (not both); -1 more if all three of
their hands are No Pair. Game points may be negative and are added to the match totals.
After each game, if a total is at least ``target`` the match is over and the higher
total wins; if both totals are equal (both at or past the target) the match ends equal.
Otherwise the next game is dealt at once.

Tie replay (BL-8). A basic game, or an advanced match, that ends equal waits for the
``tie-replay`` table action, which deals a fresh game. A basic tie replay is decided like
any game; an advanced one adds its points to the totals and the higher total wins the
match whatever the target. Either repeats while still equal, so a finished game always
has a winner.

Views (LP-3). ``view(state, seat)`` is a ``BlocksView`` holding only what that seat may
know; ``view(state, None)`` is a spectator's. ``full_view(state)`` shows every block, both
supplies and the general supply in order (not the seed); it is for replays of finished
games (LP-3) and tests, never for a game still being played.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Literal

from games.engine import config as cfg
from games.engine.base import (
    TABLE_SEAT,
    Engine,
    IllegalAction,
    Move,
    View,
    and_words,
    check_seed,
    gettext_noop,
)
from games.engine.cards import STANDARD_DECK, check_deck
from games.engine.poker import HAND_POINTS, poker_name, poker_value
from games.engine.rng import derive_seed, shuffled

__all__ = [
    "BLOCKS",
    "ENGINE",
    "JOKERS",
    "PLACES",
    "Action",
    "BlocksBreakdown",
    "BlocksEngine",
    "BlocksHand",
    "BlocksHeld",
    "BlocksOutcome",
    "BlocksPlace",
    "BlocksResult",
    "BlocksShownHand",
    "BlocksState",
    "BlocksSupply",
    "BlocksView",
    "GameResult",
    "Keep",
    "Place",
    "PutInHand",
    "Take",
    "TieReplay",
    "poker_name",
    "poker_value",
    "score_breakdown",
]

JOKERS: tuple[str, ...] = ("X1", "X2")
BLOCKS: tuple[str, ...] = STANDARD_DECK + JOKERS
FOUNDATION = 8
PYRAMID_SIZE = 30
SUPPLY_SIZE = 15
HAND_COUNT = 3
HAND_SIZE = 5
JOKER_REVEAL = 3

PLACES: tuple[tuple[int, int], ...] = tuple((r, i) for r in range(FOUNDATION) for i in range(FOUNDATION - r))
"""Every place of the pyramid, foundation first; a state's pyramid is indexed like this."""
PLACE_ID: dict[tuple[int, int], int] = {place: n for n, place in enumerate(PLACES)}
SUPPORTS: tuple[tuple[int, ...], ...] = tuple(
    () if r == 0 else (PLACE_ID[r - 1, i], PLACE_ID[r - 1, i + 1]) for r, i in PLACES
)
"""The places a place rests on."""
RESTING_ON: tuple[tuple[int, ...], ...] = tuple(
    tuple(PLACE_ID[p] for p in ((r + 1, i - 1), (r + 1, i)) if p in PLACE_ID) for r, i in PLACES
)
"""The places that rest on a place."""

OPTIONS: dict[str, cfg.Option] = {
    "scoring": cfg.Option("basic", cfg.one_of("basic", "advanced")),
    "target": cfg.Option(7, cfg.one_of(7, 11)),
}

WIN_BONUS: dict[int, int] = {2: 3, 3: 4}
"""BL-7: points for winning exactly two pairs of hands, or all three."""

Phase = Literal["build", "take", "hand", "joker", "tie-replay", "over"]
Viewer = int | None | Literal["all"]


# --- actions -------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """BL-3: put the next block of one's own supply on place (row, index)."""

    row: int
    index: int

    def __str__(self) -> str:
        return f"place {self.row},{self.index}"


@dataclass(frozen=True)
class Take:
    """BL-4: take the block at (row, index) out of the pyramid."""

    row: int
    index: int

    def __str__(self) -> str:
        return f"take {self.row},{self.index}"


@dataclass(frozen=True)
class PutInHand:
    """BL-4: put the held block into hand 1, 2 or 3."""

    hand: int

    def __str__(self) -> str:
        return f"hand {self.hand}"


@dataclass(frozen=True)
class Keep:
    """BL-5: keep this one of the blocks a Joker turned over."""

    card: str

    def __str__(self) -> str:
        return f"keep {self.card}"


@dataclass(frozen=True)
class TieReplay:
    """BL-8: the table starts the tie-replay game."""

    def __str__(self) -> str:
        return "tie-replay"


Action = Place | Take | PutInHand | Keep | TieReplay


def as_move(action: Action) -> Move:
    """The action as a page offers it: the place it goes to, the hand, or the block kept."""
    text = str(action)
    if isinstance(action, Place):
        return Move(text, "place", at=(action.row, action.index))
    if isinstance(action, Take):
        return Move(text, "take", at=(action.row, action.index))
    if isinstance(action, PutInHand):
        return Move(text, "hand", at=(action.hand,))
    if isinstance(action, Keep):
        return Move(text, "keep", cards=(action.card,))
    return Move(text, "tie-replay")


# ASCII only: ``\d`` would also take Arabic-Indic or fullwidth digits (and ``int()`` reads
# them), and an action's text must be its canonical form. A few digits suffice for any
# row, index or hand, and keep a 5,000-digit text away from ``int()``'s own limit (which
# raises a plain ``ValueError``); a block's text is short too ('Ah', 'Td', 'X1').
_PLACE_RE = re.compile(r"(place|take)\s+([0-9]{1,4})\s*,\s*([0-9]{1,4})", re.ASCII)
_HAND_RE = re.compile(r"hand\s+([0-9]{1,4})", re.ASCII)
_KEEP_RE = re.compile(r"keep\s+([0-9A-Za-z]{1,3})", re.ASCII)


# --- state ---------------------------------------------------------------------------

Block = tuple[str, int]
"""A block in the pyramid: its face and the seat that placed it."""
Hands = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Holding:
    """A block taken and not yet put into a hand."""

    face: str
    placer: int | None
    """Who placed it; ``None`` for a block turned over from the general supply (public)."""
    origin: tuple[int, int] | None


@dataclass(frozen=True)
class GameResult:
    """One showdown (BL-6), with its advanced points (BL-7) when the match scores them."""

    game: int
    first: int
    tie_replay: bool
    hands: tuple[Hands, Hands]
    pairs: tuple[int | None, ...]
    """The winning seat of each pair of hands; ``None`` for a drawn pair."""
    won: tuple[int, int]
    points: tuple[int, int] | None
    totals: tuple[int, int] | None
    """Match totals after this game (advanced only)."""

    @property
    def winner(self) -> int | None:
        """The seat that won more pairs; ``None`` when the game ended equal."""
        if self.won[0] == self.won[1]:
            return None
        return 0 if self.won[0] > self.won[1] else 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "first_player": self.first,
            "tie_replay": self.tie_replay,
            "hands": [_hands_json(hands, complete=True) for hands in self.hands],
            "pairs": list(self.pairs),
            "won": list(self.won),
            "winner": self.winner,
            "points": None if self.points is None else list(self.points),
            "breakdown": None
            if self.points is None
            else [score_breakdown(hands, won) for hands, won in zip(self.hands, self.won, strict=True)],
            "totals": None if self.totals is None else list(self.totals),
        }


@dataclass(frozen=True)
class BlocksState:
    """A whole game or match: the current deal, where every block is, and past showdowns."""

    scoring: str
    target: int
    seed: int
    game: int
    """How many games this match dealt before this one (tie replays included)."""
    first: int
    tie_replay: bool
    phase: Phase
    to_act: int
    """The seat to act in build, take, hand and joker phases; meaningless otherwise."""
    supplies: tuple[tuple[str, ...], tuple[str, ...]]
    general: tuple[str, ...]
    pyramid: tuple[Block | None, ...]
    placed: int
    hands: tuple[Hands, Hands]
    discards: tuple[str, ...]
    holding: Holding | None
    revealed: tuple[str, ...]
    totals: tuple[int, int]
    results: tuple[GameResult, ...]
    forfeited: int | None = None
    """TN-6: the seat that lost by forfeit (``forfeit``), which ended the game or match."""


def _hands_json(hands: Hands, *, complete: bool = False) -> list[dict[str, Any]]:
    out = []
    for hand in hands:
        full = len(hand) == HAND_SIZE
        item: dict[str, Any] = {"cards": list(hand), "name": poker_name(hand) if full else None}
        if complete:
            item["value"] = poker_value(hand)
        out.append(item)
    return out


def _deal_deck(seed: int, game: int) -> tuple[str, ...]:
    return tuple(shuffled(BLOCKS, seed if game == 0 else derive_seed(seed, "game", game)))


def _place_text(pid: int) -> str:
    return f"{PLACES[pid][0]},{PLACES[pid][1]}"


def _place_id(row: int, index: int) -> int:
    pid = PLACE_ID.get((row, index))
    if pid is None:
        last = FOUNDATION - 1
        raise IllegalAction(
            gettext_noop(
                "there is no place %(row)s,%(index)s: rows are 0-%(last)s and row R has places 0-%(last)s-R"
            ),
            row=row,
            index=index,
            last=last,
        )
    return pid


@lru_cache(maxsize=1 << 16)
def _place_view(pid: int, block: Block | None, seen: bool, can_place: bool, can_take: bool) -> BlocksPlace:
    """One place as a view shows it. Kept: a place changes little from one view to the next,
    and a table draws three views a move (a frozen dataclass is slow to make); there are
    fewer than 36 * 109 * 8 keys."""
    row, index = PLACES[pid]
    return BlocksPlace(
        row=row,
        index=index,
        filled=block is not None,
        face=block[0] if block is not None and seen else None,
        placer=None if block is None else block[1],
        open=can_place,
        takeable=can_take,
    )


_SUPPORT_BITS = tuple(sum(1 << below for below in SUPPORTS[pid]) for pid in range(len(PLACES)))
_RESTING_BITS = tuple(sum(1 << above for above in RESTING_ON[pid]) for pid in range(len(PLACES)))
_OPEN, _TAKEABLE, _STILL = (True, False), (False, True), (False, False)
_NONE_MOVABLE = (_STILL,) * len(PLACES)


@lru_cache(maxsize=1024)
def _movable(pyramid: tuple[Block | None, ...], phase: str) -> tuple[tuple[bool, bool], ...]:
    """Per place, whether a block may be placed there (building: it is empty and the places it
    rests on are filled) and whether it may be taken (taking: it is filled and nothing rests
    on it). The same for every view of a state, so worked out once; from the filled places as
    the bits of one int, each place's test a mask (a third of a view's making, place by place)."""
    if phase not in ("build", "take"):
        return _NONE_MOVABLE
    filled = sum(1 << pid for pid, block in enumerate(pyramid) if block is not None)
    if phase == "build":
        return tuple(
            _OPEN if not filled >> pid & 1 and filled & bits == bits else _STILL
            for pid, bits in enumerate(_SUPPORT_BITS)
        )
    return tuple(
        _TAKEABLE if filled >> pid & 1 and not filled & bits else _STILL
        for pid, bits in enumerate(_RESTING_BITS)
    )


@lru_cache(maxsize=1024)
def _pyramid_view(pyramid: tuple[Block | None, ...], phase: str, viewer: Viewer) -> tuple[BlocksPlace, ...]:
    """The pyramid as ``viewer`` sees it (BL-3). A seat's differs from the spectators' only at
    the blocks it placed, so it is made from theirs: a state's three views (and the words of
    the move that made it) cost little more than one."""
    movable = _movable(pyramid, phase)
    if viewer is None or viewer == "all":
        everything = viewer == "all"
        return tuple(
            _place_view(pid, block, block is not None and (everything or block[1] is None), *movable[pid])
            for pid, block in enumerate(pyramid)
        )
    places = list(_pyramid_view(pyramid, phase, None))
    for pid, block in enumerate(pyramid):
        if block is not None and block[1] == viewer:
            places[pid] = _place_view(pid, block, True, *movable[pid])
    return tuple(places)


def _with_card(hands: tuple[Hands, Hands], seat: int, hand: int, card: str) -> tuple[Hands, Hands]:
    mine = tuple((*cards, card) if k == hand else cards for k, cards in enumerate(hands[seat]))
    return (mine, hands[1]) if seat == 0 else (hands[0], mine)


def score_breakdown(hands: Hands, won: int) -> dict[str, Any]:
    """BL-7 for one player's game: each hand's points, the win bonus, the all-below-a-pair -1."""
    names = [poker_name(hand) for hand in hands]
    breakdown: dict[str, Any] = {
        "hands": [HAND_POINTS[name] for name in names],
        "bonus": WIN_BONUS.get(won, 0),
        "no_pair_penalty": -1 if all(name == "No Pair" for name in names) else 0,
    }
    breakdown["total"] = sum(breakdown["hands"]) + breakdown["bonus"] + breakdown["no_pair_penalty"]
    return breakdown


# --- the view's parts (LP-3) ---------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class BlocksPlace:
    """One place of the pyramid (BL-2) as a viewer knows it."""

    row: int
    index: int
    filled: bool
    face: str | None
    """The block's face; ``None`` when empty or hidden from this viewer (BL-3: known to its
    placer only)."""
    placer: int | None
    """The seat that placed the block (public); ``None`` when empty."""
    open: bool
    """A block may be placed here now (building only)."""
    takeable: bool
    """The block here may be taken now (taking only)."""


@dataclass(frozen=True, kw_only=True)
class BlocksHeld:
    """The block taken and not yet put into a hand (BL-4, BL-5)."""

    seat: int
    """The seat that took it."""
    face: str | None
    """``None`` unless the viewer may know it: its taker, its placer, or a block turned over."""
    origin: tuple[int, int] | None
    """The place it was taken from; ``None`` for a block kept after a Joker."""


@dataclass(frozen=True, kw_only=True)
class BlocksSupply:
    """A personal supply or the general supply: its size, and its blocks in order (next
    block first) in a full view only."""

    count: int
    blocks: tuple[str, ...] | None = None


@dataclass(frozen=True, kw_only=True)
class BlocksHand:
    """One of a player's three hands; every block in it is face up (BL-4)."""

    cards: tuple[str, ...]
    name: str | None
    """The poker hand's name once it holds five blocks."""


@dataclass(frozen=True, kw_only=True)
class BlocksShownHand(BlocksHand):
    """A hand at a showdown (BL-6): always five blocks, with its ``poker_value``."""

    value: int


@dataclass(frozen=True, kw_only=True)
class BlocksBreakdown:
    """BL-7 for one player's game: each hand's points, the win bonus, the no-pair penalty."""

    hands: tuple[int, ...]
    bonus: int
    no_pair_penalty: int
    total: int


@dataclass(frozen=True, kw_only=True)
class BlocksResult:
    """One showdown (BL-6), as ``GameResult.as_dict`` tells it."""

    game: int
    first_player: int
    tie_replay: bool
    hands: tuple[tuple[BlocksShownHand, ...], ...]
    """Per seat, its three hands."""
    pairs: tuple[int | None, ...]
    """The winning seat of each pair of hands; ``None`` for a drawn pair."""
    won: tuple[int, int]
    winner: int | None
    """``None`` when the game ended equal."""
    points: tuple[int, int] | None
    breakdown: tuple[BlocksBreakdown, ...] | None
    """Per seat (advanced scoring only)."""
    totals: tuple[int, int] | None
    """Match totals after this game (advanced only)."""


@dataclass(frozen=True, kw_only=True)
class BlocksOutcome:
    """How the game or match ended, as ``BlocksEngine.outcome`` tells it."""

    winner: int | None
    scoring: str
    target: int | None
    """The match target (advanced only)."""
    scores: tuple[int, ...]
    """Pairs won in the last game (basic), or the match totals (advanced)."""
    hands: tuple[tuple[BlocksShownHand, ...], ...]
    """The last game's hands."""
    games: tuple[BlocksResult, ...]


@dataclass(frozen=True, kw_only=True)
class BlocksView(View):
    """What one seat may know (LP-3). ``seat`` is ``None`` for a spectator and in a full
    view (``omniscient``), which shows every face, both supplies and the general supply in
    order. ``next_block`` is the block the seat to build places next, seen by that seat
    only (BL-3); ``revealed`` the blocks a Joker turned over (BL-5); ``scores`` the match
    totals (advanced scoring only)."""

    phase: Phase
    to_act: int | None
    game_number: int
    first_player: int
    tie_replay: bool
    pyramid: tuple[BlocksPlace, ...]
    """Every place, in ``PLACES`` order."""
    placed: int
    supplies: tuple[BlocksSupply, ...]
    general_supply: BlocksSupply
    next_block: str | None
    holding: BlocksHeld | None
    revealed: tuple[str, ...]
    hands: tuple[tuple[BlocksHand, ...], ...]
    """Per seat, its three hands."""
    discards: tuple[str, ...]
    scores: tuple[int, int] | None
    results: tuple[BlocksResult, ...]
    """Every showdown of this match so far."""
    last_result: BlocksResult | None
    outcome: BlocksOutcome | None
    omniscient: bool = False


@lru_cache(maxsize=4096)
def _hands_view(hands: Hands) -> tuple[BlocksHand, ...]:
    """A seat's hands as views show them: the same in every view of a state, and for many
    states on end, so each is named once."""
    return tuple(
        BlocksHand(cards=hand, name=poker_name(hand) if len(hand) == HAND_SIZE else None) for hand in hands
    )


@lru_cache(maxsize=1024)
def _result_view(result: GameResult) -> BlocksResult:
    """``result.as_dict()`` typed; a result never changes, so each is built once."""
    breakdown = None
    if result.points is not None:
        breakdown = tuple(
            BlocksBreakdown(
                hands=tuple(parts["hands"]),
                bonus=parts["bonus"],
                no_pair_penalty=parts["no_pair_penalty"],
                total=parts["total"],
            )
            for parts in (
                score_breakdown(hands, won) for hands, won in zip(result.hands, result.won, strict=True)
            )
        )
    return BlocksResult(
        game=result.game,
        first_player=result.first,
        tie_replay=result.tie_replay,
        hands=tuple(
            tuple(
                BlocksShownHand(cards=hand, name=poker_name(hand), value=poker_value(hand)) for hand in hands
            )
            for hands in result.hands
        ),
        pairs=result.pairs,
        won=result.won,
        winner=result.winner,
        points=result.points,
        breakdown=breakdown,
        totals=result.totals,
    )


class BlocksEngine(Engine[BlocksState, Action]):
    name = "blocks"
    options = OPTIONS
    version = 1
    min_players = 2
    max_players = 2

    def normalize_config(self, config: dict[str, Any] | None) -> dict[str, Any]:
        return cfg.resolve("blocks", config, OPTIONS)

    def initial_state(
        self, config: dict[str, Any] | None = None, seed: int = 0, deck: Sequence[str] | None = None
    ) -> BlocksState:
        options = self.normalize_config(config)
        check_seed(seed)
        cards = _deal_deck(seed, 0) if deck is None else check_deck(deck, BLOCKS, "blocks deck")
        empty: tuple[Hands, Hands] = ((), ())
        base = BlocksState(
            scoring=options["scoring"],
            target=options["target"],
            seed=seed,
            game=0,
            first=0,
            tie_replay=False,
            phase="build",
            to_act=0,
            supplies=((), ()),
            general=(),
            pyramid=(),
            placed=0,
            hands=empty,
            discards=(),
            holding=None,
            revealed=(),
            totals=(0, 0),
            results=(),
        )
        return self._deal(base, 0, cards, tie_replay=False)

    def _deal(self, state: BlocksState, game: int, deck: tuple[str, ...], *, tie_replay: bool) -> BlocksState:
        first = game % 2
        firsts, seconds = deck[:SUPPLY_SIZE], deck[SUPPLY_SIZE : 2 * SUPPLY_SIZE]
        supplies = (firsts, seconds) if first == 0 else (seconds, firsts)
        return replace(
            state,
            game=game,
            first=first,
            tie_replay=tie_replay,
            phase="build",
            to_act=first,
            supplies=supplies,
            general=deck[2 * SUPPLY_SIZE :],
            pyramid=(None,) * len(PLACES),
            placed=0,
            hands=(((),) * HAND_COUNT, ((),) * HAND_COUNT),
            discards=(),
            holding=None,
            revealed=(),
        )

    # --- the contract ----------------------------------------------------------------

    def current_player(self, state: BlocksState) -> int | None:
        if state.phase == "over":
            return None
        if state.phase == "tie-replay":
            return TABLE_SEAT
        return state.to_act

    def legal_actions(self, state: BlocksState) -> list[Action]:
        if state.phase == "build":
            movable = _movable(state.pyramid, state.phase)
            return [Place(*PLACES[pid]) for pid, (can_place, _) in enumerate(movable) if can_place]
        if state.phase == "take":
            movable = _movable(state.pyramid, state.phase)
            return [Take(*PLACES[pid]) for pid, (_, can_take) in enumerate(movable) if can_take]
        if state.phase == "hand":
            hands = state.hands[state.to_act]
            return [PutInHand(k + 1) for k in range(HAND_COUNT) if len(hands[k]) < HAND_SIZE]
        if state.phase == "joker":
            return [Keep(card) for card in state.revealed]
        if state.phase == "tie-replay":
            return [TieReplay()]
        return []

    def parse_action(self, text: str) -> Action:
        if not isinstance(text, str):
            raise IllegalAction(
                gettext_noop("an action text must be a string, not %(type)s"), type=type(text).__name__
            )
        clean = text.strip()
        if clean == "tie-replay":
            return TieReplay()
        if match := _PLACE_RE.fullmatch(clean):
            kind = Place if match[1] == "place" else Take
            return kind(int(match[2]), int(match[3]))
        if match := _HAND_RE.fullmatch(clean):
            return PutInHand(int(match[1]))
        if match := _KEEP_RE.fullmatch(clean):
            return Keep(match[1])
        raise IllegalAction(
            gettext_noop(
                "cannot read %(text)s: actions are 'place R,I', 'take R,I', 'hand K', 'keep CARD', "
                "'tie-replay'"
            ),
            text=repr(text),
        )

    def _apply(self, state: BlocksState, action: Action) -> BlocksState:
        if state.phase == "over":
            raise IllegalAction(gettext_noop("%(action)s is not possible: the game is over"), action=action)
        if isinstance(action, TieReplay):
            if state.phase != "tie-replay":
                raise IllegalAction(
                    gettext_noop("tie-replay is only possible after a game or match that ended equal")
                )
            return self._deal(state, state.game + 1, _deal_deck(state.seed, state.game + 1), tie_replay=True)
        if state.phase == "tie-replay":
            raise IllegalAction(
                gettext_noop("%(action)s is not possible: the tie-replay game has not started yet"),
                action=action,
            )
        if isinstance(action, Place):
            return self._place(state, action)
        if isinstance(action, Take):
            return self._take(state, action)
        if isinstance(action, Keep):
            return self._keep(state, action)
        if isinstance(action, PutInHand):
            return self._put(state, action)
        raise IllegalAction(gettext_noop("%(action)s is not a blocks action"), action=repr(action))

    def _wrong_phase(self, state: BlocksState, action: Action) -> IllegalAction:
        template = {
            "build": gettext_noop(
                "%(action)s is not possible now: seat %(seat)s must build the pyramid ('place R,I')"
            ),
            "take": gettext_noop(
                "%(action)s is not possible now: seat %(seat)s must take a block ('take R,I')"
            ),
            "hand": gettext_noop(
                "%(action)s is not possible now: seat %(seat)s must put the block taken into a hand "
                "('hand K')"
            ),
            "joker": gettext_noop(
                "%(action)s is not possible now: seat %(seat)s must keep one of the blocks the Joker "
                "turned over ('keep CARD')"
            ),
        }[state.phase]
        return IllegalAction(template, action=action, seat=state.to_act)

    def _place(self, state: BlocksState, action: Place) -> BlocksState:
        if state.phase != "build":
            raise self._wrong_phase(state, action)
        pid = _place_id(action.row, action.index)
        pyramid = state.pyramid
        if pyramid[pid] is not None:
            raise IllegalAction(gettext_noop("place %(place)s already holds a block"), place=_place_text(pid))
        missing = [_place_text(s) for s in SUPPORTS[pid] if pyramid[s] is None]
        if missing:
            below = and_words([_place_text(s) for s in SUPPORTS[pid]])
            if len(missing) > 1:
                raise IllegalAction(
                    gettext_noop("place %(place)s is not open: it rests on %(below)s; %(empty)s are empty"),
                    place=_place_text(pid),
                    below=below,
                    empty=and_words(missing),
                )
            raise IllegalAction(
                gettext_noop("place %(place)s is not open: it rests on %(below)s; %(empty)s is empty"),
                place=_place_text(pid),
                below=below,
                empty=missing[0],
            )
        seat = state.to_act
        card, rest = state.supplies[seat][0], state.supplies[seat][1:]
        supplies = (rest, state.supplies[1]) if seat == 0 else (state.supplies[0], rest)
        placed = state.placed + 1
        done = placed == PYRAMID_SIZE
        return replace(
            state,
            supplies=supplies,
            pyramid=(*pyramid[:pid], (card, seat), *pyramid[pid + 1 :]),
            placed=placed,
            phase="take" if done else "build",
            to_act=state.first if done else 1 - seat,
        )

    def _take(self, state: BlocksState, action: Take) -> BlocksState:
        if state.phase != "take":
            raise self._wrong_phase(state, action)
        pid = _place_id(action.row, action.index)
        block = state.pyramid[pid]
        if block is None:
            raise IllegalAction(gettext_noop("there is no block at %(place)s"), place=_place_text(pid))
        on_top = [_place_text(c) for c in RESTING_ON[pid] if state.pyramid[c] is not None]
        if on_top:
            template = (
                gettext_noop("block %(place)s cannot be taken: %(above)s rest on it")
                if len(on_top) > 1
                else gettext_noop("block %(place)s cannot be taken: %(above)s rests on it")
            )
            raise IllegalAction(template, place=_place_text(pid), above=and_words(on_top))
        pyramid = (*state.pyramid[:pid], None, *state.pyramid[pid + 1 :])
        face, placer = block
        if face not in JOKERS:
            return replace(state, pyramid=pyramid, phase="hand", holding=Holding(face, placer, PLACES[pid]))
        # BL-5: the supply can hold the other Joker; it is discarded and replaced.
        general = list(state.general)
        discards = [*state.discards, face]
        revealed: list[str] = []
        while len(revealed) < JOKER_REVEAL and general:
            card = general.pop(0)
            (discards if card in JOKERS else revealed).append(card)
        return replace(
            state,
            pyramid=pyramid,
            general=tuple(general),
            discards=tuple(discards),
            revealed=tuple(revealed),
            phase="joker",
        )

    def _keep(self, state: BlocksState, action: Keep) -> BlocksState:
        if state.phase != "joker":
            raise self._wrong_phase(state, action)
        if action.card not in state.revealed:
            raise IllegalAction(
                gettext_noop("%(card)s is not one of the blocks turned over: %(revealed)s"),
                card=action.card,
                revealed=list(state.revealed),
            )
        others = tuple(card for card in state.revealed if card != action.card)
        return replace(
            state,
            holding=Holding(action.card, None, None),
            revealed=(),
            discards=state.discards + others,
            phase="hand",
        )

    def _put(self, state: BlocksState, action: PutInHand) -> BlocksState:
        if state.phase != "hand":
            raise self._wrong_phase(state, action)
        if not 1 <= action.hand <= HAND_COUNT:
            raise IllegalAction(
                gettext_noop("there is no hand %(hand)s: hands are 1, 2 and 3"), hand=action.hand
            )
        seat, k = state.to_act, action.hand - 1
        if len(state.hands[seat][k]) >= HAND_SIZE:
            raise IllegalAction(
                gettext_noop("hand %(hand)s is full (%(size)s blocks)"), hand=action.hand, size=HAND_SIZE
            )
        assert state.holding is not None
        after = replace(
            state,
            hands=_with_card(state.hands, seat, k, state.holding.face),
            holding=None,
            phase="take",
            to_act=1 - seat,
        )
        if any(block is not None for block in after.pyramid):
            return after
        return self._showdown(after)

    def _showdown(self, state: BlocksState) -> BlocksState:
        hands = state.hands
        pairs: list[int | None] = []
        for mine, theirs in zip(hands[0], hands[1], strict=True):
            a, b = poker_value(mine), poker_value(theirs)
            pairs.append(None if a == b else (0 if a > b else 1))
        won = (pairs.count(0), pairs.count(1))
        points: tuple[int, int] | None = None
        totals: tuple[int, int] | None = None
        if state.scoring == "advanced":
            points = (score_breakdown(hands[0], won[0])["total"], score_breakdown(hands[1], won[1])["total"])
            totals = (state.totals[0] + points[0], state.totals[1] + points[1])
        result = GameResult(
            state.game, state.first, state.tie_replay, hands, tuple(pairs), won, points, totals
        )
        state = replace(
            state, results=(*state.results, result), totals=state.totals if totals is None else totals
        )
        if totals is None:
            ends_equal, over = result.winner is None, True
        else:
            ends_equal = totals[0] == totals[1]
            over = state.tie_replay or max(totals) >= state.target
        if over and ends_equal:
            return replace(state, phase="tie-replay")
        if over:
            return replace(state, phase="over")
        return self._deal(state, state.game + 1, _deal_deck(state.seed, state.game + 1), tie_replay=False)

    def places(self, outcome: Mapping[str, Any]) -> list[int]:
        """BL-6/BL-7: the winner first; a game or match that stayed equal is a tie."""
        winner = outcome["winner"]
        return [1, 1] if winner is None else [1 if seat == winner else 2 for seat in (0, 1)]

    def bot_action(self, view: Any, seed: int) -> str:
        from games.engine.blocks_bot import choose  # the bot imports this module

        return choose(view, seed)

    def timeout_action(self, view: Any, seed: int) -> str:
        """LP-1: a seat out of time plays the move the built-in bot would play."""
        return self.bot_action(view, seed)

    def outcome(self, state: BlocksState) -> dict[str, Any] | None:
        """The winner (``None`` for a game that stayed equal), the scores, the last showdown's
        hands (``None`` if a forfeit came before any) and every game's result; ``"forfeit"``:
        the seat that lost by forfeit, if one did (TN-6)."""
        if state.phase != "over":
            return None
        last = state.results[-1] if state.results else None
        if state.scoring == "advanced":
            scores = list(state.totals)
            winner: int | None = 0 if scores[0] > scores[1] else 1
        else:
            scores = list(last.won) if last is not None else [0, 0]
            winner = last.winner if last is not None else None
        result: dict[str, Any] = {
            "winner": winner if state.forfeited is None else 1 - state.forfeited,
            "scoring": state.scoring,
            "target": state.target if state.scoring == "advanced" else None,
            "scores": scores,
            "hands": last.as_dict()["hands"] if last is not None else None,
            "games": [result.as_dict() for result in state.results],
        }
        if state.forfeited is not None:
            result["forfeit"] = state.forfeited
        return result

    def forfeit(self, state: BlocksState, seat: int) -> BlocksState:
        """TN-6: the game (and the match) ends now, won by the other seat."""
        return replace(state, phase="over", holding=None, forfeited=seat)

    # --- views (LP-3) ------------------------------------------------------------------

    def view(self, state: BlocksState, seat: int | None) -> BlocksView:
        if seat == TABLE_SEAT:
            seat = None
        if seat is not None and (type(seat) is not int or seat not in (0, 1)):
            raise ValueError(f"seat must be 0, 1, None or {TABLE_SEAT} (spectator), got {seat!r}")
        return self._render(state, seat)

    def full_view(self, state: BlocksState) -> BlocksView:
        """Every block face and both supplies in order: for replays of finished games only."""
        return self._render(state, "all")

    def _render(self, state: BlocksState, viewer: Viewer) -> BlocksView:
        def sees(placer: int | None) -> bool:
            return viewer == "all" or placer is None or placer == viewer

        everything = viewer == "all"
        to_act = self.current_player(state)
        pyramid = _pyramid_view(state.pyramid, state.phase, viewer)
        holding = None
        if state.holding is not None:
            held = state.holding
            holding = BlocksHeld(
                seat=state.to_act,
                face=held.face if sees(held.placer) or viewer == state.to_act else None,
                origin=held.origin,
            )
        next_block = None
        if state.phase == "build" and viewer in ("all", state.to_act):
            next_block = state.supplies[state.to_act][0]
        moves = tuple(as_move(a) for a in self.legal_actions(state)) if everything or viewer == to_act else ()
        results = tuple(_result_view(result) for result in state.results)
        return BlocksView(
            game=self.name,
            seat=None if viewer == "all" else viewer,
            config={"scoring": state.scoring, "target": state.target},
            moves=moves,
            phase=state.phase,
            to_act=to_act,
            game_number=state.game,
            first_player=state.first,
            tie_replay=state.tie_replay,
            pyramid=pyramid,
            placed=state.placed,
            supplies=tuple(
                BlocksSupply(count=len(supply), blocks=supply if everything else None)
                for supply in state.supplies
            ),
            general_supply=BlocksSupply(
                count=len(state.general), blocks=state.general if everything else None
            ),
            next_block=next_block,
            holding=holding,
            revealed=state.revealed,
            hands=tuple(_hands_view(hands) for hands in state.hands),
            discards=state.discards,
            scores=state.totals if state.scoring == "advanced" else None,
            results=results,
            last_result=results[-1] if results else None,
            outcome=self._outcome_view(state, results),
            omniscient=everything,
        )

    def _outcome_view(self, state: BlocksState, results: tuple[BlocksResult, ...]) -> BlocksOutcome | None:
        """``outcome(state)`` typed, its showdowns the view's own."""
        data = self.outcome(state)
        if data is None:
            return None
        return BlocksOutcome(
            winner=data["winner"],
            scoring=data["scoring"],
            target=data["target"],
            scores=tuple(data["scores"]),
            hands=results[-1].hands if results else (),
            games=results,
        )


ENGINE = BlocksEngine()
