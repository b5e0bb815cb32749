"""The exact Pyramid search (PY-1 .. PY-6).

Every card in play gets a small integer id: tableau slots first (id = slot), then the
reserve, then the current pass's sequence (waste bottom to top, then stock top to
bottom). A position is ``live``, the bitmask of ids still in play; ``p``, the index in
the pass's sequence of the stock's top card; and a *context*: the redeals used, whether
this pass removed a card, and the pass's card order (which changes only with
``reshuffle``). Without reshuffle every pass walks the same sequence, so the waste is
the live cards before ``p`` and the stock the live cards from ``p`` on.

Depth-first search, with these reductions (each keeps the verdict exact):

* **Time dominance.** Drawing and redealing need nothing, so a position can always wait:
  with the same cards in play, an earlier moment (fewer redeals used, then a smaller
  ``p``) is at least as good as a later one. The table of failures therefore keeps, per
  set of live cards, the earliest moment known to fail, and one search frame walks the
  draws of a pass in a loop. After a draw only moves that use the new stock top are new:
  every other move was available a moment earlier and leads to the same position.
* **Safe removals.** An available King is removed at once and alone: any line that
  removes it later can be replayed with it already gone, since every card available in
  that line is available without the King, and the King pairs with nothing. The same
  holds for a *class* (the values ``v`` and ``13 - v``) whose cards in play are all
  available now and pair up exactly: removing all of them now takes away nothing that
  another card needs. (Removing just any pair early is not safe: its cards might be
  needed by other partners.) With ``reshuffle`` a removal from the stock or waste
  changes the next shuffle, so before the last pass only tableau and reserve Kings and
  classes with no card in the stock or waste are forced, and only with a limited number
  of redeals (with unlimited ones, a pass whose only removal was such a card would lose
  its redeal). The last pass has no shuffle ahead: everything above holds in it.
* **Twin reserve cards.** Two reserve cards of one rank are both always available, so
  any line can swap their roles: only the one with the lower id is ever played.
* **Reserve cards give way.** While another card of a reserve card's value is available
  (an exposed tableau card, the stock top or the waste top), no removal with the reserve
  card is tried: the same removal with the other card leaves a position at least as
  good. Any line can be replayed that way: the reserve card, always available and
  covering nothing, takes the other card's part when that one's removal comes, and is
  left alone if it never comes (a stock card with ``clear_the_board``, where the reserve
  need not go either); until then the other card gone only makes more cards available.
  With a shuffle ahead only a tableau card counts, since a removal from the stock or
  waste changes the shuffle. (6-row + reserve, seeds 0..9,999: the slowest deal 0.68 s
  without it, 0.46 s with it.)
* **Useless redeals.** Without reshuffle, a redeal after a pass that removed nothing is
  never needed: the start of that pass, which the search is already exploring, had the
  same cards and one more redeal. (A search that starts in the middle of a pass treats
  that pass as having removed a card, since its start is not explored.)
* **Hopeless proofs.** Each pair removed takes one card of each value of a class, so the
  cards that must go (all of them, or the tableau's with ``clear_the_board``) need a
  matching, within their class, to partners they can ever be available together with.
  Two tableau cards never meet when one lies on the other through a chain (with
  ``overlap_pairs``, directly on it is allowed); two sequence cards never meet when the
  waste is off limits; in the last pass two waste cards never meet and, with the waste
  off limits, a waste card meets nothing, and two pairs of sequence cards cannot cross
  (each needs every card between its two gone first; the test orders them by id, so it
  is left out when a reshuffle made the last pass's order another). The matching is
  checked at the start, for the class of every pair removed and, in the last pass, for
  the class of every card drawn. Each class's answers are cached by its cards in play.
* **A free stock.** With a shuffle ahead, each position is first tried as ``freed``:
  every stock and waste card in play always available, and no redeal. A line of the
  real game is one of that game too, so if that game is lost, so is the position,
  whatever orders its redeals bring. It is small and quick to decide, and it is what
  makes reshuffle deals short (#40: 160 million positions without it, 2,992 with it);
  its positions count as the search's, and its verdicts are kept by the cards in play.
  Without reshuffle, where it proves less, it is tried once, on the starting position,
  by a search still running after ``FREE_STOCK_AFTER`` positions.
* **Smaller games.** A search still running after ``RELAX_STAGES`` positions tries to
  prove the position lost on games that keep only some classes and the tableau's Kings
  (``relaxations``): those see the passes and the order of the stock, which the matching
  does not. Each stage tries bigger games, or the same with more positions, skipping those
  an earlier stage showed prove nothing (``known_not_lost``). Such proofs only ever say
  "lost"; a win is always a line found in the real game.
* **Smaller games inside the search.** From ``CLASS_PROOFS_AFTER`` positions on, a
  position whose own search has run ``CLASS_PROOF_EVERY`` positions is tried, at the
  moment it has come to, on the games keeping three of its classes (``settled``): one of
  them lost, so is the position, and the search of it stops. The slowest deals are
  winnable ones that spend tens of millions of positions in lost corners, which such a
  game proves lost in a few hundred (6-row + reserve #8348: 78.5 million positions, 0.6
  million with them; docs/benchmarks.md). Positions settled quickly are never tried, so
  deals the plain search decides fast pay nothing. A game's verdict at one moment of a
  pass holds on one side for the others (lost at a moment, lost at each later one), so
  each game is kept by its cards in play with the moments known lost and known open.
  A long search keeps them to a share of its positions (``CLASS_PROOFS_CAPPED_AFTER``,
  ``CLASS_PROOF_SHARE``): past that share it goes on without them until it is back under.
* **Fewer passes first.** A redeal needs nothing, so the starting position searched as if
  more redeals were used already is a position of the same game, one that comes later: a
  line from it wins from the start too, and what its search proves lost is lost here as
  well, position for position, in the same failure table. The slowest winnable deals have a
  line with fewer passes that the full search finds late, after the last passes of all its
  lost corners (6-row + reserve #29011: 17.1 million positions; with one pass fewer, 1.6).
  So from ``FEWER_PASSES_AFTER`` positions on, searches try their position with one pass,
  then two, and so on, before all of them (the search itself for ``FEWER_PASSES_NODES``).

A search still running after ``ORDER_FROM`` positions is mostly a winnable deal whose line
its order of removals finds late: it then alternates that order and its reverse in runs
of ``ORDER_RUN`` positions, between the stages. Both orders share the failure table,
which holds only what is proven, so each run goes on from what the others settled; runs
of one length keep either order from waiting long for its turn.

The failure table is only a cache: it keeps two generations of ``FAILURE_LIMIT`` positions
(see ``_search``), so a long search (reshuffle's, chiefly) stays within bounded memory and
still gives the exact verdict; a failure it forgot is searched again.

``run`` hands the search to ``_pyramid_core.c``, the same search compiled (built by the
install step, setup.py), which visits the same positions in the same order: the Python
search below is the reference it is tested against (tests/engine/test_solver_core.py)
and the fallback when the install had no C compiler.
"""

