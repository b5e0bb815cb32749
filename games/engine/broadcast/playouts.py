"""The rest of a deal played out by the site's bots, many times over its undealt cards.

``Playouts(game, seed).figure(state, ply)`` is each seat's chance to win the deal ``state``
belongs to, ``ply`` actions into the game: every card dealt so far is known (all seats'
hidden cards), the undealt ones are dealt anew, and every remaining decision is the bot's
(``engine.bot_action``), from that seat's own view and with the seed the site would give it
at that ply (``bots.bot_seed``), so a bot is a fixed function of its view.

The shortcuts, and what each relies on (``tests/engine/test_broadcast.py`` checks each claim):

* **Nothing random before the first card.** From a state, the bots' actions up to the first
  one that deals an undealt card are the same in every playout: no bot sees an undealt card
  and their seeds are fixed. So they are played once, and the state reached just before that
  card (``ply`` included) stands for every step that leads to it: its figure is computed once
  and shared. When a human's action was the bot's, consecutive steps share a figure this way.
  When the deal ends before any card is dealt, the figure is exact (one continuation).
* **A bot's move is looked up, not worked out again**, by its view and ply: ``bot_action`` is
  a pure function of the view and the seed, and the seed depends on the seat and ply alone.
  Triad and Tauron look it up by ``Table.knowledge`` instead, which is equal only when the
  views are and costs a tenth of making one (the view is made only when the bot must move).
* **Exact enumeration of the last cards.** In Triad and Tauron the order of the cards one
  action deals doesn't matter to anything after it (a hand and a board are valued, and read
  by the bots, as multisets: ``Table.order_free``), so when the rest of a deal holds few
  enough distinct multisets of dealt cards (at most ``ENUMERATION_LIMIT`` continuations in
  all), each is played once with its exact probability: the figure is exact, margin 0. For
  the same reason a playout's cards are put in one order after each action that deals
  (``Table.canonical``), so that the bots meet, and work out, fewer distinct views.
* **Adaptive sampling** otherwise: batches of ``BATCH`` playouts, each from its own uniform
  order of the undealt cards (seeded from the game's seed, the ply and the playout's number),
  until every seat's margin is at most ``MARGIN_GOAL`` points. The margin is the solitaire
  meter's (``margin``): a Wilson interval takes each playout as a win or a loss; a tie's
  share 1/k varies less than that, so with ties the interval is, if anything, too wide.
* **Control variates** (Triad): who wins a deal is mostly whose hand ends best, and each draw
  still to come is worth something whose mean is known exactly: the bot's percentile of the
  hand it makes (``Table.draw``). A seat's draw comes from the top of a uniform order, so,
  taken alone, its cards are as likely any multiset of the undealt ones as a uniform draw of
  them (when no reshuffle comes first: then, or when the playouts do not all make the same
  draws, the plain means are used); ``draw_mean`` enumerates them (``tables.multisets``,
  as an exact figure does). Each share is then its mean less the part its regression on the
  draws' scores puts down to their having come out above or below those means
  (``_Control``), an estimate that varies far less than the plain mean, and its margin is
  the Wilson interval of the playouts that would vary as little: ``p(1-p)`` over
  the regression's variance (its residual variance, grown as a prediction's away from the
  sample's mean is), at most ``CONTROL_GAIN`` times those played. A figure takes a third of
  the playouts it did (bench/broadcast.py: 75,000 -> 32,000 a 6-player match). Against 13
  figures enumerated exactly (deals of 3, 4 and 6 seats), sampled 60 times each to ±3, the
  intervals held the exact chance 2,453 times in 2,460 (99.7%); with no ``CONTROL_GAIN``
  (3 figures, 100 times each) 782 in 800, 94-100% a figure. ``tests/engine/test_broadcast.py``
  checks it on one, to a looser goal.
* **Two processes.** The figures to sample or enumerate don't depend on each other (each
  playout is seeded by its figure's ply and its number; a bot's move is a function of its
  view), so ``figures(..., workers=2)`` shares them out between this process and a forked one
  (``forked``), each taking the next as it frees up: the same figures as one process's.

Cost (bench/broadcast.py, 3 bot-played 6-player Triad matches, seeds 0-2, on this 2-core
machine under other load, so CPU time is the guide; old and new code run side by side, twice,
2026-11-30): a match (about 400 steps, two thirds of them exact) plays about 32,000
continuations, nearly all of them sampling (each card a Triad draw deals before the last draw
starts a figure of its own). Control variates cut them from 75,000 (a figure within 3 points
took up to 1,500 playouts, now about 450): in one process, CPU p95 27.2 s -> 11.8 s (2,800
continuations a second either way); shared with a forked process, the busier process's CPU
p95 14.4 s -> 6.4 s and 7.3 s, about the wall-clock time when each has a core: under the
issue's 10 s. Before, the engines', the views' and the playouts' own costs had been cut
(one process 35.5-38.0 s -> 23.5-25.0 s, 2026-11-29).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.engine import get_engine
from games.engine.bots import bot_seed
from games.engine.broadcast.forked import map_forked
from games.engine.broadcast.tables import Table, multisets
from games.engine.rng import derive_seed, shuffled
from games.engine.solver.odds import wilson_of_share

MARGIN_GOAL = 3
"""Points either side of a sampled figure (95% Wilson interval, rounded outwards) that
sampling stops at, for every seat."""
BATCH = 100
"""Playouts between two looks at the margins."""
MAX_PLAYOUTS = 4000
"""A guard only: at 4,000 playouts every share's margin is below 1.6 points."""
CONTROL_GAIN = 3
"""The most a control variate may stand for: the margin of at most this many times the
playouts played (a guard against a residual variance that came out near 0 by chance)."""
ENUMERATION_LIMIT = 1000
"""The most continuations an exact enumeration may take; past it the figure is sampled
(a sampled figure takes up to about 1,500 playouts of the same cost, about 450 with control
variates: an enumeration may cost more, but its figure is exact)."""


