"""The built-in Pyramid Poker bot (LP-4): ``choose(view, seed)`` from one seat's view alone.

It never sees a state, only ``BlocksEngine.view(state, seat)`` (a ``BlocksView``), so it treats every block
it has not seen (not face up, not placed by itself) as equally likely to be any of the
faces still unaccounted for.

- ``hand_estimate`` rates a hand of 0-5 cards on a scale of poker categories (0 No Pair
  .. 9 Royal Flush): its made pairs and trips, plus what its free slots can still
  become (a flush while all its cards share a suit, a straight while its ranks fit in
  five, more of a rank while copies remain to be found).
- The bot compares each of its hands with the opponent's hand in the same position
  (visible, face up) and turns the difference into a chance of winning that pair. In
  basic scoring it maximizes the chance of winning at least two pairs (BL-6); in
  advanced scoring the expected points of its hands plus the +3 / +4 bonuses (BL-7).
- Taking: a block it placed is worth what it adds to that objective in its best hand;
  any other block the average over the unseen faces (a Joker: the expected best of the
  three it turns over). Hand choice and Joker keeps take the largest gain, so a poor
  card lands where it does least harm.
- Building: a block it will want back goes high in the pyramid, where it is free early
  and the bot can take it before the opponent gets a blind chance at it; poor blocks go
  low, to be shared out at the end when both players must take what is left.

The seed only breaks ties between equally good actions (``rng.SeededRNG``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cached_property

from games.engine.base import Move
from games.engine.blocks import BLOCKS, JOKER_REVEAL, JOKERS, BlocksView
from games.engine.poker import HAND_NAMES, HAND_POINTS, poker_category, poker_value
from games.engine.rng import SeededRNG

RANK_ORDER = "23456789TJQKA"
HAND_SIZE = 5

CATEGORY_WORTH: tuple[float, ...] = (0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.2, 7.5, 9.0, 10.0)
"""What a finished hand of each category (``poker.HAND_NAMES`` order) is worth to the bot."""

FLUSH_CHANCE = (0.0, 0.04, 0.12, 0.3, 0.6, 1.0)
STRAIGHT_CHANCE = (0.0, 0.03, 0.1, 0.25, 0.5, 1.0)
"""Rough chances, by suited or connected cards held, that steering completes the draw."""
UPGRADE_PER_SLOT = {0: 0.3, 1: 0.45, 2: 0.5, 3: 0.9}
"""Expected category gain per free slot for a hand whose best made set is that category."""
KICKER_WEIGHT = 0.01
EMPTY_HAND_WORTH = 1.2
"""An empty hand ends up, with steering, around a pair; only its difference to others matters."""
WANTED_QUALITY = 0.45
"""Blocks of a higher ``_card_quality`` (a king, an ace, a Joker, a 6 or better pairing a
block already placed) are built as high as possible; all others as low as possible."""
_POINTS = [HAND_POINTS[name] for name in HAND_NAMES]


def _points_of(worth: float) -> float:
    """Advanced points (BL-7) of a hand of this worth, interpolated between categories."""
    for k in range(len(CATEGORY_WORTH) - 1):
        low, high = CATEGORY_WORTH[k], CATEGORY_WORTH[k + 1]
        if worth < high:
            share = max(0.0, (worth - low) / (high - low))
            return _POINTS[k] + share * (_POINTS[k + 1] - _POINTS[k])
    return float(_POINTS[-1])


def _rank(card: str) -> int:
    return RANK_ORDER.index(card[0])


def hand_estimate(cards: Sequence[str], unseen: Counter[str]) -> float:
    """How good this hand (0-5 cards) should end up; ``unseen`` counts obtainable ranks and suits."""
    n = len(cards)
    ranks = [_rank(card) for card in cards]
    kicker = KICKER_WEIGHT * sum(ranks) / max(n, 1)
    if n == HAND_SIZE:
        return CATEGORY_WORTH[poker_category(cards)] + kicker
    if n == 0:
        return EMPTY_HAND_WORTH
    free = HAND_SIZE - n
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 4:
        made = 7
    elif shape[0] == 3:
        made = 6 if len(shape) > 1 and shape[1] == 2 else 3
    elif shape[0] == 2:
        made = 2 if len(shape) > 1 and shape[1] == 2 else 1
    else:
        made = 0
    to_find = sum(unseen[RANK_ORDER[r]] for r in counts)
    upgrade = UPGRADE_PER_SLOT.get(made, 0.0) * free * min(1.0, to_find / 3)
    best = CATEGORY_WORTH[made] + upgrade
    suits = {card[1] for card in cards}
    if len(suits) == 1 and unseen[next(iter(suits))] >= free:
        best = max(best, CATEGORY_WORTH[5] * FLUSH_CHANCE[n] + upgrade)
    if made == 0 and _fits_straight(ranks):
        best = max(best, CATEGORY_WORTH[4] * STRAIGHT_CHANCE[n] + upgrade)
    return best + kicker


def _fits_straight(ranks: list[int]) -> bool:
    if max(ranks) - min(ranks) <= 4:
        return True
    # The ace also plays low (A-2-3-4-5, BL-6).
    low = [-1 if r == 12 else r for r in ranks]
    return max(low) - min(low) <= 4


class _Knowledge:
    """What one view tells the bot about its own hands and the blocks still unseen."""

    def __init__(self, view: BlocksView, me: int) -> None:
        self.hands: list[list[str]] = [list(hand.cards) for hand in view.hands[me]]
        seen: set[str] = set()
        for seat_hands in view.hands:
            for hand in seat_hands:
                seen.update(hand.cards)
        seen.update(view.discards)
        seen.update(view.revealed)
        self.mine: dict[tuple[int, int], str] = {}
        for place in view.pyramid:
            if place.face is not None:
                seen.add(place.face)
                self.mine[place.row, place.index] = place.face
        holding = view.holding
        if holding is not None and holding.face is not None:
            seen.add(holding.face)
        if view.next_block is not None:
            seen.add(view.next_block)
        self.pool: list[str] = [block for block in BLOCKS if block not in seen]
        self.unseen: Counter[str] = Counter()
        for card in [*self.pool, *self.mine.values()]:
            if card not in JOKERS:
                self.unseen[card[0]] += 1
                self.unseen[card[1]] += 1
        self.theirs: list[list[str]] = [list(hand.cards) for hand in view.hands[1 - me]]
        self.advanced = view.config["scoring"] == "advanced"
        self._their_worth = [hand_estimate(hand, self.unseen) for hand in self.theirs]
        self._chances = [self._chance(k, hand) for k, hand in enumerate(self.hands)]
        self._worths = [hand_estimate(hand, self.unseen) for hand in self.hands]
        self._base = self._utility(self._chances, self._worths)

    def _chance(self, k: int, hand: list[str], worth: float | None = None) -> float:
        """The chance that this hand beats the opponent's hand ``k`` at the showdown."""
        theirs = self.theirs[k]
        if len(hand) == HAND_SIZE and len(theirs) == HAND_SIZE:
            mine, other = poker_value(hand), poker_value(theirs)
            return 1.0 if mine > other else 0.5 if mine == other else 0.0
        if worth is None:
            worth = hand_estimate(hand, self.unseen)
        spread = 0.35 + 0.12 * (2 * HAND_SIZE - len(hand) - len(theirs))
        return 1.0 / (1.0 + math.exp(-(worth - self._their_worth[k]) / spread))

    def _utility(self, chances: list[float], worths: list[float]) -> float:
        a, b, c = chances
        two_or_more = a * b + a * c + b * c - 2 * a * b * c
        if not self.advanced:
            return two_or_more
        all_three = a * b * c
        points = sum(_points_of(w) for w in worths)
        return points + 3 * (two_or_more - all_three) + 4 * all_three

    def placements(self, card: str) -> list[tuple[float, int]]:
        """(gain, hand index) for each hand with room."""
        out = []
        for k, hand in enumerate(self.hands):
            if len(hand) < HAND_SIZE:
                grown = [*hand, card]
                worth = hand_estimate(grown, self.unseen)
                chances = list(self._chances)
                chances[k] = self._chance(k, grown, worth)
                worths = list(self._worths)
                worths[k] = worth
                out.append((self._utility(chances, worths) - self._base, k))
        return out

    def gain(self, card: str) -> float:
        if card in JOKERS:
            return self.joker_gain()
        return max(g for g, _ in self.placements(card))

    @cached_property
    def pool_gains(self) -> list[float]:
        """The gain of each unseen card, smallest first."""
        return sorted(self.gain(card) for card in self.pool if card not in JOKERS)

    def joker_gain(self) -> float:
        return _expected_best_of(self.pool_gains, JOKER_REVEAL)

    def unknown_gain(self) -> float:
        gains = self.pool_gains
        if not gains:
            return 0.0
        jokers = sum(1 for card in self.pool if card in JOKERS)
        return (sum(gains) + jokers * self.joker_gain()) / (len(gains) + jokers)


