"""Engine speed: random playouts per second for each game, hand evaluations per second.

A playout starts from a seeded deal and applies uniformly random legal actions (never
``resign``, which would end solitaire games at once) until the game is over.

    .venv/bin/python bench/engines.py [--seconds 5]

Prints a markdown table for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import engine_names, get_engine
from games.engine.blocks import poker_value
from games.engine.cards import STANDARD_DECK
from games.engine.triad import hand_value
from games.engine.triad_hands import DECK as TRIAD_DECK

RANDOM_MOVE_LIMIT = 20_000  # a guard only: every game ends far sooner


def playout(game: str, seed: int) -> int:
    """Plays one random game to its end; returns the number of actions applied."""
    engine = get_engine(game)
    chooser = random.Random(seed)
    state = engine.initial_state(None, seed)
    for count in range(RANDOM_MOVE_LIMIT):
        if engine.current_player(state) is None:
            return count
        actions = [a for a in engine.legal_actions(state) if str(a) != "resign"]
        state = engine.apply(state, actions[chooser.randrange(len(actions))])
    raise RuntimeError(f"{game} seed {seed} did not end in {RANDOM_MOVE_LIMIT} actions")


def rate(run_one: Callable[[int], int], seconds: float) -> tuple[float, float]:
    """(runs per second, units per second) over about ``seconds`` of repeated runs."""
    runs = units = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        units += run_one(runs)
        runs += 1
    return runs / elapsed, units / elapsed


def evaluations(
    evaluate: Callable[[list[str]], object], deck: tuple[str, ...], size: int, seconds: float
) -> float:
    chooser = random.Random(1)
    hands = [chooser.sample(deck, size) for _ in range(2_000)]

    def run(i: int) -> int:
        evaluate(hands[i % len(hands)])
        return 1

    return rate(run, seconds)[0]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="time spent on each measurement")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.seconds:g} s per row\n")
    print("| measurement | per second | actions per second |")
    print("| --- | ---: | ---: |")
    for game in engine_names():
        playouts, actions = rate(lambda seed, game=game: playout(game, seed), args.seconds)
        print(f"| {game}: random playouts (default config) | {playouts:,.1f} | {actions:,.0f} |")
    triad_rate = evaluations(hand_value, TRIAD_DECK, 6, args.seconds)
    print(f"| triad: `hand_value` of 6 cards | {triad_rate:,.0f} | |")
    poker_rate = evaluations(poker_value, STANDARD_DECK, 5, args.seconds)
    print(f"| blocks: `poker_value` of 5 cards | {poker_rate:,.0f} | |")


if __name__ == "__main__":
    main()
