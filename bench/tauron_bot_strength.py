"""How strong is the Tauron Hold-Em bot? It plays whole matches against a uniformly random legal player.

Run from the project root:  .venv/bin/python -m bench.tauron_bot_strength [--games 1000]

Heads-up matches with the standard config (12 hands, 100 chips, ante 1, pot limit, at
most 3 raises a round); the bot takes seat 0 in even games and seat 1 in odd ones; game
g uses seed g. A match win is taking first place (TR-15). Prints the bot's win rate with
a 95% Wilson interval, and the bot's time per move (median, 99th percentile and max),
both wall-clock and CPU time, since on a busy machine the wall-clock max mostly measures
waiting for a CPU.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from typing import Any

from bench.stats import percentile, wilson
from games.engine.bots import bot_seed
from games.engine.tauron import ENGINE, TauronView
from games.engine.tauron_bot import choose

Timing = tuple[float, float]


def match(config: dict[str, Any], seed: int, bot: int, timings: list[Timing]) -> bool:
    """One match; True if the bot takes first place."""
    opponent = random.Random(seed)
    state = ENGINE.initial_state(config, seed)
    for ply in itertools.count():
        seat = ENGINE.current_player(state)
        if seat is None:
            break
        if seat == bot:
            text = timed_choice(ENGINE.view(state, seat), bot_seed(seed, seat, ply), timings)
        else:
            # The table's tie-replay is the only legal action when it is the table's turn.
            text = str(opponent.choice(ENGINE.legal_actions(state)))
        state = ENGINE.apply(state, text)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    return bool(outcome["winner"] == bot)


def timed_choice(view: TauronView, seed: int, timings: list[Timing]) -> str:
    wall, cpu = time.perf_counter(), time.process_time()
    text = choose(view, seed)
    timings.append((time.perf_counter() - wall, time.process_time() - cpu))
    return text


def report(timings: list[Timing]) -> None:
    """Milliseconds per bot move, on each clock."""
    for clock, values in (("wall-clock", [t[0] for t in timings]), ("CPU", [t[1] for t in timings])):
        ms = sorted(value * 1000 for value in values)
        print(
            f"ms per bot move ({clock}): median {statistics.median(ms):.2f}, "
            f"99th percentile {percentile(ms, 0.99):.2f}, max {ms[-1]:.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2, help="seats; all but the bot play at random")
    args = parser.parse_args()
    config = {"players": args.players}
    timings: list[Timing] = []
    start = time.perf_counter()
    wins = sum(match(config, game, game % args.players, timings) for game in range(args.games))
    low, high = wilson(wins, args.games)
    print(f"config {ENGINE.normalize_config(config)}")
    print(f"bot won {wins} of {args.games} matches: {wins / args.games:.1%} (95% CI {low:.1%} - {high:.1%})")
    print(f"bot moves: {len(timings)}; run took {time.perf_counter() - start:.0f} s")
    report(timings)


if __name__ == "__main__":
    main()
