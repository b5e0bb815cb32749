"""How strong is the Pyramid Poker bot? It plays whole games against a uniformly random legal player.

Run from the project root:  .venv/bin/python -m bench.blocks_bot_strength [--games 1000] [--scoring basic]

Basic scoring by default (one game, decided by tie replays if it ends equal); with
``--scoring advanced`` each game is a whole match to ``--target`` points. The bot takes
seat 0 in even games and seat 1 in odd ones; game g uses seed g. Prints the bot's win
rate with a 95% Wilson interval, the bot's time per move (median, 99th percentile, max),
and how many five-card hands ``poker_value`` ranks per second.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from bench.stats import wilson
from games.engine import TABLE_SEAT, get_engine
from games.engine.blocks import poker_value
from games.engine.blocks_bot import choose
from games.engine.bots import bot_seed
from games.engine.cards import STANDARD_DECK

ENGINE = get_engine("blocks")


def game(config: dict[str, Any], seed: int, bot: int, timings: list[float]) -> bool:
    """One game (a match with advanced scoring); True if the bot wins it."""
    opponent = random.Random(seed)
    state = ENGINE.initial_state(config, seed)
    ply = 0
    while (seat := ENGINE.current_player(state)) is not None:
        if seat == TABLE_SEAT:
            action = "tie-replay"
        elif seat == bot:
            view = ENGINE.view(state, seat)
            start = time.perf_counter()
            action = choose(view, bot_seed(seed, seat, ply))
            timings.append(time.perf_counter() - start)
        else:
            action = str(opponent.choice(ENGINE.legal_actions(state)))
        state = ENGINE.apply(state, action)
        ply += 1
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    return bool(outcome["winner"] == bot)


def evaluations_per_second(count: int = 200_000) -> float:
    rng = random.Random(0)
    hands = [rng.sample(STANDARD_DECK, 5) for _ in range(count)]
    start = time.perf_counter()
    for hand in hands:
        poker_value(hand)
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--scoring", choices=("basic", "advanced"), default="basic")
    parser.add_argument("--target", type=int, choices=(7, 11), default=7)
    args = parser.parse_args()
    config = ENGINE.normalize_config({"scoring": args.scoring, "target": args.target})
    timings: list[float] = []
    start = time.perf_counter()
    wins = sum(game(config, seed, seed % 2, timings) for seed in range(args.games))
    low, high = wilson(wins, args.games)
    print(f"config {config}")
    print(f"bot won {wins} of {args.games} games: {wins / args.games:.1%} (95% CI {low:.1%} - {high:.1%})")
    print(
        f"bot moves: {len(timings)}; median {statistics.median(timings) * 1000:.2f} ms, "
        f"99th percentile {statistics.quantiles(timings, n=100)[-1] * 1000:.2f} ms, "
        f"max {max(timings) * 1000:.2f} ms; run took {time.perf_counter() - start:.0f} s"
    )
    print(f"poker_value: {evaluations_per_second():,.0f} five-card hands a second")


if __name__ == "__main__":
    main()
