"""How strong is the Triad bot? It plays whole matches against a uniformly random legal player.

Run from the project root:  .venv/bin/python -m bench.triad_bot_strength [--games 1000]

Heads-up matches with the standard config (12 hands, 100 chips, ante 1, pot limit);
the bot takes seat 0 in even games and seat 1 in odd ones; game g uses seed g. A
match win is taking first place (TR-15). Prints the bot's win rate with a 95% Wilson
interval, and the bot's time per move (median, 99th percentile and max, after its
percentile table is built: that one-off cost is printed on its own), both wall-clock
and CPU time, since on a busy machine the wall-clock max mostly measures waiting for a CPU.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from bench.stats import wilson
from games.engine import TABLE_SEAT, get_engine
from games.engine.bots import bot_seed
from games.engine.triad_bot import choose, percentiles

ENGINE = get_engine("triad")


def match(config: dict[str, Any], seed: int, bot: int, timings: list[tuple[float, float]]) -> bool:
    """One match; True if the bot takes first place."""
    opponent = random.Random(seed)
    state = ENGINE.initial_state(config, seed)
    ply = 0
    while (seat := ENGINE.current_player(state)) is not None:
        if seat == TABLE_SEAT:
            action = "tie-replay"
        elif seat == bot:
            view = ENGINE.view(state, seat)
            wall, cpu = time.perf_counter(), time.process_time()
            action = choose(view, bot_seed(seed, seat, ply))
            timings.append((time.perf_counter() - wall, time.process_time() - cpu))
        else:
            action = str(opponent.choice(ENGINE.legal_actions(state)))
        state = ENGINE.apply(state, action)
        ply += 1
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    return bool(outcome["winner"] == bot)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--cards", type=int, choices=(6, 8), default=6)
    args = parser.parse_args()
    config = {"players": 2, "cards": args.cards}
    start = time.perf_counter()
    percentiles(args.cards)
    print(f"percentile table for {args.cards}-card hands built in {time.perf_counter() - start:.2f} s")
    timings: list[tuple[float, float]] = []
    start = time.perf_counter()
    wins = sum(match(config, game, game % 2, timings) for game in range(args.games))
    low, high = wilson(wins, args.games)
    print(f"config {ENGINE.normalize_config(config)}")
    print(f"bot won {wins} of {args.games} matches: {wins / args.games:.1%} (95% CI {low:.1%} - {high:.1%})")
    print(f"bot moves: {len(timings)}; run took {time.perf_counter() - start:.0f} s")
    for index, clock in enumerate(("wall-clock", "CPU")):
        times = [timing[index] * 1000 for timing in timings]
        p99 = statistics.quantiles(times, n=100)[-1]
        print(
            f"ms per bot move ({clock}): median {statistics.median(times):.2f}, "
            f"99th percentile {p99:.2f}, max {max(times):.2f}"
        )


if __name__ == "__main__":
    main()