from __future__ import annotations

import functools
import sys
import time
from array import array
from collections.abc import Callable
from dataclasses import replace
from itertools import combinations

from games.engine import rng
from games.engine.cards import rank_value
from games.engine.pyramid import GEOMETRY, PyramidState
from games.engine.solitaire_common import card_order

try:
    from games.engine.solver import _pyramid_core  # type: ignore[attr-defined]
except ImportError:  # built without a C compiler (setup.py): the Python search alone
    _pyramid_core = None

TARGET = 13
KING = 13
WASTE_SHIFT = 64
LAST_PASS = 1 << 62
SHUFFLED = 1 << 61
"""Marks a last pass's waste masks when its order is not by id (a reshuffled one)."""
CHECK_EVERY = 1 << 12
"""How many positions pass between two looks at the clock."""
RELAX_STAGES = (
    (20_000, (1, 2, 3), 5_000),
    (300_000, (2, 3), 40_000),
    (600_000, (3,), 500_000),
    (8_000_000, (5,), 2_000_000),
)
"""When the search has examined this many positions, it tries to prove the position lost on
smaller games keeping this many classes, each allowed this many positions (see relaxations).
Most hard lost deals fall to a 3-class game within 500,000 positions; the games with more
classes of a winnable deal are winnable too, and often slow to win, so they come late, when
the search has spent many more positions than they can (docs/benchmarks.md, Solver:
"Smaller games, remembered and late"). The slowest lost deals need a 5-class game of 1.3 to
1.6 million positions; with (4,) at 8 million, (5,) at 16 million within 1 million each and
within 2 million at 24 million, they came last (6-row + reserve #90135, #40404, #39015: 26 to
31 million positions, 3.3 to 3.6 s CPU; now 9.3 to 11.6 million, 0.9 to 1.1 s; A/B in one
run over the 67 deals of docs/winnability.md's 100,000-deal rows that took 4 million or
more). The cost: a winnable deal past 8 million positions plays the six 5-class games (#33264:
7.3 million positions, till they play fewer passes first, FEWER_PASSES_AFTER: 1.4 million)
and #15685, which a 4-class game proved at 8 million, 0.67 to 0.99 s. The 4-class games
before the 5-class ones made #29011 1.8 s."""
FREE_STOCK_AFTER = 300_000
"""A search still running after this many positions, before its smaller games, tries its
position with a free stock (``freed``) once, within FREE_STOCK_NODES positions. That game
is small and a loss there is a loss here; over the deals of docs/winnability.md above
300,000 positions it proves most lost ones in a few thousand positions (standard Pyramid:
214 of 246 sampled, which had taken 137 million positions) and costs a winnable one a few
hundred. Above DAILY_NODE_LIMIT (solver/__init__.py), so the deals of the day stay."""
ORDER_FROM = 300_000
ORDER_RUN = 1_000_000
"""From ORDER_FROM positions on, the search alternates two orders of removals (see
``removal_weight``) in runs of ORDER_RUN positions, keeping one failure table (the
smaller-game stages come in between). The slowest deals are winnable ones whose line one
order finds late and the other sooner; runs of one length keep the two orders level
(runs doubling after each pair left 6-row + reserve #79057 at 103.8 million positions, where
the better order alone takes 34.3; docs/benchmarks.md). A run must be far longer than the
positions a search spends walking back down its line after a stop (a few hundred at most),
or it gets nowhere. ORDER_FROM is above DAILY_NODE_LIMIT (solver/__init__.py), so the deals
of the day stay."""
CLASS_PROOFS_AFTER = 300_000
CLASS_PROOF_EVERY = 10_000
CLASS_PROOF_NODES = 200_000
CLASS_PROOF_SIZE = 3
"""From CLASS_PROOFS_AFTER positions on, a position whose search has run CLASS_PROOF_EVERY
positions (and again after as many more) is tried on the smaller games keeping
CLASS_PROOF_SIZE of its classes, each within CLASS_PROOF_NODES positions (``settled``; the
size is compiled into _pyramid_core.c too). Above DAILY_NODE_LIMIT, so the deals of the day
stay. Trying every position as it comes instead cut the slowest deals as well but made
others four times slower (standard #592: 0.14 s to 0.6 s). Games of two classes prove far
less: tried on every position they left #8348 at 26.6 million positions (three: 0.3). The
cost: a lost deal whose corners the plain search settles fast pays for proofs it did not need
(52-u #29292: 3.9 million positions, 15.0 with them; keeping all proofs within the search's own
positions cut that to 7.1 but left 6-row + reserve #79057 at 11.1 million instead of 1.5; see
CLASS_PROOFS_CAPPED_AFTER for the cap kept)."""
CLASS_PROOFS_CAPPED_AFTER = 4_000_000
CLASS_PROOF_SHARE = 4
"""From CLASS_PROOFS_CAPPED_AFTER positions on, the smaller games inside the search (``settled``)
are tried only while the positions spent in them are at most 1 / CLASS_PROOF_SHARE of all the
search's positions: past that share a position's turn passes without them. The proofs a lost
deal does not need then cost it at most a fraction (52-u + overlap #29292: 22.6 million
positions, 1.23 s CPU; 15.0 million, 0.77 s; 52-u #29292: 0.87 s, 0.41 s; A/B in one run with
RELAX_STAGES' change, the 67 deals of docs/winnability.md's 100,000-deal rows that took 4
million positions or more, 39.4 s in all before, 30.6 after). From 4 million on, so that the
deals they save early keep them all (6-row + reserve #79057, 1.5 million positions; capping
from the start left it at 11.1). A share of 1/2 did as well within the noise (6-row + reserve
over those deals 19.8 s, 1/4 19.1; 52-u + overlap #29292 0.85 s, 0.75)."""
FEWER_PASSES_AFTER = 8_000_000
FEWER_PASSES_NODES = 1_000_000
"""From the stage at FEWER_PASSES_AFTER positions on (RELAX_STAGES), searches try their position
with fewer passes first (see the module doc): the smaller games of such a stage from their
start, within their own positions, and the search itself after that stage's games, in one
run of FEWER_PASSES_NODES positions (a switch of order due meanwhile waits for its end).
Measured A/B in one run, idle (2026-11-30), on the 8 deals of docs/winnability.md's
100,000-deal rows that reach 8 million positions, all 6-row + reserve, two solves each:
#33264 (won) 1.05-1.08 s CPU to 0.79-0.84 (18.5 to 12.6 million positions), #29011 (won)
0.99-1.00 to 0.65-0.67 (17.1 to 10.1 million), #13726 (won, needs every pass) 0.74-0.81 to
0.78-0.80, the lost ones within 0.08 s either way (#90135 9.3 to 10.8 million positions,
#15685 14.1 to 13.0); verdicts equal. The smaller games alone left #29011 at 0.90 s; the
search's run cut by a switch of order, at 14.6 million positions, 0.97 s; a run of 2 million
made #33264 0.94 s (its line with fewer passes takes 2.3 million, so that run is lost too)."""
UNLIMITED_STAND_IN = 60
"""Redeals given to a smaller game in place of unlimited ones: more than any line can use."""
FREE_STOCK_NODES = 1_000_000
"""Positions a reshuffle search may spend on one ``freed`` game (see the module doc). Such a
game has no stock and is decided quickly: with no bound at all, the first 1,000 reshuffle
deals took 2.0 s in all (docs/benchmarks.md, Reshuffle)."""
FAILURE_LIMIT = 3 << 22
"""Failures a generation of the failure table holds (see ``_search``): 12,582,912, three
quarters of 2**24 slots, so that the compiled table's two generations stay under 400 MB."""
RECURSION_LIMIT = 20_000
"""Deep enough for the longest line: every removal and redeal nests one frame."""