def _expected_best_of(sorted_gains: list[float], k: int) -> float:
    """The expected largest of ``k`` values drawn without replacement (all of them if fewer)."""
    n = len(sorted_gains)
    if n <= k:
        return sorted_gains[-1] if sorted_gains else 0.0
    # P(the i-th smallest is the largest drawn) = C(i, k-1) / C(n, k), 0-based i.
    total, ways, choose = 0.0, 0.0, 1.0
    for i, g in enumerate(sorted_gains):
        if i >= k - 1:
            choose = 1.0 if i == k - 1 else choose * i / (i - k + 1)
            total += g * choose
            ways += choose
    return total / ways


def _pick(scored: Iterable[tuple[float, str]], seed: int) -> str:
    options = list(scored)
    best = max(score for score, _ in options)
    top = [action for score, action in options if score >= best - 1e-9]
    return top[SeededRNG(seed).below(len(top))]


def _place_of(move: Move) -> tuple[int, int]:
    row, index = move.at
    return row, index


def _card_quality(card: str, seat: _Knowledge) -> float:
    """How much the bot wants a block back, before any hand exists: 0 (junk) .. about 1."""
    if card in JOKERS:
        return 1.0
    rank = _rank(card)
    same_rank = sum(1 for c in seat.mine.values() if c[0] == card[0])
    same_suit = sum(1 for c in seat.mine.values() if c[1] == card[1])
    return rank / 12 * 0.5 + 0.3 * min(same_rank, 2) + 0.03 * same_suit


