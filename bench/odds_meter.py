"""How quick and how right is the chance-to-win meter (issue 46, LP-11)? Time per figure, and
each figure against a reference of many more samples.

Run from the project root:

    .venv/bin/python -m bench.odds_meter                      # 300 positions, 5,000-sample references
    .venv/bin/python -m bench.odds_meter --positions 40 --reference-samples 500   # a quick look
    .venv/bin/python -m bench.odds_meter --samples 80 --node-limit 10000 --markdown

Positions come from real play: seeded deals (seeds from --seed on) of Pyramid and Tri-Peaks,
standard rules, half the positions each, played by the hint (LP-7) three moves in four and
by a random legal move otherwise (a player's slip); each running position met is taken with
probability 1/10. Finished positions are not taken (their figure solves nothing).

Time: one ``odds.chance`` per position from the player's view, in this process, one after
another (after one untimed figure, so that imports and first calls are not counted):
p50, p95 and max of the wall-clock time, and the p95 of the CPU time (process time: what a
figure costs, whatever else the machine runs meanwhile).

Accuracy: each position's reference is ``chance`` with --reference-samples samples drawn
from another stream (so independent of the meter's), with --reference-node-limit (default:
the meter's). A figure is *within* when its shown percent is at most its shown margin from
the reference's share of settled samples won; an exact figure has margin 0 and its
reference is exact too (fewer orders than samples), so it must show the same percent. A
figure with no settled sample counts as not within. The share within is given over all
figures and over the sampled ones alone (the exact ones cannot miss). The references run
in --jobs processes (default 1: the machine is shared).

Also reported: the share of exact figures, the share of samples left unknown, the mean
margin shown, and the load average before and after (other work on the machine slows
every figure). --markdown prints the table for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import subprocess
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bench.stats import percentile
from games.engine import get_engine
from games.engine.solitaire_common import PLAYING
from games.engine.solver import hint, odds

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("pyramid", "tripeaks")
TAKE = 0.1
"""The chance that a running position met in play is taken."""
HINT_SHARE = 0.75
"""The share of moves the hint chooses; the others are random legal moves."""


@dataclass(frozen=True)
class Measured:
    game: str
    figure: odds.Odds
    ms: float
    cpu_ms: float
    reference: odds.Odds | None = None

    @property
    def within(self) -> bool:
        ref, percent, margin = self.reference, self.figure.percent, self.figure.margin
        if ref is None or percent is None or margin is None or not ref.settled:
            return False
        if self.figure.exact:
            return ref.percent == percent  # an exact reference, shown the same
        return abs(percent - 100 * ref.wins / ref.settled) <= margin


def positions(game: str, count: int, seed: int) -> list[Any]:
    """``count`` player's views met in seeded play (see the module doc)."""
    engine = get_engine(game)
    rnd = random.Random(f"odds-meter:{game}:{seed}")
    views: list[Any] = []
    deal = seed
    while len(views) < count:
        state = engine.initial_state(None, deal)
        deal += 1
        while state.status == PLAYING and len(views) < count:
            view = engine.view(state, 0)
            if rnd.random() < TAKE:
                views.append(view)
            if rnd.random() < HINT_SHARE:
                move = hint(game, view)
            else:
                move = rnd.choice([text for text in view.legal if text != "resign"])
            state = engine.apply(state, move)
    return views


def reference(job: tuple[str, Any, int, int]) -> odds.Odds:
    game, view, samples, node_limit = job
    return odds.chance(game, view, samples=samples, node_limit=node_limit, stream="reference")


def summary(rows: list[Measured], accuracy: bool) -> dict[str, Any]:
    times = [row.ms for row in rows]
    figures = [row.figure for row in rows]
    margins = [f.margin for f in figures if f.margin is not None]
    return {
        "positions": len(rows),
        "p50": percentile(times, 0.5),
        "p95": percentile(times, 0.95),
        "max": max(times),
        "cpu_p95": percentile([row.cpu_ms for row in rows], 0.95),
        "exact": 100 * sum(f.exact for f in figures) / len(rows),
        "unknown": 100 * sum(f.unknown for f in figures) / sum(f.samples for f in figures),
        "margin": statistics.mean(margins) if margins else float("nan"),
        "within": sum(row.within for row in rows) if accuracy else None,
        "sampled": sum(not row.figure.exact for row in rows),
        "sampled_within": sum(row.within for row in rows if not row.figure.exact),
    }