Pair = tuple[int, ...]


class SearchAborted(Exception):
    """The node or time budget ran out before the verdict was known."""


def pair_text(cards: tuple[str, ...]) -> str:
    """The engine's canonical text of a removal (``Remove.__str__``)."""
    return "+".join(sorted(cards, key=card_order))


@functools.lru_cache(maxsize=64)
def redeal_draws(seed: int, used: int, count: int, length: int) -> bytes:
    """For the compiled search: the numbers ``rng.shuffled`` draws for redeal u (used < u <=
    used + count) of a waste of up to ``length`` cards, ``length - 1`` doubles per redeal
    (a shuffle of k cards uses the first k - 1; the C side repeats its Fisher-Yates)."""
    draws = array("d")
    for redeal in range(used + 1, used + count + 1):
        stream = rng.SeededRNG(rng.derive_seed(seed, "redeal", redeal))
        draws.extend(stream.random() for _ in range(max(0, length - 1)))
    return draws.tobytes()


def _piled_on(covered_by: tuple[tuple[int, ...], ...], live: int) -> list[int]:
    """Slot -> bitmask of the cards in play piled on it, directly or through a chain of cards
    in play: the cards that must go before it is exposed. (An empty slot covers nothing, and
    a position need not come from a deal: the smaller games of ``relaxations`` have gaps.)"""
    below = [0] * len(covered_by)
    for k in reversed(range(len(covered_by))):
        for j in covered_by[k]:
            if live >> j & 1:
                below[k] |= 1 << j | below[j]
    return below


def last_pass_wastes(sequence: tuple[int, ...]) -> list[int]:
    """The waste of the last pass at each moment p (0 .. len + 1) as a bitmask of ids: the
    cards of ``sequence`` before p (the live ones among them are the waste). LAST_PASS marks
    it as the last pass's even when empty; SHUFFLED, a sequence not in the order of ids."""
    flags = LAST_PASS | (0 if list(sequence) == sorted(sequence) else SHUFFLED)
    masks = [flags]
    for i in sequence:
        masks.append(masks[-1] | 1 << i)
    return [*masks, masks[-1]]


def removal_weight(pair: Pair, size: int, reserve_end: int) -> int:
    """Where a pair comes in the search's first order (the lowest first; ties keep the order
    they were found in): reserve cards first, then the tableau's, then stock and waste.
    Reserve first is measured, not derived: on the 6-row + reserve variant it found the
    lines of most slow winnable deals in far fewer positions (seed 54: 52.3 million to
    1.1). The second order, alternated with it from ORDER_FROM positions on, is its
    reverse."""
    return sum(2 if i >= reserve_end else -1 if i >= size else 0 for i in pair)


def _crosses(a: int, b: int, chosen: list[tuple[int, int]]) -> bool:
    """Whether the pair ``a < b`` crosses a pair of ``chosen`` (each written low id first)."""
    return any(c < a < d < b or a < c < b < d for c, d in chosen)


def _has_matching(
    nodes: list[int],
    required: int,
    meets: Callable[[int, int], bool],
    values: list[int],
    nested: int = 0,
    chosen: list[tuple[int, int]] | None = None,
) -> bool:
    """Whether ``nodes`` (card ids, ascending) can be paired, values summing to 13, each pair's
    two cards able to meet, so that every id in the bitmask ``required`` is in a pair. Pairs
    of two ids of the bitmask ``nested`` must not cross (as intervals of ids)."""
    if not nodes:
        return True
    chosen = chosen or []
    first, rest = nodes[0], nodes[1:]
    for partner in rest:
        if values[partner] + values[first] != TARGET or not meets(first, partner):
            continue
        inner = nested >> first & 1 and nested >> partner & 1
        if inner and _crosses(first, partner, chosen):
            continue
        others = [n for n in rest if n != partner]
        if _has_matching(
            others, required, meets, values, nested, [*chosen, (first, partner)] if inner else chosen
        ):
            return True
    return not required >> first & 1 and _has_matching(rest, required, meets, values, nested, chosen)


class Cache:
    """A table that stays within bounded memory: when its young generation holds ``limit``
    keys, that becomes the old one and the previous old one is dropped. The search keeps
    only what it can compute again in it (``_pyramid_core.c``'s Cache forgets alike)."""

    __slots__ = ("limit", "old", "young")

    def __init__(self, limit: int) -> None:
        self.young: dict[int, int] = {}
        self.old: dict[int, int] = {}
        self.limit = limit

    def get(self, key: int) -> int:
        """The value of ``key``, or -1."""
        value = self.young.get(key)
        return self.old.get(key, -1) if value is None else value

    def put(self, key: int, value: int) -> None:
        if len(self.young) >= self.limit and key not in self.young:
            self.old, self.young = self.young, {}
        self.young[key] = value


