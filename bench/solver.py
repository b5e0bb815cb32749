"""How fast is the exact solver? Time per deal, peak memory, share decided, and hint time.

Run from the project root:

    .venv/bin/python -m bench.solver [--seeds 1000] [--variants pyramid-52-3,tripeaks] [--hints 300]
        [--time-limit SECONDS] [--memory-limit MB]

Each variant solves seeds 0 .. --seeds - 1 in a fresh process, with no limit unless given
one (a deal the search cannot finish within them counts as undecided, and its seed is
printed to stderr; --memory-limit caps the process's address space), and reports the
median, p95, p99 and max wall-clock time per deal, the process's peak resident memory
(getrusage maxrss, which includes the interpreter, about 20 MB), the share decided and the
win rate. Hints: from --hints mid-game states
per game (seed s, then 3 to 40 random actions, mostly removals, drawn from a RNG seeded
with s), the time of one ``hint()``. Prints markdown tables.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import resource
import statistics
import sys
import time
from typing import Any

from bench.stats import percentile
from bench.winnability import ROWS
from games.engine import get_engine
from games.engine.solitaire_common import PLAYING, Resign
from games.engine.solver import hint, solve

VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    name: (game, config) for name, (game, config, _) in ROWS.items()
}
"""The rows of the published win rates (bench.winnability)."""


def run_variant(job: tuple[str, int, float | None, int | None]) -> dict[str, Any]:
    name, seeds, time_limit, memory_mb = job
    game, config = VARIANTS[name]
    if memory_mb is not None:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, hard))
    times: list[float] = []
    wins = decided = 0
    slowest = (0.0, 0)
    for seed in range(seeds):
        start = time.perf_counter()
        try:
            sol = solve(game, config, seed, time_limit=time_limit)
        except MemoryError:
            sol = None
        times.append(time.perf_counter() - start)
        slowest = max(slowest, (times[-1], seed))
        if sol is None or sol.winnable is None:
            print(f"{name}: seed {seed} undecided ({'memory' if sol is None else 'time'})", file=sys.stderr)
            continue
        decided += 1
        wins += sol.winnable
    times.sort()
    return {
        "name": name,
        "seeds": seeds,
        "decided": decided,
        "wins": wins,
        "median": statistics.median(times),
        "p95": percentile(times, 0.95),
        "p99": percentile(times, 0.99),
        "max": times[-1],
        "slowest_seed": slowest[1],
        "mean": statistics.mean(times),
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def mid_game_state(game: str, seed: int) -> Any:
    engine = get_engine(game)
    rnd = random.Random(seed)
    state = engine.initial_state(None, seed)
    for _ in range(rnd.randint(3, 40)):
        actions = [a for a in engine.legal_actions(state) if not isinstance(a, Resign)]
        if not actions:
            break
        plays = [a for a in actions if str(a) not in ("draw", "redeal")]
        state = engine.apply(state, rnd.choice(plays if plays and rnd.random() < 0.7 else actions))
    return state


def run_hints(job: tuple[str, int]) -> dict[str, Any]:
    game, count = job
    times = []
    seed = 0
    while len(times) < count:
        state = mid_game_state(game, seed)
        seed += 1
        if state.status != PLAYING:
            continue
        start = time.perf_counter()
        hint(game, get_engine(game).view(state, 0))  # LP-7: a hint sees the player's view only
        times.append(time.perf_counter() - start)
    times.sort()
    return {
        "game": game,
        "count": count,
        "median": statistics.median(times),
        "p95": percentile(times, 0.95),
        "p99": percentile(times, 0.99),
        "max": times[-1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated names")
    parser.add_argument("--hints", type=int, default=300, help="mid-game states per game (0: skip)")
    parser.add_argument("--time-limit", type=float, help="seconds a deal (default: none)")
    parser.add_argument("--memory-limit", type=int, help="MB of address space a variant (default: none)")
    args = parser.parse_args()
    names = [n for n in args.variants.split(",") if n]
    for name in names:
        if name not in VARIANTS:
            parser.error(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")

    # A fresh process per variant, so that each peak memory is its own.
    context = multiprocessing.get_context("spawn")
    print("| variant | config | deals | decided | winnable | median | p95 | p99 | max | mean | peak RSS |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in names:
        with context.Pool(1, maxtasksperchild=1) as pool:
            r = pool.apply(run_variant, ((name, args.seeds, args.time_limit, args.memory_limit),))
        config = VARIANTS[name][1]
        print(
            f"| {name} | `{config}` | {r['seeds']} | {100 * r['decided'] / r['seeds']:.1f}% | "
            f"{100 * r['wins'] / r['seeds']:.1f}% | {1000 * r['median']:.1f} ms | {1000 * r['p95']:.0f} ms | "
            f"{1000 * r['p99']:.0f} ms | {r['max']:.2f} s (#{r['slowest_seed']}) | "
            f"{1000 * r['mean']:.0f} ms | {r['rss_mb']:.0f} MB |",
            flush=True,
        )
    if args.hints:
        print()
        print("| hints | states | median | p95 | p99 | max |")
        print("| --- | --- | --- | --- | --- | --- |")
        for game in ("pyramid", "tripeaks"):
            with context.Pool(1, maxtasksperchild=1) as pool:
                h = pool.apply(run_hints, ((game, args.hints),))
            print(
                f"| {game} | {h['count']} | {1000 * h['median']:.1f} ms | {1000 * h['p95']:.1f} ms | "
                f"{1000 * h['p99']:.1f} ms | {1000 * h['max']:.0f} ms |",
                flush=True,
            )


if __name__ == "__main__":
    main()
