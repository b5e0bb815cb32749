"""The solver from the command line.

    python -m games.engine.solver pyramid --seed 42
    python -m games.engine.solver pyramid --deck "Ah 2c ..." --config '{"rows": 6}'
    python -m games.engine.solver tripeaks --stats 1000

One deal: prints the verdict, the positions examined, the time and the winning line.
``--stats N``: solves seeds ``--seed`` .. ``--seed + N - 1`` and prints the win rate with
a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

from games.engine.solver import GAMES, solve


def wilson(wins: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if total == 0:
        return 0.0, 1.0
    rate = wins / total
    centre = (rate + z * z / (2 * total)) / (1 + z * z / total)
    spread = z * math.sqrt(rate * (1 - rate) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine.solver", description=__doc__.splitlines()[0]
    )
    parser.add_argument("game", choices=GAMES)
    parser.add_argument("--seed", type=int, default=0, help="the deal's seed (the first seed with --stats)")
    parser.add_argument("--deck", help="the deck, top card first, as card texts separated by spaces")
    parser.add_argument("--config", help='the variant as JSON, e.g. \'{"rows": 6, "redeals": null}\'')
    parser.add_argument("--time-limit", type=float, help="seconds per deal; past it the verdict is 'unknown'")
    parser.add_argument("--stats", type=int, metavar="N", help="solve N seeds and print the win rate")
    args = parser.parse_args(argv)
    try:
        config = json.loads(args.config) if args.config else None
    except json.JSONDecodeError as exc:
        parser.error(f"--config is not JSON: {exc}")
    deck = args.deck.replace(",", " ").split() if args.deck else None
    if args.stats is not None and deck is not None:
        parser.error("--stats solves seeds: it cannot take --deck")

    try:
        if args.stats is not None:
            return _stats(args.game, config, args.seed, args.stats, args.time_limit)
        start = time.perf_counter()
        sol = solve(args.game, config, args.seed, deck, time_limit=args.time_limit)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - start
    what = "the given deck" if deck else f"seed {args.seed}"
    verdict = {True: "winnable", False: "not winnable", None: "unknown (time limit reached)"}[sol.winnable]
    print(f"{args.game} {what}: {verdict} ({sol.nodes} positions, {seconds:.3f} s)")
    if sol.winnable:
        print(f"winning line ({len(sol.actions)} actions):")
        print(" ".join(sol.actions))
    return 0


def _stats(game: str, config: dict[str, Any] | None, first: int, count: int, time_limit: float | None) -> int:
    wins = decided = 0
    start = time.perf_counter()
    for seed in range(first, first + count):
        sol = solve(game, config, seed, time_limit=time_limit)
        decided += sol.winnable is not None
        wins += sol.winnable is True
    seconds = time.perf_counter() - start
    low, high = wilson(wins, decided)
    print(
        f"{game} seeds {first}..{first + count - 1}: {wins} of {decided} decided deals winnable "
        f"({100 * wins / max(decided, 1):.2f}%, 95% CI {100 * low:.2f}-{100 * high:.2f}%), "
        f"{count - decided} undecided, {seconds:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