def choose(view: BlocksView, seed: int) -> str:
    """The bot's action text for the seat whose view this is; one of ``view.legal``."""
    moves = view.moves
    if not moves:
        raise ValueError("the bot was asked to act, but this view has no legal action")
    if len(moves) == 1:
        return moves[0].text
    if view.seat is None:
        raise ValueError("the bot plays from one seat's view, not a spectator's or a full view")
    seat = _Knowledge(view, view.seat)
    phase = view.phase
    if phase == "build":
        if view.next_block is None:
            raise ValueError("the bot was asked to build, but its view shows no next block")
        quality = _card_quality(view.next_block, seat) - WANTED_QUALITY
        return _pick(((quality * _place_of(m)[0], m.text) for m in moves), seed)
    if phase == "take":
        unknown = seat.unknown_gain()
        return _pick(
            (
                (seat.gain(seat.mine[p]) if (p := _place_of(m)) in seat.mine else unknown, m.text)
                for m in moves
            ),
            seed,
        )
    if phase == "hand":
        if view.holding is None or view.holding.face is None:
            raise ValueError("the bot was asked to choose a hand, but its view shows no block held")
        into = {move.at[0] - 1: move.text for move in moves}
        return _pick(((g, into[k]) for g, k in seat.placements(view.holding.face)), seed)
    # phase == "joker": keep the turned-over block that adds the most.
    return _pick(((seat.gain(m.cards[0]), m.text) for m in moves), seed)