def commit() -> str:
    return subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300, help="positions in all, half per game")
    parser.add_argument("--reference-samples", type=int, default=5000, help="0: time only")
    parser.add_argument("--reference-node-limit", type=int, help="default: --node-limit")
    parser.add_argument("--samples", type=int, default=odds.ODDS_SAMPLES)
    parser.add_argument("--node-limit", type=int, default=odds.ODDS_SOLVE_NODES)
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the references")
    parser.add_argument("--markdown", action="store_true", help="print a table for docs/benchmarks.md")
    args = parser.parse_args()
    if args.positions < len(GAMES) or args.samples < 1 or args.node_limit < 1 or args.jobs < 1:
        parser.error("--positions must be at least 2; --samples, --node-limit and --jobs at least 1")
    reference_nodes = args.reference_node_limit or args.node_limit

    views = [
        (game, view) for game in GAMES for view in positions(game, args.positions // len(GAMES), args.seed)
    ]
    load_before = os.getloadavg()[0]
    odds.chance(*views[0], samples=args.samples, node_limit=args.node_limit)
    rows: list[Measured] = []
    for game, view in views:
        started, cpu = time.perf_counter(), time.process_time()
        figure = odds.chance(game, view, samples=args.samples, node_limit=args.node_limit)
        cpu_ms = (time.process_time() - cpu) * 1000
        rows.append(Measured(game, figure, (time.perf_counter() - started) * 1000, cpu_ms))
    load_after = os.getloadavg()[0]

    accuracy = args.reference_samples > 0
    if accuracy:
        jobs = [(game, view, args.reference_samples, reference_nodes) for game, view in views]
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            references = pool.map(reference, jobs, chunksize=1)
        rows = [replace(row, reference=ref) for row, ref in zip(rows, references, strict=True)]

    table = [(game, summary([row for row in rows if row.game == game], accuracy)) for game in GAMES]
    table.append(("both", summary(rows, accuracy)))
    settings = (
        f"commit {commit()}; {args.samples} samples, node limit {args.node_limit:,}; reference "
        + (f"{args.reference_samples:,} samples, node limit {reference_nodes:,}" if accuracy else "none")
        + f"; seeds from {args.seed}; load average {load_before:.2f} before timing, {load_after:.2f} after"
    )

    columns = ["game", "positions", "p50 ms", "p95 ms", "max ms", "p95 CPU ms"]
    columns += ["exact", "unknown samples", "mean margin", "within margin", "sampled within"]
    lines = [[game, *cells(s)] for game, s in table]
    if args.markdown:
        print(f"\n{settings}\n")
        print("| " + " | ".join(columns) + " |")
        print("|---|" + "---:|" * (len(columns) - 1))
        for line in lines:
            print("| " + " | ".join(line) + " |")
        return
    print(settings)
    widths = [max(len(column), *(len(line[i]) for line in lines)) for i, column in enumerate(columns)]
    for line in [columns, *lines]:
        print(
            "  ".join(
                cell.rjust(width) if i else cell.ljust(width)
                for i, (cell, width) in enumerate(zip(line, widths, strict=True))
            )
        )


def cells(s: dict[str, Any]) -> list[str]:
    within = sampled = "-"
    if s["within"] is not None:
        within = f"{s['within']}/{s['positions']} ({100 * s['within'] / s['positions']:.1f}%)"
        if s["sampled"]:
            sampled = (
                f"{s['sampled_within']}/{s['sampled']} ({100 * s['sampled_within'] / s['sampled']:.1f}%)"
            )
    return [
        str(s["positions"]),
        f"{s['p50']:.1f}",
        f"{s['p95']:.1f}",
        f"{s['max']:.1f}",
        f"{s['cpu_p95']:.1f}",
        f"{s['exact']:.1f}%",
        f"{s['unknown']:.2f}%",
        f"±{s['margin']:.1f}",
        within,
        sampled,
    ]


if __name__ == "__main__":
    main()
