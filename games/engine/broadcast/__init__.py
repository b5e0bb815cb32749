"""Broadcast odds for the replay of a finished table game (issue 46, LP-11).

    from games.engine.broadcast import table_odds
    steps = table_odds("triad", record.config, record.seed, action_texts)
    steps[i].seats[s].percent, steps[i].seats[s].margin   # "37% ± 3" for seat s at step i

Step ``i`` is the state before action ``i``; the last step is the final state. Each step
belongs to a *deal*: a hand of a Triad or Tauron Hold-Em match, a tie-replay hand of one
(TR-14, TH-5), a place tie-replay at its end (TR-15), or a game of a Pyramid Poker match
and its tie-replay game (BL-6 .. BL-8). A step's figure is each seat's chance to win that
deal from there, as a poker broadcast shows it: every card dealt so far is known, all
seats' hidden cards included; what is not dealt yet (Triad's draws, Tauron's shared cards
to come, the blocks general supply) is dealt anew, uniformly, in each playout; every
decision left is the site's bot's, from that seat's own view (``playouts`` says how).

What "win" means:

* Triad and Tauron: taking the deal's pot at its showdown, or by every other seat folding.
  A tie after all kickers counts 1/k to each of the k tied seats, as a split pot on
  television: the tie-replay hand that then plays for the held pot is a deal of its own
  with its own figures (its seats the tied ones; every other seat is ``out``).
* Pyramid Poker: winning the game, by more pairs of hands won (basic scoring, BL-6) or by
  more points scored in it (advanced scoring, BL-7); equal counts half each, and the
  tie-replay game that follows is a deal of its own.

A seat that has folded, or is not dealt into the deal (no chips left, or not among the
tied seats), has 0, exact, and its ``standing`` says which. A step after which nothing random
is left is exact, margin 0: the bots' seeds are fixed (the site's, ``bots.bot_seed``), so
the rest of the deal plays out one way. A finished deal's own last state, when it is a step
(a tie waiting for its replay, the final state), is its result: the winner 100, tied seats
the split. Where a hand ends and the next is dealt by the same action, that step's
``result`` gives the finished hand's result, so a chart over the hand can end on it.

Deterministic: every draw is seeded from the game's seed, the ply and the playout's number.
Only a finished game may be asked (LP-11): an unfinished one raises ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import get_engine
from games.engine.broadcast.forked import WORKERS
from games.engine.broadcast.playouts import MARGIN_GOAL, Figure, Playouts, percent
from games.engine.broadcast.tables import FOLDED, IN, OUT, TABLES

__all__ = ["FOLDED", "IN", "MARGIN_GOAL", "OUT", "SeatOdds", "StepOdds", "table_odds"]


@dataclass(frozen=True)
class SeatOdds:
    """One seat's chance to win the deal, as ``percent ± margin``."""

    seat: int
    standing: str
    """``in`` the deal, ``folded`` (TR-8), or ``out``: not dealt in. Only ``in`` can win."""
    chance: float
    """0 .. 1: the share of playouts won (a tie's share 1/k), or the exact chance."""
    percent: int
    """``chance`` in whole percent: 0 and 100 only when certain."""
    margin: int
    """Points either side of ``percent`` holding the 95% Wilson score interval, rounded
    outwards (the solitaire meter's; of the effective playouts, for a figure sampled with
    control variates, ``playouts``); 0 when ``exact`` or not ``in``."""


@dataclass(frozen=True)
class StepOdds:
    """Every seat's chance to win the deal this step belongs to."""

    step: int
    deal: int
    """The deal's number in the game, from 0: steps with one number draw one chart."""
    kind: str
    """``hand`` (Pyramid Poker: a game), ``tie-replay`` or ``place-tie``."""
    hand: int
    """The match's hand (Pyramid Poker: game) the deal belongs to, from 1."""
    seats: tuple[SeatOdds, ...]
    playouts: int
    """Continuations played for this figure: sampled, or enumerated when ``exact`` (steps
    that share a figure share the count)."""
    exact: bool
    """Nothing sampled: every margin is 0."""
    result: tuple[float, ...] | None = None
    """Set when this step's action ends the deal: what each seat actually won of it
    (1, 1/k of a tie, 0), which the next step (another deal's) no longer shows."""


