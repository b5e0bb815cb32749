"""The exact Tri-Peaks search (TP-1 .. TP-5), seeing every card (it judges the deal).

A position is the bitmask of layout slots still in play, how many stock cards have been
drawn, and the waste top's *rank*: the waste below its top never plays again and the
top's suit never matters (TP-3), so positions that differ only there are one. The game
graph has no cycles (every move plays a card or draws), so a depth-first search with a
table of failed positions is exact.

A hopeless proof prunes the rest: a layout card can only be played onto a card one rank
away, so every rank still in the layout needs a neighbouring rank that can still reach
the waste (a layout card in play or a stock card not yet drawn) or the waste top itself,
for the first card played. Checked once per search; the deeper checks cost more than
they save.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from games.engine.cards import RANKS, rank_value
from games.engine.solver.pyramid_search import CHECK_EVERY, RECURSION_LIMIT, SearchAborted
from games.engine.tripeaks import COVERED_BY, LAYOUT_SIZE, TriPeaksState

try:
    from games.engine.solver import _tripeaks_core  # type: ignore[attr-defined]
except ImportError:  # built without a C compiler (setup.py): the Python search alone
    _tripeaks_core = None

RANK_COUNT = len(RANKS)
RANK_SHIFT = 40
STOCK_SHIFT = 32


def runs_needed(counts: list[int]) -> int:
    """A lower bound on the runs (plays between two draws) that can play the layout cards of
    these rank counts (``counts[r]``, r = 1..13). A run steps one rank at a time, so it
    stays inside a block of consecutive ranks in play, and along a block it alternates
    between ranks of even and odd place: each block needs max(1, |even - odd|) runs (the
    wrapping K-A block of all 13 ranks, odd in length, needs only 1)."""
    present = [r for r in range(1, RANK_COUNT + 1) if counts[r]]
    if len(present) == RANK_COUNT:
        return 1
    if not present:
        return 0
    # Start the walk round the ranks just after a missing one, so blocks do not wrap.
    gap = next(r for r in range(1, RANK_COUNT + 1) if not counts[r])
    total = balance = 0
    in_block = False
    for step in range(1, RANK_COUNT + 1):
        r = (gap + step - 1) % RANK_COUNT + 1
        if counts[r]:
            balance += counts[r] if step % 2 else -counts[r]
            in_block = True
        elif in_block:
            total += max(1, abs(balance))
            balance, in_block = 0, False
    if in_block:
        total += max(1, abs(balance))
    return total


def neighbours(rank: int) -> tuple[int, int]:
    """The two ranks one away from ``rank`` (1..13), wrapping K-A (TP-3)."""
    return rank % RANK_COUNT + 1, (rank - 2) % RANK_COUNT + 1


class TriPeaksSearch:
    """One search from one position: ``run()`` gives the verdict and fills ``line``."""

    def __init__(
        self,
        state: TriPeaksState,
        node_limit: int | None = None,
        deadline: float | None = None,
        compiled: bool = True,
    ) -> None:
        self.compiled = compiled and _tripeaks_core is not None
        self.layout = state.layout
        self.ranks = [rank_value(card) if card else 0 for card in state.layout]
        self.stock = state.stock
        self.stock_ranks = [rank_value(card) for card in state.stock]
        self.top = rank_value(state.waste[-1])
        self.live = sum(1 << k for k, card in enumerate(state.layout) if card is not None)
        # A card is played onto a card one rank away that reached the waste before it: a
        # layout card it does not lie on, or a stock card. ``helpers[k]``: those layout slots;
        # ``last_helper[k]``: the last stock index of such a card (-1: none).
        above = [0] * LAYOUT_SIZE
        for k in range(LAYOUT_SIZE):
            for j in COVERED_BY[k]:
                above[j] |= 1 << k | above[k]
        self.helpers = [
            sum(
                1 << j
                for j in range(LAYOUT_SIZE)
                if self.ranks[j] and self.ranks[j] in neighbours(self.ranks[k]) and not above[k] >> j & 1
            )
            for k in range(LAYOUT_SIZE)
        ]
        self.last_helper = [
            max((i for i, r in enumerate(self.stock_ranks) if r in neighbours(self.ranks[k])), default=-1)
            for k in range(LAYOUT_SIZE)
        ]
        self.node_limit = node_limit
        self.deadline = deadline
        self.nodes = 0
        self.line: list[str] = []
        """The winning line, last action first."""

    def hopeless(self) -> bool:
        ranks_left = {self.ranks[k] for k in range(LAYOUT_SIZE) if self.live >> k & 1}
        reachable = ranks_left | set(self.stock_ranks)
        return any(not any(n in reachable or n == self.top for n in neighbours(rank)) for rank in ranks_left)

    def run(self) -> bool:
        if not self.live:
            return True
        if self.hopeless():
            self.nodes = 1
            return False
        if self.compiled:
            return self._run_compiled()
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, RECURSION_LIMIT))
        try:
            return self._search()(self.live, 0, self.top)
        finally:
            sys.setrecursionlimit(limit)

    def _run_compiled(self) -> bool:
        """The search in C (``_tripeaks_core.c``): the same positions in the same order, so
        the same verdict, line and count of positions."""
        # The C core returns (status, positions examined, the winning line's layout indexes).
        status: int
        line: list[int]
        status, self.nodes, line = _tripeaks_core.run(
            bytes(self.ranks),
            bytes(b for pair in COVERED_BY for b in (*pair, 255, 255)[:2]),
            b"".join(mask.to_bytes(4, "little") for mask in self.helpers),
            bytes(255 if last < 0 else last for last in self.last_helper),
            bytes(self.stock_ranks),
            self.top,
            -1 if self.node_limit is None else self.node_limit,
            -1.0 if self.deadline is None else self.deadline,
        )
        if status < 0:
            raise SearchAborted
        self.line.extend("draw" if k < 0 else self.layout[k] or "" for k in line)
        return status == 1

    def _search(self) -> Callable[[int, int, int], bool]:
        failed: set[int] = set()
        ranks = self.ranks
        layout = self.layout
        stock_ranks = self.stock_ranks
        stock_size = len(stock_ranks)
        line = self.line
        node_limit = self.node_limit if self.node_limit is not None else -1
        deadline = self.deadline
        nodes = 0
        helpers = self.helpers
        last_helper = self.last_helper
        Info = tuple[dict[int, tuple[int, ...]], int, tuple[tuple[int, int, bool], ...]]
        frees: dict[int, Info] = {}

        def free_of(live: int) -> Info:
            """Rank -> the free slots of that rank (lowest rows first); how many runs must still
            be played; and (slot, last stock helper, free) of the cards no layout card can help."""
            by_rank: dict[int, list[int]] = {}
            counts = [0] * (RANK_COUNT + 1)
            lonely = []
            for k in reversed(range(LAYOUT_SIZE)):
                if live >> k & 1:
                    counts[ranks[k]] += 1
                    free = not any(live >> j & 1 for j in COVERED_BY[k])
                    if free:
                        by_rank.setdefault(ranks[k], []).append(k)
                    if not helpers[k] & live:
                        lonely.append((k, last_helper[k], free))
            info = (
                {rank: tuple(slots) for rank, slots in by_rank.items()},
                runs_needed(counts),
                tuple(lonely),
            )
            frees[live] = info
            return info

        def search(live: int, drawn: int, top: int) -> bool:
            nonlocal nodes
            key = live | drawn << STOCK_SHIFT | top << RANK_SHIFT
            if key in failed:
                return False
            failed.add(key)
            nodes += 1
            self.nodes = nodes
            if nodes == node_limit or (
                nodes & (CHECK_EVERY - 1) == 0 and deadline is not None and time.monotonic() > deadline
            ):
                raise SearchAborted
            free, runs, lonely = frees.get(live) or free_of(live)
            if runs > stock_size - drawn + 1:
                return False
            for k, last, is_free in lonely:
                # Its last stock helper is gone, and it cannot be played on the top now.
                if last < drawn and not (is_free and top in neighbours(ranks[k])):
                    return False
            for rank in neighbours(top):
                for k in free.get(rank, ()):
                    rest = live & ~(1 << k)
                    if not rest or search(rest, drawn, rank):
                        line.append(layout[k] or "")
                        return True
            if drawn < stock_size and search(live, drawn + 1, stock_ranks[drawn]):
                line.append("draw")
                return True
            return False

        return search

    # -- every legal move, for the hint's fallback -----------------------------------

    def start(self) -> tuple[int, int, int]:
        return self.live, 0, self.top

    def moves(self, position: tuple[int, int, int]) -> list[tuple[str, tuple[int, int, int], int]]:
        """(action text, next position, layout cards played) for every legal move, in the
        engine's order: plays in layout order, then draw."""
        live, drawn, top = position
        out = []
        for k in range(LAYOUT_SIZE):
            if (
                live >> k & 1
                and not any(live >> j & 1 for j in COVERED_BY[k])
                and self.ranks[k] in neighbours(top)
            ):
                out.append((self.layout[k] or "", (live & ~(1 << k), drawn, self.ranks[k]), 1))
        if drawn < len(self.stock_ranks):
            out.append(("draw", (live, drawn + 1, self.stock_ranks[drawn]), 0))
        return out

    def position_key(self, position: tuple[int, int, int]) -> int:
        live, drawn, top = position
        return live | drawn << STOCK_SHIFT | top << RANK_SHIFT

    def won_position(self, position: tuple[int, int, int]) -> bool:
        return not position[0]
