"""The chance to win from here, seen from the player's view alone (LP-11, as LP-7).

    from games.engine.solver import odds
    figure = odds.chance("tripeaks", engine.view(state, 0))
    figure.percent, figure.margin    # 62, 9: "62% ± 9"; None, None if no sample settled
    figure.unknown                   # samples the solver could not settle (never guessed)
    figure.exact                     # every order of the hidden cards was solved: margin 0

What it computes: the share of the positions the player may be in that the exact solver
proves winnable. The player cannot see Pyramid's stock below its top card (nor, with PY-6
``reshuffle``, the seed that decides the shuffles to come), nor Tri-Peaks' face-down layout
cards and its stock (LP-3); each order of those cards is equally likely to them. (In
Pyramid's later passes without ``reshuffle`` the stock repeats an order the player watched
go by in the pass before; the view does not show it, so the figure, like a hint, treats it
as unseen: a player who remembers it knows more than the figure does.)

* When those orders are at most ``samples`` (4 hidden cards have 24, 5 have 120) and no
  shuffle is ahead, every one is solved: the figure is exact, its margin 0.
* Otherwise ``samples`` orders (and seeds) are drawn independently and uniformly by a
  generator seeded from a hash of the view (``sampling``), so one view always gets one
  figure, whatever its hidden cards really are.
* Each position is solved with a budget of ``node_limit`` positions. One the solver cannot
  settle within it is counted as unknown: it is neither a win nor a loss, and the figure
  is the share of wins among the settled ones. A position that needs a long search may be
  likelier to be a win (or a loss) than the others, so ``unknown`` is shown beside the
  figure: over all samples, the share of wins lies between ``wins / samples`` and
  ``(wins + unknown) / samples``.
* The margin is sampling error only: ``percent ± margin`` contains the 95% Wilson score
  interval of ``wins`` out of the settled samples (sound near 0% and 100%, where most
  positions lie), rounded outwards to whole points.
* A finished game is 100% (won) or 0% (lost or resigned), exact, and solves nothing.

Deterministic: budgets are positions, never seconds. A game whose numbers could reveal a
secret deal (LP-6) must not ask: that is the caller's to check.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from games.engine.base import View
from games.engine.solitaire_common import PLAYING, WON
from games.engine.solver import solve_state
from games.engine.solver.sampling import (
    PyramidReader,
    TriPeaksReader,
    check_seat,
    check_view,
    read_view,
    sample_states,
)

__all__ = ["ODDS_SAMPLES", "ODDS_SOLVE_NODES", "Odds", "chance", "wilson", "wilson_of_share"]

ODDS_SAMPLES = 100
"""Positions consistent with the view solved per figure. With ODDS_SOLVE_NODES, over 300
positions of play (bench/odds_meter.py, 2-core machine, idle): p95 70 ms a figure, max 133;
120 samples took the p95 to 88 ms of CPU. 2.7% of samples were left unknown."""
ODDS_SOLVE_NODES = 20_000
"""Positions the solver may examine per sample before it counts as unknown: a hint's budget.
10,000 took the p95 down to 54 ms of CPU but left twice as many samples unknown (5.4%)."""
Z_95 = 1.96
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True)
class Odds:
    """How many of the positions tried were proven won, proven lost, or left unknown."""

    wins: int
    losses: int
    unknown: int
    """Samples whose search ran out of its node budget: never guessed (LP-11)."""
    exact: bool
    """Every order of the hidden cards was solved (no sampling): the margin is 0."""

    @property
    def samples(self) -> int:
        return self.wins + self.losses + self.unknown

    @property
    def settled(self) -> int:
        return self.wins + self.losses

    @property
    def percent(self) -> int | None:
        """The share of the settled samples won, in whole percent; None if none settled.
        0 and 100 mean every one was lost, or won: a mixed share is shown as 1 to 99."""
        if not self.settled:
            return None
        rounded = (200 * self.wins + self.settled) // (2 * self.settled)
        if 0 < self.wins < self.settled:
            return min(99, max(1, rounded))
        return rounded

    @property
    def margin(self) -> int | None:
        """Percentage points either side of ``percent`` that hold the 95% interval; 0 when
        exact, None when no sample settled."""
        percent = self.percent
        if percent is None:
            return None
        if self.exact:
            return 0
        low, high = wilson(self.wins, self.settled)
        spread = max(percent - 100 * low, 100 * high - percent)
        # Rounded to a millionth first, so that float noise never adds a point.
        return math.ceil(round(spread, 6))


def wilson(wins: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval (shares 0 .. 1) of ``wins`` out of ``trials`` > 0."""
    return wilson_of_share(wins / trials, trials, z)


def wilson_of_share(rate: float, trials: float, z: float = Z_95) -> tuple[float, float]:
    """``wilson`` of a share 0 .. 1 over ``trials`` > 0, which need not be whole (a broadcast
    figure's ties count 1/k, and an estimate may be as precise as some number of trials)."""
    centre = (rate + z * z / (2 * trials)) / (1 + z * z / trials)
    variance = max(0.0, rate * (1 - rate))
    spread = z * math.sqrt(variance / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def chance(
    game: str,
    view: View,
    *,
    samples: int = ODDS_SAMPLES,
    node_limit: int = ODDS_SOLVE_NODES,
    stream: str = "odds",
) -> Odds:
    """The chance to win of the player who sees ``view`` (``engine.view(state, 0)``); see
    the module doc. ``stream`` names the generator the samples are drawn from: one view
    gets independent samples under another name (a benchmark's reference uses one)."""
    what = "chance to win"
    view = check_view(game, view, what, "LP-11")
    check_seat(view, what)
    if samples < 1 or node_limit < 1:
        raise ValueError(f"samples and node_limit must be at least 1, not {samples} and {node_limit}")
    if view.status != PLAYING:
        won = view.status == WON
        return Odds(wins=int(won), losses=int(not won), unknown=0, exact=True)
    reader = read_view(game, view)
    orders = every_order(reader, samples)
    if orders is None:
        states: list[Any] = sample_states(game, view, samples, stream)
    else:
        # No shuffle is ahead, so the seed decides nothing.
        states = [reader.build(order, 0) for order in orders]
    verdicts = [solve_state(game, state, node_limit=node_limit).winnable for state in states]
    return Odds(
        wins=verdicts.count(True),
        losses=verdicts.count(False),
        unknown=verdicts.count(None),
        exact=orders is not None,
    )


def every_order(reader: PyramidReader | TriPeaksReader, most: int) -> list[tuple[str, ...]] | None:
    """Every order of the hidden cards if there are at most ``most`` and no shuffle is ahead
    (a shuffle's seed has too many values to try them all), else None."""
    if reader.shuffle_ahead or math.factorial(len(reader.hidden)) > most:
        return None
    return list(permutations(reader.hidden))
