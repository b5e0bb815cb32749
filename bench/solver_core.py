"""The compiled solver searches against the Python ones, on the same deals.

    .venv/bin/python -m bench.solver_core [--seeds 100]

For each variant, solves seeds 0 .. --seeds - 1 with both searches (each deal with at most
200,000 positions, so that the Python side finishes), checks that they agree on verdict,
line and positions, and prints the time each took and positions a second. CPU time of
this process, so another process on the machine changes it less than wall-clock time.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from games.engine import get_engine
from games.engine.solver.pyramid_search import PyramidSearch, SearchAborted
from games.engine.solver.tripeaks_search import TriPeaksSearch

NODE_LIMIT = 200_000

VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "pyramid-52-3": ("pyramid", {}),
    "pyramid-52-1": ("pyramid", {"redeals": 0}),
    "pyramid-board-u-overlap": ("pyramid", {"clear_the_board": True, "redeals": None, "overlap_pairs": True}),
    "pyramid-6rows-reserve": ("pyramid", {"rows": 6, "reserve": True}),
    "pyramid-52-3-reshuffle": ("pyramid", {"reshuffle": True}),
    "tripeaks": ("tripeaks", {}),
}


def run(game: str, state: Any, compiled: bool) -> tuple[tuple[Any, ...], float]:
    search = (
        PyramidSearch(state, NODE_LIMIT, compiled=compiled)
        if game == "pyramid"
        else TriPeaksSearch(state, NODE_LIMIT, compiled=compiled)
    )
    start = time.process_time()
    try:
        won: bool | None = search.run()
    except SearchAborted:
        won = None
    return (won, search.nodes, tuple(search.line)), time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100)
    args = parser.parse_args()
    print(
        "| variant | deals | positions | Python | compiled | Python positions/s "
        "| compiled positions/s | speed-up |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, (game, config) in VARIANTS.items():
        engine = get_engine(game)
        nodes = 0
        seconds = {False: 0.0, True: 0.0}
        for seed in range(args.seeds):
            state = engine.initial_state(config, seed)
            results = {}
            for compiled in (False, True):
                results[compiled], spent = run(game, state, compiled)
                seconds[compiled] += spent
            if results[False] != results[True]:
                raise SystemExit(f"{name} seed {seed}: the searches disagree")
            nodes += results[True][1]
        print(
            f"| {name} | {args.seeds} | {nodes:,} | {seconds[False]:.2f} s | {seconds[True]:.3f} s | "
            f"{nodes / seconds[False]:,.0f} | {nodes / seconds[True]:,.0f} | "
            f"{seconds[False] / seconds[True]:.0f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()
