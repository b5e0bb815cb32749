"""How long do a finished table game's broadcast odds take (issue 46)?

Run from the project root:

    .venv/bin/python -m bench.broadcast                          # every row below, 3 games each
    .venv/bin/python -m bench.broadcast --game triad --players 6 --games 5
    .venv/bin/python -m bench.broadcast --margin 5               # a looser goal, for comparison
    .venv/bin/python -m bench.broadcast --workers 1              # in one process, for comparison

Games are played by the site's bots at every seat (``bot_action`` with ``bots.bot_seed``, the
table's own tie-replay action between deals) from seeds 0, 1, 2, ... with the default config
(Triad and Tauron Hold-Em: 12 hands, 100 chips; Pyramid Poker: basic scoring). Each finished
record is then given to ``broadcast.table_odds``, one after another, after one untimed small
game per engine (imports, the Triad bot's percentile tables); its figures are worked out in
``--workers`` processes, this one and forked ones (``broadcast.forked``). Prints per row: the
whole game's time, p50 / p95 / max, wall-clock, and the p95 of CPU seconds (user and system),
of all the processes and of this one (with a core each, the processes share a game's work
about evenly, so this one's is about its wall-clock time on an idle machine); the steps per
game; the share of steps whose figure is exact; the continuations played (sampled or
enumerated) and how many a second of CPU; and the largest margin of any figure.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass

from bench.stats import percentile
from games.engine.bots import bots_play
from games.engine.broadcast import run
from games.engine.broadcast.forked import WORKERS

ROWS: tuple[tuple[str, int], ...] = (
    ("triad", 6),
    ("tauron", 2),
    ("tauron", 4),
    ("tauron", 6),
    ("blocks", 2),
)


@dataclass(frozen=True)
class Timing:
    wall: float
    cpu: float
    own_cpu: float
    """This process's share of ``cpu``: its forked worker does the rest (about as much)."""
    steps: int
    exact: int
    playouts: int
    worst_margin: int


def config_of(game: str, players: int) -> dict[str, object]:
    return {} if game == "blocks" else {"players": players}


def cpu_seconds() -> float:
    """This process's CPU time and its children's that have ended, user and system."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def measure(game: str, players: int, seed: int, margin_goal: int, workers: int) -> Timing:
    config = config_of(game, players)
    texts = bots_play(game, config, seed)
    wall, cpu, own = time.perf_counter(), cpu_seconds(), time.process_time()
    steps, playouts = run(game, dict(config), seed, texts, margin_goal=margin_goal, workers=workers)
    wall, cpu, own = time.perf_counter() - wall, cpu_seconds() - cpu, time.process_time() - own
    figures = [step for step in steps if step is not None]
    return Timing(
        wall=wall,
        cpu=cpu,
        own_cpu=own,
        steps=len(steps),
        exact=sum(step.exact for step in figures),
        playouts=playouts,
        worst_margin=max(seat.margin for step in figures for seat in step.seats),
    )


def warm_up(game: str) -> None:
    config: dict[str, object] = {} if game == "blocks" else {"players": 2, "hands": 1}
    run(game, dict(config), 10**6, bots_play(game, config, 10**6))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted({game for game, _ in ROWS}))
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--margin", type=int, default=3)
    parser.add_argument("--workers", type=int, default=WORKERS, help="processes (default %(default)s)")
    args = parser.parse_args()
    rows = [
        (game, players)
        for game, players in ROWS
        if (args.game is None or game == args.game) and (args.players is None or players == args.players)
    ]
    if args.game and not rows:
        rows = [(args.game, args.players or 2)]
    print(
        f"broadcast odds, margin goal ±{args.margin}, {args.games} games a row from seed {args.seed}, "
        f"{args.workers} processes"
    )
    print(
        "| game | seats | steps | exact | wall p50 / p95 / max (s) | CPU p95 (s): all / this process "
        "| playouts | a second | worst ± |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for game, players in rows:
        warm_up(game)
        timings = [
            measure(game, players, seed, args.margin, args.workers)
            for seed in range(args.seed, args.seed + args.games)
        ]
        walls = [t.wall for t in timings]
        steps = sum(t.steps for t in timings)
        playouts = sum(t.playouts for t in timings)
        exact = 100 * sum(t.exact for t in timings) / steps
        print(
            f"| {game} | {players} | {steps / len(timings):.0f} | {exact:.0f}% "
            f"| {percentile(walls, 0.5):.1f} / {percentile(walls, 0.95):.1f} / {max(walls):.1f} "
            f"| {percentile([t.cpu for t in timings], 0.95):.1f} / "
            f"{percentile([t.own_cpu for t in timings], 0.95):.1f} | {playouts / len(timings):.0f} "
            f"| {playouts / sum(t.cpu for t in timings):.0f} | {max(t.worst_margin for t in timings)} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