class PyramidSearch:
    """One search from one position: ``run()`` gives the verdict and fills ``line``."""

    def __init__(
        self,
        state: PyramidState,
        node_limit: int | None = None,
        deadline: float | None = None,
        relax: bool = True,
        compiled: bool = True,
        failure_limit: int = FAILURE_LIMIT,
        fewer_passes_first: bool = False,
    ) -> None:
        config = state.config
        self.compiled = compiled and _pyramid_core is not None
        self.failure_limit = failure_limit
        geometry = GEOMETRY[config.rows]
        size = geometry.size
        self.state = state
        self.relax = relax
        self.fewer_passes_first = fewer_passes_first
        self.node_limit = node_limit
        self.deadline = deadline
        self.nodes = 0
        self.line: list[str] = []
        """The winning line, last action first (the search appends while unwinding)."""

        cards: list[str | None] = [*state.tableau, *state.reserve, *state.waste, *state.stock]
        self.cards = cards
        self.values = [rank_value(card) if card else 0 for card in cards]
        self.size = size
        self.reserve_ids = tuple(range(size, size + len(state.reserve)))
        self.base = size + len(state.reserve)
        self.first_sequence = tuple(range(self.base, len(cards)))
        self.sequence_mask = ((1 << len(cards)) - 1) >> self.base << self.base
        self.start_p = len(state.waste)
        self.waste_masks = last_pass_wastes(self.first_sequence)
        self.live = sum(1 << i for i, card in enumerate(cards) if card is not None)
        self.tableau_mask = (1 << size) - 1
        self.covered_by = geometry.covered_by
        self.covers = geometry.covers
        self.below = _piled_on(geometry.covered_by, self.live)

        self.clear_the_board = config.clear_the_board
        self.waste_usable = not config.waste_off_limits
        self.overlap = config.overlap_pairs
        self.reshuffle = config.reshuffle
        self.seed = state.seed
        self.start_used = state.redeals_used
        self.max_redeals = config.redeals
        if (
            config.redeals is not None
            and not config.reshuffle
            and config.redeals - state.redeals_used > len(cards)
        ):
            # Each useful pass removes a card, so this many redeals never run out.
            self.max_redeals = None
        # The start of a pass already under way is not explored, so its redeal is never useless.
        self.start_flag = state.pass_removed or (config.redeals is not None and self.start_p > 0)

        classes: dict[int, list[int]] = {}
        for i, card in enumerate(cards):
            if card is not None and self.values[i] != KING:
                classes.setdefault(min(self.values[i], TARGET - self.values[i]), []).append(i)
        self.class_of = [min(v, TARGET - v) if v and v != KING else 0 for v in self.values]
        self.class_ids = {c: tuple(ids) for c, ids in classes.items()}
        self.class_masks = {c: sum(1 << i for i in ids) for c, ids in self.class_ids.items()}
        self.required = self.tableau_mask if self.clear_the_board else (1 << len(cards)) - 1
        self.class_tables: dict[int, dict[int, bool]] = {c: {} for c in self.class_ids}

        self.contexts: list[tuple[int, bool, tuple[int, ...], int, int, list[int] | None]] = []
        """(redeals used, flag, sequence, moment of p = 0, failure-table key bits, and in the
        last pass its waste masks by moment, see ``last_pass_wastes``; None before it)."""
        self.context_index: dict[tuple[int, bool, tuple[int, ...]], int] = {}
        self.won_games: set[int] = set()
        self.ran_out: dict[int, int] = {}
        """The smaller games of ``relaxations`` played so far that proved nothing, by the bitmask
        of the classes they keep: those won, and the positions the others ran out of."""

    # -- hopeless proofs -------------------------------------------------------------

    def meets(self, a: int, b: int, waste: int = 0) -> bool:
        """Whether cards ``a`` and ``b`` can ever be available together; ``waste`` is the
        bitmask of the waste's cards in the last pass (0 before it)."""
        size = self.size
        if a < size and b < size:
            if self.below[a] >> b & 1:
                return self.overlap and b in self.covered_by[a]
            if self.below[b] >> a & 1:
                return self.overlap and a in self.covered_by[b]
            return True
        if waste >> a & 1 or waste >> b & 1:
            return not (waste >> a & 1 and waste >> b & 1) and self.waste_usable
        return self.waste_usable or a < self.base or b < self.base

    def class_feasible(self, c: int, live: int, waste: int = 0) -> bool:
        """The matching test of class ``c``; ``waste`` masks the last pass's waste cards."""
        here = live & self.class_masks[c]
        key = here | (waste & (here | LAST_PASS | SHUFFLED)) << WASTE_SHIFT
        table = self.class_tables[c]
        known = table.get(key)
        if known is None:
            nodes = [i for i in self.class_ids[c] if here >> i & 1]
            # In the last pass two sequence cards meet only as waste top and stock top, once
            # every card between them is gone: such pairs nest like brackets.
            # (Nesting is by place in the sequence, which is by id but after a reshuffle.)
            nested = self.sequence_mask if waste and not waste & SHUFFLED else 0
            known = _has_matching(
                nodes, self.required, lambda a, b: self.meets(a, b, here & waste), self.values, nested
            )
            table[key] = known
        return known

    def hopeless(self, waste: int) -> bool:
        """A proof from the cards' places alone that no line wins (see the module doc)."""
        return not all(self.class_feasible(c, self.live, waste) for c in self.class_ids)

    # -- contexts --------------------------------------------------------------------

    def context(self, used: int, flag: bool, sequence: tuple[int, ...]) -> int:
        """The index of a context, made on first use."""
        key = (used if self.reshuffle or self.max_redeals is not None else 0, flag, sequence)
        index = self.context_index.get(key)
        if index is None:
            index = len(self.contexts)
            self.context_index[key] = index
            span = len(self.first_sequence) + 1
            if self.reshuffle:
                # Passes of different card orders are not comparable: each context has its own clock.
                moment, table_bits = 0, (index + 1) << len(self.cards)
            elif self.max_redeals is None:
                # A pass that removed a card may redeal, so it comes before every pass that did not.
                moment, table_bits = (0 if flag else span), 0
            else:
                moment, table_bits = (used - self.start_used) * span, 0
            last = self.max_redeals is not None and used == self.max_redeals
            wastes = None
            if last:
                wastes = self.waste_masks if sequence == self.first_sequence else last_pass_wastes(sequence)
            self.contexts.append((used, flag, sequence, moment, table_bits, wastes))
        return index

    # -- the search ------------------------------------------------------------------

    def won(self, live: int) -> bool:
        return not (live & self.tableau_mask if self.clear_the_board else live)

    def run(self) -> bool:
        if self.compiled:
            return self._run_compiled()
        if self.won(self.live):
            return True
        last = self.max_redeals is not None and self.start_used == self.max_redeals
        if self.hopeless(self.waste_masks[self.start_p] if last else 0):
            self.nodes = 1
            return False
        p = self.start_p
        while p < len(self.first_sequence) and not self.live >> self.first_sequence[p] & 1:
            p += 1
        ctx = self.context(self.start_used, self.start_flag, self.first_sequence)
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, RECURSION_LIMIT))
        search, examined, budget, sign = self._search()
        staged = self.relax and not self.reshuffle
        stages = list(RELAX_STAGES) if staged else []
        switch = ORDER_FROM if staged else -1
        relaxed = 0
        free_stock_tried = False
        # With fewer passes (see FEWER_PASSES_AFTER): the redeals the position is searched as
        # having used (None: as it is), and where that run ends (-1: at the node limit).
        more_passes = (
            not self.reshuffle and self.max_redeals is not None and self.max_redeals > self.start_used
        )
        fewer = self.max_redeals if self.fewer_passes_first and more_passes else None
        fewer_end = -1

        def room() -> int | None:
            """The positions the node limit leaves, if any."""
            return None if self.node_limit is None else self.node_limit - examined() - relaxed

        try:
            # The search runs on between stops: the next stage's proofs, the next switch of
            # order, the end of a run with fewer passes, the node limit. Each stop keeps what
            # the search proved so far.
            while True:
                # A run with fewer passes goes on in one order: a switch due meanwhile comes after it.
                if fewer is None and 0 <= switch <= examined():
                    sign[0] = -sign[0]
                    switch = examined() + ORDER_RUN
                if stages and self.node_limit is not None and self.node_limit <= stages[0][0] + relaxed:
                    stages = []
                end = -1 if self.node_limit is None else self.node_limit - relaxed
                if self.node_limit is not None and end <= examined():
                    raise SearchAborted
                points = (stages[0][0] if stages else -1, switch if fewer is None else -1, end, fewer_end)
                stop = min((x for x in points if x >= 0), default=-1)
                budget[0] = stop
                root = ctx if fewer is None else self.context(fewer, self.start_flag, self.first_sequence)
                try:
                    won = search(self.live, p, root)
                except SearchAborted:
                    if stop < 0 or examined() < stop or stop == end:
                        raise
                else:
                    if won or fewer is None:
                        return won
                    # Lost with that few passes: one more.
                    fewer -= 1
                    if fewer == self.start_used:
                        fewer, fewer_end = None, -1
                    continue
                if examined() == fewer_end:
                    fewer, fewer_end = None, -1
                if stages and examined() == stages[0][0]:
                    after, sizes, each = stages.pop(0)
                    if after >= FREE_STOCK_AFTER and not free_stock_tried:
                        free_stock_tried = True
                        left = room()
                        allowed = FREE_STOCK_NODES if left is None else min(FREE_STOCK_NODES, left)
                        winnable, spent = self.smaller_game(self.freed(self.live), allowed)
                        relaxed += spent
                        if winnable is False:
                            return False
                    late = after >= FEWER_PASSES_AFTER
                    spent, proven = self.relaxations(sizes, each, room(), fewer_passes_first=late)
                    relaxed += spent
                    if proven:
                        return False
                    if late and more_passes:
                        fewer, fewer_end = self.max_redeals, examined() + FEWER_PASSES_NODES
        finally:
            self.nodes = examined() + relaxed
            sys.setrecursionlimit(limit)

    def _run_compiled(self) -> bool:
        """``run`` in C (``_pyramid_core.c``): the same positions in the same order, so the
        same verdict, line and count of positions, 30 to 50 times sooner."""
        state, config = self.state, self.state.config
        geometry = GEOMETRY[config.rows]

        def slots(links: tuple[tuple[int, ...], ...]) -> bytes:
            return bytes(b for pair in links for b in (*pair, 255, 255)[:2])

        redeals_ahead = 0
        if config.reshuffle:
            # Redeals need a removal in the pass before (or a limit): never more than this.
            in_play = bin(self.live).count("1")
            left = None if config.redeals is None else max(0, config.redeals - state.redeals_used)
            redeals_ahead = in_play + 1 if left is None else left
        # The C core returns (status, positions examined, the winning line's move codes).
        status: int
        line: list[int]
        status, self.nodes, line = _pyramid_core.run(
            bytes(self.values),
            self.size,
            len(state.reserve),
            self.start_p,
            state.redeals_used,
            -1 if config.redeals is None else config.redeals,
            state.pass_removed,
            config.clear_the_board,
            not config.waste_off_limits,
            config.overlap_pairs,
            config.reshuffle,
            slots(geometry.covered_by),
            slots(geometry.covers),
            -1 if self.node_limit is None else self.node_limit,
            -1.0 if self.deadline is None else self.deadline,
            self.relax,
            self.fewer_passes_first,
            RELAX_STAGES,
            redeal_draws(self.seed, state.redeals_used, redeals_ahead, len(self.first_sequence)),
            state.redeals_used,
            redeals_ahead,
            self.failure_limit,
            FREE_STOCK_NODES,
            FREE_STOCK_AFTER,
            ORDER_FROM,
            ORDER_RUN,
            CLASS_PROOFS_AFTER,
            CLASS_PROOF_NODES,
            CLASS_PROOF_EVERY,
            CLASS_PROOFS_CAPPED_AFTER,
            CLASS_PROOF_SHARE,
            FEWER_PASSES_AFTER,
            FEWER_PASSES_NODES,
        )
        if status < 0:
            raise SearchAborted
        for code in line:
            if code == -1:
                self.line.append("draw")
            elif code == -2:
                self.line.append("redeal")
            else:
                ids = (code & 63,) if code < 64 else (code & 63, (code >> 6) - 1)
                self.line.append(pair_text(tuple(self.cards[i] or "" for i in ids)))
        return status == 1

    def relaxations(
        self, sizes: tuple[int, ...], each: int, room: int | None = None, fewer_passes_first: bool = False
    ) -> tuple[int, bool]:
        """Try to prove the position lost on smaller games: (positions spent, proven).

        Keeping only the cards of some classes gives a game at least as easy: each line of
        the real game, less its other removals, is a line of it, because every card removed
        only makes more cards available. The tableau's Kings stay: they cost the search
        nothing (each goes alone as soon as it is exposed) and keep covering what lies
        under them until the cards on them are gone, which alone proves many deals lost
        (6-row + reserve seed 39346: 211 million positions without them, 0.4 million with).
        With unlimited redeals the smaller game gets more redeals than any line can use
        instead, since a pass of the real game may have removed only cards it drops. So if
        the smaller game is lost, so is this one. Each smaller game keeps ``sizes`` classes
        and may examine ``each`` positions; one that runs out proves nothing. All of them
        together examine at most ``room`` positions, if given (what a node limit leaves), and
        with ``fewer_passes_first`` each tries its position with fewer passes first (see
        FEWER_PASSES_AFTER)."""
        spent = 0
        for size in sizes:
            for chosen in combinations(sorted(self.class_ids), size):
                allowed = each if room is None else min(each, room - spent)
                if allowed <= 0:
                    return spent, False
                classes = sum(1 << c for c in chosen)
                if self.known_not_lost(classes, allowed):
                    continue
                winnable, nodes = self.smaller_game(self.reduced(set(chosen)), allowed, fewer_passes_first)
                spent += nodes
                if winnable is False:
                    return spent, True
                if winnable:
                    self.won_games.add(classes)
                else:
                    self.ran_out[classes] = allowed
        return spent, False

    def known_not_lost(self, classes: int, allowed: int) -> bool:
        """Whether the smaller game keeping the bitmask ``classes`` would prove nothing within
        ``allowed`` positions, from the games an earlier stage played: it was won, or a game
        keeping more classes was (the argument of ``relaxations`` makes a game with fewer
        classes at least as easy), or it ran out of as many positions (the same search
        again would too)."""
        return self.ran_out.get(classes, 0) >= allowed or any(
            won & classes == classes for won in self.won_games
        )

    def smaller_game(
        self, state: PyramidState, node_limit: int, fewer_passes_first: bool = False
    ) -> tuple[bool | None, int]:
        """A smaller game's (``reduced`` or ``freed``) verdict within ``node_limit`` positions,
        None if they ran out, and the positions it took; running out of time raises
        SearchAborted."""
        search = PyramidSearch(
            state,
            node_limit,
            self.deadline,
            relax=False,
            compiled=False,
            failure_limit=self.failure_limit,
            fewer_passes_first=fewer_passes_first,
        )
        try:
            return search.run(), search.nodes
        except SearchAborted:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise
            return None, search.nodes

    def freed(self, live: int) -> PyramidState:
        """The position ``live`` with every stock and waste card in play moved to the reserve,
        where it is always available, and no redeal. Each line of the real game, less its
        draws and redeals, is a line of this one, so if this one is lost, so is the real
        game, whatever order its redeals shuffle the cards into."""
        state = self.state
        cards = self.cards
        return replace(
            state,
            config=replace(state.config, redeals=0, reshuffle=False),
            tableau=tuple(card if live >> i & 1 else None for i, card in enumerate(cards[: self.size])),
            reserve=tuple(card for i, card in enumerate(cards) if i >= self.size and live >> i & 1 and card),
            stock=(),
            waste=(),
            redeals_used=0,
            pass_removed=False,
        )

    def reduced(self, classes: set[int]) -> PyramidState:
        """The position with only the cards of ``classes`` (see ``relaxations``)."""
        state = self.state
        return self.reduced_at(classes, self.live, self.start_p, state.redeals_used, state.pass_removed)

    def reduced_at(self, classes: set[int], live: int, p: int, used: int, flag: bool) -> PyramidState:
        """The position ``live`` at moment ``p`` of a pass in the first pass's order, with
        ``used`` redeals used and ``flag`` (whether the pass removed a card), keeping only the
        cards of ``classes`` and the tableau's Kings (see ``relaxations``)."""
        state = self.state
        cards = self.cards

        def keep(card: str | None) -> bool:
            return (
                card is not None
                and rank_value(card) != KING
                and min(rank_value(card), TARGET - rank_value(card)) in classes
            )

        def keep_in_tableau(card: str | None) -> bool:
            return keep(card) or (card is not None and rank_value(card) == KING)

        config = state.config
        if config.redeals is None:
            config = replace(config, redeals=used + UNLIMITED_STAND_IN)
        size, base = self.size, self.base
        sequence = [
            (i, card) for i in self.first_sequence if live >> i & 1 and (card := cards[i]) and keep(card)
        ]
        return replace(
            state,
            config=config,
            tableau=tuple(
                card if live >> i & 1 and keep_in_tableau(card) else None
                for i, card in enumerate(cards[:size])
            ),
            reserve=tuple(
                card if live >> (size + i) & 1 and keep(card) else None
                for i, card in enumerate(cards[size:base])
            ),
            stock=tuple(card for i, card in sequence if i >= base + p),
            waste=tuple(card for i, card in sequence if i < base + p),
            redeals_used=used,
            pass_removed=flag,
        )

    def _search(
        self,
    ) -> tuple[Callable[[int, int, int], bool], Callable[[], int], list[int], list[int]]:
        failures = Cache(self.failure_limit)
        failed_at = failures.get
        record = failures.put
        free_lost = Cache(self.failure_limit)
        smaller_lost = Cache(self.failure_limit)
        class_proofs = self.relax and not self.reshuffle
        kings = sum(1 << i for i in range(self.size) if self.values[i] == KING)
        values = self.values
        cards = self.cards
        class_of = self.class_of
        class_masks = self.class_masks
        low_masks = {c: sum(1 << i for i in self.class_ids[c] if values[i] == c) for c in class_masks}
        class_feasible = self.class_feasible
        covered_by = self.covered_by
        covers = self.covers
        tableau_mask = self.tableau_mask
        size = self.size
        reserve_ids = self.reserve_ids
        reserve_mask = sum(1 << i for i in reserve_ids)
        reserve_end = self.base
        sequence_mask = self.sequence_mask
        clear_the_board = self.clear_the_board
        waste_usable = self.waste_usable
        overlap = self.overlap
        reshuffle = self.reshuffle
        seed = self.seed
        max_redeals = self.max_redeals
        contexts = self.contexts
        context = self.context
        line = self.line
        budget = [self.node_limit if self.node_limit is not None else -1]
        sign = [1]
        proof_nodes = [0]  # the positions spent in settled's smaller games
        deadline = self.deadline
        nodes = 0
        Shape = tuple[tuple[int, ...], tuple[Pair, ...], dict[int, tuple[int, ...]], int]
        shapes: dict[int, Shape] = {}

        def shape_of(tableau: int) -> Shape:
            # Deepest rows first: their removal uncovers the most.
            exposed = tuple(
                k
                for k in range(size - 1, -1, -1)
                if tableau >> k & 1 and not any(tableau >> j & 1 for j in covered_by[k])
            )
            overlaps: list[Pair] = []
            if overlap:
                for top in exposed:
                    for under in covers[top]:
                        if (
                            tableau >> under & 1
                            and values[under] + values[top] == TARGET
                            and not any(tableau >> j & 1 for j in covered_by[under] if j != top)
                        ):
                            overlaps.append((under, top))
            by_value: dict[int, list[int]] = {}
            for k in exposed:
                by_value.setdefault(values[k], []).append(k)
            info = (
                exposed,
                tuple(overlaps),
                {v: tuple(ks) for v, ks in by_value.items()},
                sum(1 << k for k in exposed),
            )
            shapes[tableau] = info
            return info

        def reserve_twin(i: int, live: int) -> bool:
            """Whether a reserve card of ``i``'s rank with a lower id is in play: two reserve
            cards of one rank are interchangeable (both always available), so only the first
            is ever played, and positions that differ by which one is gone are one."""
            return any(live >> j & 1 and values[j] == values[i] for j in range(size, i))

        def reserve_gives_way(i: int, loose: set[int]) -> bool:
            """Whether reserve card ``i`` gives way to another card of its value available now
            (``loose``: the values of those, see the module doc); Kings go alone anyway."""
            return values[i] != KING and values[i] in loose

        def tick() -> None:
            nonlocal nodes
            nodes += 1
            self.nodes = nodes
            if nodes == budget[0] or (
                nodes & (CHECK_EVERY - 1) == 0 and deadline is not None and time.monotonic() > deadline
            ):
                raise SearchAborted

        def whole_class(c: int, live: int, available: int) -> bool:
            """Whether class ``c``'s cards in play are all available and pair up exactly, so that
            removing them all now is safe (removal dominance)."""
            here = live & class_masks[c]
            return not here & ~available and (here & low_masks[c]).bit_count() * 2 == here.bit_count()

        def remove(live: int, p: int, ctx: int, pair: Pair, stock_top: int) -> bool:
            """Play a removal at moment ``p``; True if it leads to a win."""
            for i in pair:
                live &= ~(1 << i)
            if not (live & tableau_mask if clear_the_board else live):
                line.append(pair_text(tuple(cards[i] or "" for i in pair)))
                return True
            used, flag, sequence, _, _, wastes = contexts[ctx]
            c = class_of[pair[0]]
            if c and not class_feasible(c, live, wastes[p] if wastes else 0):
                return False
            if stock_top in pair:
                length = len(sequence)
                p += 1
                while p < length and not live >> sequence[p] & 1:
                    p += 1
            if search(live, p, ctx if flag else context(used, True, sequence)):
                line.append(pair_text(tuple(cards[i] or "" for i in pair)))
                return True
            return False

        def search(live: int, p: int, ctx: int) -> bool:
            """The position at moment ``p``, then each later moment of the pass, then the redeal."""
            used, flag, sequence, moment, table_bits, wastes = contexts[ctx]
            # A reshuffle ahead makes removals from the stock and waste matter to its order.
            shuffle_ahead = reshuffle and wastes is None
            key = live | table_bits
            known = failed_at(key)
            start = moment + p
            if 0 <= known <= start:
                return False
            tick()
            # When this position is to be tried on the smaller games, if its search goes on so
            # long (settled); they need the first pass's order, so never with reshuffle.
            due = [nodes + CLASS_PROOF_EVERY if class_proofs else -1]
            if shuffle_ahead and lost_with_a_free_stock(live):
                record(key, start if known < 0 else min(known, start))
                return False
            length = len(sequence)
            stock_top = sequence[p] if p < length else -1
            q = p - 1
            while q >= 0 and not live >> sequence[q] & 1:
                q -= 1
            waste_top = sequence[q] if q >= 0 else -1
            exposed, overlaps, tableau_values, exposed_mask = shapes.get(live & tableau_mask) or shape_of(
                live & tableau_mask
            )
            reserve_live = live & reserve_mask
            # Available at every moment of this frame: the exposed tableau cards and the reserve.
            fixed = exposed_mask | reserve_live

            # Every move of this moment: Kings, pairs, then overlap pairs.
            avail = list(exposed)
            if reserve_live:
                loose = set(tableau_values)
                if not shuffle_ahead:
                    loose.update(values[i] for i in (stock_top, waste_top if waste_usable else -1) if i >= 0)
                avail += [
                    i
                    for i in reserve_ids
                    if reserve_live >> i & 1 and not reserve_gives_way(i, loose) and not reserve_twin(i, live)
                ]
            available = fixed
            if stock_top >= 0:
                avail.append(stock_top)
                available |= 1 << stock_top
            if waste_top >= 0 and waste_usable:
                avail.append(waste_top)
                available |= 1 << waste_top
            kings: list[Pair] = []
            pairs: list[Pair] = []
            by_value: dict[int, list[int]] = {}
            for a in avail:
                v = values[a]
                if v == KING:
                    kings.append((a,))
                    continue
                for b in by_value.get(TARGET - v, ()):
                    pairs.append((b, a))
                by_value.setdefault(v, []).append(a)
            forced: Pair | None = None
            for king in kings:
                if not shuffle_ahead or (max_redeals is not None and king[0] < reserve_end):
                    forced = king
                    break
            if forced is None and (not shuffle_ahead or max_redeals is not None):
                for pair in pairs:
                    c = class_of[pair[0]]
                    if whole_class(c, live, available) and (
                        not shuffle_ahead or not live & class_masks[c] & sequence_mask
                    ):
                        forced = pair
                        break
            if forced is not None:
                if remove(live, p, ctx, forced, stock_top):
                    return True
                record(key, start if known < 0 else min(known, start))
                return False
            pairs.sort(key=lambda pair: sign[0] * removal_weight(pair, size, reserve_end))
            for pair in (*kings, *pairs, *overlaps):
                if remove(live, p, ctx, pair, stock_top):
                    return True
                if settled(live, p, used, flag, due):
                    record(key, start if known < 0 else min(known, start))
                    return False

            # The later moments of this pass: only moves with the new stock top are new.
            draws = 0
            stop = known if known > start else -1
            while stock_top >= 0:
                if wastes:
                    c = class_of[stock_top]
                    if c and not class_feasible(c, live, wastes[p + 1]):
                        break
                waste_top = stock_top
                p += 1
                while p < length and not live >> sequence[p] & 1:
                    p += 1
                draws += 1
                if p == length:
                    stock_top = -1
                    break
                if 0 <= stop <= moment + p:
                    break
                tick()
                if settled(live, p, used, flag, due):
                    record(key, start if known < 0 else min(known, start))
                    return False
                stock_top = sequence[p]
                v = values[stock_top]
                if v == KING:
                    if remove(live, p, ctx, (stock_top,), stock_top):
                        line.extend(["draw"] * draws)
                        return True
                    if shuffle_ahead:
                        continue
                    record(key, start if known < 0 else min(known, start))
                    return False
                w = TARGET - v
                partners = tableau_values.get(w, ())
                # A reserve card gives way to a tableau card of its value, or to the waste top
                # when no shuffle is ahead.
                if (
                    reserve_live
                    and not partners
                    and not (waste_usable and not shuffle_ahead and values[waste_top] == w)
                ):
                    partners += tuple(
                        i
                        for i in reserve_ids
                        if reserve_live >> i & 1 and values[i] == w and not reserve_twin(i, live)
                    )
                if waste_usable and values[waste_top] == w:
                    partners += (waste_top,)
                if not partners:
                    continue
                available = fixed | 1 << stock_top | (1 << waste_top if waste_usable else 0)
                all_here = not shuffle_ahead and whole_class(class_of[stock_top], live, available)
                for b in partners:
                    if remove(live, p, ctx, (b, stock_top), stock_top):
                        line.extend(["draw"] * draws)
                        return True
                    if all_here:
                        record(key, start if known < 0 else min(known, start))
                        return False

            if (
                stock_top < 0
                and waste_top >= 0
                and (flag if max_redeals is None else used < max_redeals and (flag or reshuffle))
            ):
                if reshuffle:
                    waste = [i for i in sequence if live >> i & 1]
                    order = tuple(rng.shuffled(waste, rng.derive_seed(seed, "redeal", used + 1)))
                    new_ctx, first = context(used + 1, False, order), 0
                else:
                    new_ctx, first = context(used + 1, False, sequence), 0
                    while not live >> sequence[first] & 1:
                        first += 1
                if search(live, first, new_ctx):
                    line.append("redeal")
                    line.extend(["draw"] * draws)
                    return True
            record(key, start if known < 0 else min(known, start))
            return False

        def lost_with_a_free_stock(live: int) -> bool:
            """Whether ``freed(live)`` is proven lost within FREE_STOCK_NODES positions, which
            count as this search's (so that it never runs past this search's own budget)."""
            nonlocal nodes
            known = free_lost.get(live)
            if known < 0:
                winnable, spent = self.smaller_game(
                    self.freed(live),
                    FREE_STOCK_NODES if budget[0] <= 0 else min(FREE_STOCK_NODES, budget[0] - nodes),
                )
                known = int(winnable is False)
                free_lost.put(live, known)
                nodes += spent
                self.nodes = nodes
                if 0 < budget[0] <= nodes:
                    raise SearchAborted
            return known == 1

        def settled(live: int, p: int, used: int, flag: bool, due: list[int]) -> bool:
            """Whether a position whose search is still going on, now at moment ``p``, is lost
            in a smaller game: tried once the search has passed CLASS_PROOFS_AFTER positions in
            all and ``due[0]`` (set as the position's search begins, -1 for never), then again
            CLASS_PROOF_EVERY positions later; from CLASS_PROOFS_CAPPED_AFTER positions on, only
            while at most 1 / CLASS_PROOF_SHARE of all positions went to these games. The moves
            tried so far failed, so a loss from ``p`` on is the position's."""
            if due[0] < 0 or nodes < due[0] or nodes < CLASS_PROOFS_AFTER:
                return False
            due[0] = nodes + CLASS_PROOF_EVERY
            if nodes >= CLASS_PROOFS_CAPPED_AFTER and proof_nodes[0] * CLASS_PROOF_SHARE > nodes:
                return False
            before = nodes
            try:
                return lost_in_smaller_games(live, p, used, flag)
            finally:
                proof_nodes[0] += nodes - before

        def lost_in_smaller_games(live: int, p: int, used: int, flag: bool) -> bool:
            """Whether one of the smaller games keeping CLASS_PROOF_SIZE of the classes in play
            (and the tableau's Kings, see ``relaxations``) is lost from this position, each
            decided within CLASS_PROOF_NODES positions, which count as this search's. A game's
            verdict at one moment of its pass holds at others: lost, at every later one; won,
            at every earlier one (and one out of positions is not tried again at those). Kept
            by its cards in play, its classes and its pass as (first moment known lost) |
            (last moment known open) << 6, moments counted from 1, 0 for none known."""
            nonlocal nodes
            present = [c for c in sorted(class_masks) if live & class_masks[c]]
            if len(present) <= CLASS_PROOF_SIZE:
                return False
            used = used if max_redeals is not None else 0
            before = ((1 << p) - 1) << reserve_end
            for chosen in combinations(present, CLASS_PROOF_SIZE):
                keep = sum(class_masks[c] for c in chosen)
                table = sum(1 << c for c in chosen) | used << 7
                key = live & (keep | kings) | table << WASTE_SHIFT
                moment = (live & keep & before).bit_count() + 1
                known = smaller_lost.get(key)
                lost_from, open_to = (0, 0) if known < 0 else (known & 63, known >> 6)
                if lost_from and lost_from <= moment:
                    return True
                if moment <= open_to:
                    continue
                allowed = CLASS_PROOF_NODES if budget[0] <= 0 else min(CLASS_PROOF_NODES, budget[0] - nodes)
                winnable, spent = self.smaller_game(
                    self.reduced_at(set(chosen), live, p, used, flag), allowed
                )
                if winnable is False:
                    lost_from = moment
                elif winnable or allowed == CLASS_PROOF_NODES:
                    open_to = moment
                smaller_lost.put(key, lost_from | open_to << 6)
                nodes += spent
                self.nodes = nodes
                if 0 < budget[0] <= nodes:
                    raise SearchAborted
                if winnable is False:
                    return True
            return False

        def examined() -> int:
            return nodes

        return search, examined, budget, sign

    # -- every legal move, for the hint's fallback -----------------------------------

    def start(self) -> tuple[int, int, int]:
        """The search's first position (live, p, ctx)."""
        p = self.start_p
        while p < len(self.first_sequence) and not self.live >> self.first_sequence[p] & 1:
            p += 1
        return self.live, p, self.context(self.start_used, self.start_flag, self.first_sequence)

    def moves(self, position: tuple[int, int, int]) -> list[tuple[str, tuple[int, int, int], int]]:
        """(action text, next position, cards removed) for every legal move but a useless
        redeal, in the engine's order: removals, draw, redeal."""
        live, p, ctx = position
        used, flag, sequence, _, _, _ = self.contexts[ctx]
        length = len(sequence)
        stock_top = sequence[p] if p < length else -1
        q = p - 1
        while q >= 0 and not live >> sequence[q] & 1:
            q -= 1
        waste_top = sequence[q] if q >= 0 else -1
        tableau = live & self.tableau_mask
        exposed = [
            k
            for k in range(self.size)
            if tableau >> k & 1 and not any(tableau >> j & 1 for j in self.covered_by[k])
        ]
        avail = exposed + [i for i in self.reserve_ids if live >> i & 1]
        avail += [stock_top] if stock_top >= 0 else []
        avail += [waste_top] if waste_top >= 0 and self.waste_usable else []
        removals: list[Pair] = [(a,) for a in avail if self.values[a] == KING]
        removals += [
            (a, b)
            for n, a in enumerate(avail)
            for b in avail[n + 1 :]
            if self.values[a] + self.values[b] == TARGET
        ]
        if self.overlap:
            for top in exposed:
                for under in self.covers[top]:
                    if (
                        tableau >> under & 1
                        and self.values[under] + self.values[top] == TARGET
                        and not any(tableau >> j & 1 for j in self.covered_by[under] if j != top)
                    ):
                        removals.append((under, top))
        out = []
        flagged = self.context(used, True, sequence)
        for pair in removals:
            rest = live
            for i in pair:
                rest &= ~(1 << i)
            next_p = p + 1 if stock_top in pair else p
            while next_p < length and not rest >> sequence[next_p] & 1:
                next_p += 1
            text = pair_text(tuple(self.cards[i] or "" for i in pair))
            out.append((text, (rest, next_p, flagged), len(pair)))
        if stock_top >= 0:
            next_p = p + 1
            while next_p < length and not live >> sequence[next_p] & 1:
                next_p += 1
            out.append(("draw", (live, next_p, ctx), 0))
        elif waste_top >= 0 and (flag if self.max_redeals is None else used < self.max_redeals):
            if self.reshuffle:
                waste = [i for i in sequence if live >> i & 1]
                order = tuple(rng.shuffled(waste, rng.derive_seed(self.seed, "redeal", used + 1)))
                out.append(("redeal", (live, 0, self.context(used + 1, False, order)), 0))
            elif flag:
                first = 0
                while not live >> sequence[first] & 1:
                    first += 1
                out.append(("redeal", (live, first, self.context(used + 1, False, sequence)), 0))
        return out

    def position_key(self, position: tuple[int, int, int]) -> int:
        live, p, ctx = position
        return live | p << len(self.cards) | ctx << (len(self.cards) + 6)

    def won_position(self, position: tuple[int, int, int]) -> bool:
        return self.won(position[0])