def table_odds(
    game: str,
    config: dict[str, Any] | None,
    seed: int,
    actions: Sequence[str],
    *,
    deck: Sequence[str] | None = None,
    margin_goal: int = MARGIN_GOAL,
    workers: int = WORKERS,
) -> list[StepOdds | None]:
    """One entry per step, 0 .. ``len(actions)``, of the finished game ``(game, config, seed,
    actions)`` (``deck``: an imported game's fixed first deal). ``None`` only for the final
    state of a game ended by a forfeit (TN-6), which abandons the deal being played.
    ``margin_goal``: the points either side that sampling stops at, for every seat;
    ``workers``: the processes the figures are worked out in (forked), with the same result.

    ``ValueError`` for a game without table odds, a record that does not replay, or a game
    that is not over."""
    return run(game, config, seed, actions, deck=deck, margin_goal=margin_goal, workers=workers)[0]


def run(
    game: str,
    config: dict[str, Any] | None,
    seed: int,
    actions: Sequence[str],
    *,
    deck: Sequence[str] | None = None,
    margin_goal: int = MARGIN_GOAL,
    workers: int = WORKERS,
) -> tuple[list[StepOdds | None], int]:
    """``table_odds`` and the continuations it played (for bench/broadcast.py)."""
    table = TABLES.get(game)
    if table is None:
        raise ValueError(f"broadcast odds are for {', '.join(sorted(TABLES))}, not {game!r}")
    engine = get_engine(game)
    states = engine.replay(config, seed, list(actions), deck)
    if engine.outcome(states[-1]) is None:
        raise ValueError("the game is not over: broadcast odds are shown for finished games only (LP-11)")
    if margin_goal < 1:
        raise ValueError(f"margin_goal must be at least 1 point, not {margin_goal}")
    playouts = Playouts(game, seed, table, margin_goal=margin_goal)
    asked = [
        (state, ply)
        for ply, state in enumerate(states)
        if not (table.forfeited(state) or table.settled(state))
    ]
    figures = dict(zip((ply for _, ply in asked), playouts.figures(asked, workers=workers), strict=True))
    steps: list[StepOdds | None] = []
    deal = 0
    for ply, state in enumerate(states):
        if ply and table.deal(state) != table.deal(states[ply - 1]):
            deal += 1
        if table.forfeited(state):
            steps.append(None)
            continue
        settled = table.settled(state)
        figure = Figure(table.float_shares(state), 0, True) if settled else figures[ply]
        result = None
        if not settled and ply < len(actions):
            after = states[ply + 1]
            if (table.settled(after) or table.deal(after) != table.deal(state)) and not table.forfeited(
                after
            ):
                result = table.float_shares(after)
        steps.append(
            StepOdds(
                step=ply,
                deal=deal,
                kind=table.deal_kind(state),
                hand=table.hand_number(state),
                seats=_seats(table.standing(state), figure),
                playouts=figure.playouts,
                exact=figure.exact,
                result=result,
            )
        )
    return steps, playouts.playouts


def _seats(standings: tuple[str, ...], figure: Figure) -> tuple[SeatOdds, ...]:
    # Only a sampled figure has margins (``playouts._sample``): an exact one's are all 0.
    margins = figure.margins or (0,) * len(standings)
    seats = []
    for seat, (standing, chance) in enumerate(zip(standings, figure.shares, strict=True)):
        if standing != IN:
            chance = 0.0
        shown = margins[seat] if standing == IN else 0
        seats.append(SeatOdds(seat, standing, chance, percent(chance), shown))
    return tuple(seats)
