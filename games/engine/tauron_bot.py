"""The built-in Tauron Hold-Em bot (LP-4, TH-6): ``choose(view, seed) -> action text``.

It decides from its own seat's ``TauronView`` alone. Its yardstick is its *chance*: how
often its hole cards with the board end best against every player still in, found by
dealing what it cannot see (the rest of the board and the other holes) in seeded samples.
The holes it cannot see are dealt at random, which is all the view tells of them.

- Betting: with a good chance it bets, or raises a bet, a share of the pot that grows
  with the chance; facing a bet it calls when the chance beats the price (to call / pot
  after calling) and otherwise folds; with nothing to call it checks.
- Showdown: it shows, unless a hand already shown beats it: then it folds, keeping its
  cards hidden (TR-7).
"""

from __future__ import annotations

from games.engine.base import Move
from games.engine.rng import SeededRNG
from games.engine.tauron import BOARD, HOLE, TauronSeat, TauronView
from games.engine.triad_hands import COPIES, to_codes, value_of_codes

SAMPLES = 150
"""Deals sampled per decision: the chance to within about 4 points, in a few milliseconds."""
OPEN_AT = 0.6
RAISE_AT = 0.78
"""Chances of ending best from which it bets into a pot, or raises a bet: well above an
even share, so that mostly worse hands pay; below them it checks, calls or folds."""


def choose(view: TauronView, seed: int) -> str:
    """One of ``view.legal``, decided from the view alone and ``seed`` (LP-4)."""
    legal = view.legal
    if not legal:
        raise ValueError("this seat has no legal action in the view it was given")
    if len(legal) == 1:
        return legal[0]
    if view.phase == "showdown":
        return _showdown(view)
    return _wager(view, chance(view, SeededRNG(seed)))


def chance(view: TauronView, rng: SeededRNG) -> float:
    """The share of sampled deals in which this seat's hand is best (a tie counts as a share)."""
    hole, board = to_codes(_own(view).hole or ()), to_codes(view.board)
    others = [entry for entry in view.seats if entry.seat != view.seat and entry.in_deal and not entry.folded]
    pool = _unseen(view, hole + board)
    hidden = [entry for entry in others if entry.hole is None]
    known = [to_codes(entry.hole) for entry in others if entry.hole is not None]
    missing = BOARD - len(board)
    total = 0.0
    for _ in range(SAMPLES):
        drawn = _sample(pool, missing + HOLE * len(hidden), rng)
        shared = board + drawn[:missing]
        holes = known + [drawn[missing + HOLE * i : missing + HOLE * (i + 1)] for i in range(len(hidden))]
        total += _share(_value(hole + shared), [_value(other + shared) for other in holes])
    return total / SAMPLES


def _value(codes: tuple[int, ...]) -> int:
    return value_of_codes(tuple(sorted(codes)))


def _share(ours: int, theirs: list[int]) -> float:
    """This seat's share of a pot its hand value ``ours`` would take against ``theirs``."""
    if any(value > ours for value in theirs):
        return 0.0
    return 1.0 / (1 + sum(1 for value in theirs if value == ours))


def _unseen(view: TauronView, mine: tuple[int, ...]) -> list[int]:
    """Codes of the cards this seat cannot see: the deck, the folded and the unshown holes."""
    counts = list(COPIES)
    seen = list(mine)
    for entry in view.seats:
        if entry.seat != view.seat and entry.hole:
            seen += to_codes(entry.hole)
    for code in seen:
        counts[code] -= 1
    return [code for code, n in enumerate(counts) for _ in range(n)]


def _sample(pool: list[int], k: int, rng: SeededRNG) -> tuple[int, ...]:
    """``k`` cards drawn from ``pool`` without replacement: the first ``k`` steps of Fisher-Yates."""
    cards = list(pool)
    for i in range(k):
        j = i + rng.below(len(cards) - i)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards[:k])


def _wager(view: TauronView, odds: float) -> str:
    """TR-8 as a policy: bet or raise for value, call at a fair price, else check or fold;
    never more chips than ``_budget`` allows."""
    to_call = view.to_call or 0
    budget = _budget(view)
    sized = [move for move in view.moves if move.kind in ("bet", "raise") and _cost(move, to_call) <= budget]
    if sized and odds >= (RAISE_AT if to_call else OPEN_AT):
        # A stronger hand wants a bigger pot: from a third of it up to all of it.
        share = min(1.0, 1 / 3 + 2 * (odds - OPEN_AT))
        return _nearest(sized, view.pot * share).text
    if not to_call:
        return "check"
    price = to_call / (view.pot + to_call)
    return "call" if odds >= price and to_call <= budget else "fold"


def _cost(move: Move, to_call: int) -> int:
    return to_call + (move.amount or 0) if move.kind == "raise" else move.amount or 0


def _budget(view: TauronView) -> int:
    """The most chips it may still put in this hand. A match is won by holding the most
    chips at the end (TR-15): once it would hold more than half of them even after
    losing what it puts in now and an ante in every hand left, it risks no more than that."""
    mine = _own(view).chips
    total = sum(entry.chips for entry in view.seats) + view.pot + view.held_pot
    spare = 2 * (mine - int(view.config["ante"]) * (view.hands - view.hand)) - total
    return (spare - 1) // 2 if spare > 0 else mine


def _nearest(moves: list[Move], chips: float) -> Move:
    return min(moves, key=lambda move: (abs((move.amount or 0) - chips), move.amount or 0))


def _own(view: TauronView) -> TauronSeat:
    """The bot's own seat: a spectator's view has no hand to play."""
    if view.seat is None or view.hole is None:
        raise ValueError("the bot plays from a seat's own view, not a spectator's")
    return view.seats[view.seat]


def _showdown(view: TauronView) -> str:
    board = to_codes(view.board)
    ours = _value(to_codes(_own(view).hole or ()) + board)
    shown = [entry for entry in view.seats if _shown_by_other(view, entry)]
    beaten = any(_value(to_codes(entry.hole or ()) + board) > ours for entry in shown)
    return "fold" if beaten else "show"


def _shown_by_other(view: TauronView, entry: TauronSeat) -> bool:
    return entry.seat != view.seat and entry.shown and not entry.folded and entry.hole is not None