@dataclass(frozen=True)
class Figure:
    """Each seat's share of the deal's wins over the playouts, and how it was found."""

    shares: tuple[float, ...]
    playouts: int
    """Continuations played: sampled playouts, or enumerated ones when ``exact``."""
    exact: bool
    """No sampling: the shares are the chances themselves (margin 0)."""
    margins: tuple[int, ...] | None = None
    """Each seat's points either side of a sampled share (``_Control``); ``None`` when exact."""


@dataclass(frozen=True)
class _Random:
    """Where the bots' deterministic actions stop: the action at ``ply`` from ``state``
    deals ``size`` undealt cards (-1: it shuffles)."""

    state: Any
    ply: int
    size: int


class Playouts:
    """Figures for the states of one game, sharing what one game's steps can share."""

    def __init__(
        self,
        game: str,
        seed: int,
        table: Table,
        *,
        margin_goal: int = MARGIN_GOAL,
        enumeration_limit: int = ENUMERATION_LIMIT,
        salt: int = 0,
    ) -> None:
        self.engine = get_engine(game)
        self.seed = seed
        self.salt = salt
        """0, or a number that gives every playout other cards (for tests of the margins)."""
        self.table = table
        self.margin_goal = margin_goal
        self.enumeration_limit = enumeration_limit
        self.playouts = 0
        """Continuations played so far, sampled and enumerated, shared figures once."""
        self._moves: dict[tuple[int, tuple[object, ...]], Any] = {}
        """The bots' moves, parsed: ``engine.apply`` takes them so, without reading them again."""
        # A showdown's decisions are looked up in vain more often than not (the hands shown
        # before differ), and a bot's seed (a SHA-256) and reading its text back cost more
        # than deciding: both are kept.
        self._seeds: dict[tuple[int, int], int] = {}
        self._parsed: dict[str, Any] = {}
        self._figures: dict[tuple[int, Any], Figure] = {}

    def figure(self, state: Any, ply: int) -> Figure:
        """The chances from ``state``, ``ply`` actions into the game, of a deal not yet over."""
        return self.figures([(state, ply)])[0]

    def figures(self, asked: Sequence[tuple[Any, int]], *, workers: int = 1) -> list[Figure]:
        """``figure(state, ply)`` of each of ``asked``, the figures to sample or enumerate
        worked out in ``workers`` processes (``forked``): the same figures, whichever works
        each out, each one's playouts seeded by its own ply."""
        aheads = [self._advance(state, ply) for state, ply in asked]
        keys = {(ahead.ply, ahead.state): ahead for ahead in aheads if isinstance(ahead, _Random)}
        jobs = [job for key, job in keys.items() if key not in self._figures]
        for job, (known, played) in zip(jobs, map_forked(self._job(jobs), len(jobs), workers), strict=True):
            self._figures[job.ply, job.state] = known
            self.playouts += played
        found = []
        for ahead in aheads:
            if isinstance(ahead, _Random):
                found.append(self._figures[ahead.ply, ahead.state])
            else:
                self.playouts += 1
                found.append(Figure(tuple(float(share) for share in ahead), 1, True))
        return found

    def _job(self, jobs: list[_Random]) -> Callable[[int], tuple[Figure, int]]:
        def work(index: int) -> tuple[Figure, int]:
            before = self.playouts
            known = self._exact(jobs[index]) or self._sample(jobs[index])
            played, self.playouts = self.playouts - before, before
            return known, played

        return work

    # ---- one continuation ---------------------------------------------------------------

    def _bot(self, state: Any, ply: int) -> Any:
        seat = self.engine.current_player(state)
        assert seat is not None, "a deal being played has a seat to act"
        known = self.table.knowledge(state, seat)
        view = None
        if known is None:
            view = self.engine.view(state, seat)
            # Every field but config, which is the game's own and a dict (not hashable).
            known = (seat, *(value for name, value in vars(view).items() if name != "config"))
        move = self._moves.get((ply, known))
        if move is None:
            view = view or self.engine.view(state, seat)
            seed = self._seeds.get((seat, ply))
            if seed is None:
                seed = self._seeds[seat, ply] = bot_seed(self.seed, seat, ply)
            text = self.engine.bot_action(view, seed)
            move = self._parsed.get(text)
            if move is None:
                move = self._parsed[text] = self.engine.parse_action(text)
            self._moves[ply, known] = move
        return move

    def _advance(self, state: Any, ply: int, *, dealing: bool = False) -> tuple[Fraction, ...] | _Random:
        """Play bots until the deal ends (its shares) or an action would deal an undealt card;
        ``dealing``: the first action is known to deal, and is played."""
        deal = self.table.deal(state)
        while True:
            after = self.engine.apply(state, self._bot(state, ply))
            if self.table.settled(after) or self.table.deal(after) != deal:
                return self.table.shares(after)
            size = self.table.dealt(state, after)
            if size and not dealing:
                return _Random(state, ply, size)
            if size:
                after = self.table.canonical(after)
            state, ply, dealing = after, ply + 1, False

    def _play(
        self, state: Any, ply: int, draws: list[tuple[tuple[object, ...], float] | None]
    ) -> tuple[float, ...]:
        """One playout to the end of the deal, dealing what comes as it comes; ``draws``
        gets ``Table.draw`` of each action that deals."""
        table, apply, bot = self.table, self.engine.apply, self._bot
        deal = table.deal(state)
        while True:
            after = apply(state, bot(state, ply))
            ply += 1
            if table.settled(after) or table.deal(after) != deal:
                return table.float_shares(after)
            size = table.dealt(state, after)
            if size:
                draws.append(table.draw(state, after, size) if size > 0 else None)
                state = table.canonical(after)
            else:
                state = after

    # ---- exact --------------------------------------------------------------------------

    def _exact(self, ahead: _Random) -> Figure | None:
        """Every multiset of the cards to come, weighted by its probability; ``None`` when the
        deal's order matters, a shuffle is ahead, or more than ``ENUMERATION_LIMIT``
        continuations would be needed."""
        if not self.table.order_free:
            return None
        counted = [0]
        shares = self._enumerate(ahead, self.enumeration_limit, counted)
        self.playouts += counted[0]
        if shares is None:
            return None
        return Figure(tuple(float(share) for share in shares), counted[0], True)

    def _enumerate(self, ahead: _Random, budget: int, counted: list[int]) -> tuple[Fraction, ...] | None:
        if ahead.size < 0:
            return None
        options = list(_multisets(self.table.undealt(ahead.state), ahead.size))
        if len(options) > budget:
            return None
        total: list[Fraction] = []
        for weight, cards in options:
            start = self.table.redeal(ahead.state, cards, ahead.state.seed)
            after = self._advance(start, ahead.ply, dealing=True)
            if isinstance(after, _Random):
                shares = self._enumerate(after, budget // len(options), counted)
                if shares is None:
                    return None
            else:
                counted[0] += 1
                shares = after
            if not total:
                total = [Fraction(0)] * len(shares)
            for seat, share in enumerate(shares):
                total[seat] += weight * share
        return tuple(total)

    # ---- sampled ------------------------------------------------------------------------

    def _sample(self, ahead: _Random) -> Figure:
        cards = self.table.undealt(ahead.state)
        control: _Control | None = None
        usable = True
        count = 0
        while count < MAX_PLAYOUTS:
            for number in range(count, count + BATCH):
                stream = derive_seed(self.seed, "broadcast", ahead.ply, number)
                if self.salt:
                    stream = derive_seed(stream, "salt", self.salt)
                start = self.table.redeal(ahead.state, tuple(shuffled(cards, stream)), stream)
                draws: list[tuple[tuple[object, ...], float] | None] = []
                shares = self._play(start, ahead.ply, draws)
                if control is None:
                    keys = tuple(draw[0] for draw in draws if draw is not None)
                    usable = len(keys) == len(draws) > 0
                    means = [self.table.draw_mean(key, cards) for key in keys] if usable else []
                    control = _Control(keys, means, len(shares))
                if usable:
                    usable = control.add(draws, shares)
                else:
                    control.add_plain(shares)
            count += BATCH
            self.playouts += BATCH
            assert control is not None
            shares, margins = control.figure() if usable else control.plain()
            if max(margins) <= self.margin_goal:
                break
        return Figure(shares, count, False, margins)


class _Control:
    """A sampled figure's shares and margins by regression on control variates (``Table.draw``):
    each seat's mean share, less what the playouts' draws came out above or below their exact
    means accounts for."""

    def __init__(self, keys: tuple[tuple[object, ...], ...], means: list[float], seats: int) -> None:
        self.keys = keys
        self.means = means
        k = len(keys)
        self.count = 0
        self.sx = [0.0] * k
        self.sxx = [[0.0] * k for _ in range(k)]
        self.sy = [0.0] * seats
        self.syy = [0.0] * seats
        self.sxy = [[0.0] * seats for _ in range(k)]

    def add_plain(self, shares: tuple[float, ...]) -> None:
        self.count += 1
        for seat, share in enumerate(shares):
            self.sy[seat] += share

    def add(self, draws: list[tuple[tuple[object, ...], float] | None], shares: tuple[float, ...]) -> bool:
        """Adds a playout; ``False`` if its draws were not the first playout's (then only the
        plain means may be used)."""
        self.add_plain(shares)
        if len(draws) != len(self.keys):
            return False
        xs = []
        for draw, key in zip(draws, self.keys, strict=True):
            if draw is None or draw[0] != key:
                return False
            xs.append(draw[1])
        sx, sxx, sxy, syy = self.sx, self.sxx, self.sxy, self.syy
        for seat, share in enumerate(shares):
            syy[seat] += share * share
        for a, x in enumerate(xs):
            sx[a] += x
            row = sxx[a]
            for b, other in enumerate(xs):
                row[b] += x * other
            cross = sxy[a]
            for seat, share in enumerate(shares):
                cross[seat] += x * share
        return True

    def plain(self) -> tuple[tuple[float, ...], tuple[int, ...]]:
        """The mean shares, each with its Wilson margin."""
        n = self.count
        shares = tuple(total / n for total in self.sy)
        return shares, tuple(margin(share, n) for share in shares)

    def figure(self) -> tuple[tuple[float, ...], tuple[int, ...]]:
        """The regression estimate of each share, with the Wilson margin of the number of
        plain playouts that would be as precise (at most ``CONTROL_GAIN`` times those played)."""
        n, k = self.count, len(self.keys)
        xbar = [total / n for total in self.sx]
        cxx = [[self.sxx[a][b] / n - xbar[a] * xbar[b] for b in range(k)] for a in range(k)]
        inverse = _inverse(cxx)
        if inverse is None or n <= k + 2:
            return self.plain()
        off = [xbar[a] - self.means[a] for a in range(k)]
        # The estimate at the exact means is a regression's prediction away from the sample's
        # mean: its variance grows by this factor (OLS).
        spread = 1 + sum(off[a] * inverse[a][b] * off[b] for a in range(k) for b in range(k))
        shares, margins = [], []
        for seat, total in enumerate(self.sy):
            ybar = total / n
            if ybar in (0.0, 1.0):  # every playout alike: no control explains anything
                shares.append(ybar)
                margins.append(margin(ybar, n))
                continue
            cxy = [self.sxy[a][seat] / n - xbar[a] * ybar for a in range(k)]
            beta = [sum(inverse[a][b] * cxy[b] for b in range(k)) for a in range(k)]
            share = ybar - sum(beta[a] * off[a] for a in range(k))
            residual = self.syy[seat] / n - ybar * ybar - sum(beta[a] * cxy[a] for a in range(k))
            variance = max(residual, 0.0) * n / (n - k - 1) * spread / n
            # A share that came out 0 or 1 here was not seen to be certain: keep it inside.
            share = min(max(share, 1e-9), 1 - 1e-9)
            plain = n * CONTROL_GAIN if variance <= 0 else share * (1 - share) / variance
            shares.append(share)
            margins.append(margin(share, min(plain, n * CONTROL_GAIN)))
        return tuple(shares), tuple(margins)


def _inverse(matrix: list[list[float]]) -> list[list[float]] | None:
    """The inverse of a small covariance matrix (Gauss-Jordan), ``None`` if near singular."""
    k = len(matrix)
    work = [[*row, *(float(a == b) for b in range(k))] for a, row in enumerate(matrix)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda row: abs(work[row][col]))
        if abs(work[pivot][col]) < 1e-10:
            return None
        work[col], work[pivot] = work[pivot], work[col]
        head = work[col][col]
        work[col] = [value / head for value in work[col]]
        for row in range(k):
            if row != col and work[row][col]:
                factor = work[row][col]
                work[row] = [value - factor * lead for value, lead in zip(work[row], work[col], strict=True)]
    return [row[k:] for row in work]


def _multisets(cards: tuple[str, ...], size: int) -> Iterator[tuple[Fraction, tuple[str, ...]]]:
    """Each multiset of ``size`` of ``cards`` with the chance that a uniform order deals it
    first, as a new order: that multiset on top, the rest after it."""
    whole = math.comb(len(cards), size)
    for ways, chosen in multisets(cards, size):
        rest = Counter(cards)
        rest.subtract(chosen)
        yield Fraction(ways, whole), chosen + tuple(sorted(rest.elements()))


def percent(share: float) -> int:
    """A share as whole percent; 0 and 100 only when certain, as the solitaire meter shows."""
    rounded = math.floor(100 * share + 0.5)
    if 0 < share < 1:
        return min(99, max(1, rounded))
    return rounded


def margin(share: float, playouts: float) -> int:
    """Points either side of ``percent(share)`` that hold the 95% Wilson score interval of a
    share over ``playouts`` playouts (or as many as a control-variate estimate is as precise
    as, ``_Control``), rounded outwards (the solitaire meter's, ``odds.Odds``)."""
    low, high = wilson_of_share(share, playouts)
    shown = percent(share)
    return math.ceil(round(max(shown - 100 * low, 100 * high - shown), 6))
