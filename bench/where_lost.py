"""How long does "where it was lost" take for one lost game (issue 46)? The time of
``analysis.curve`` (the player's chance at every step) and ``analysis.turning_point`` (the
move that lost the deal, every card known), to size the task that computes them.

Run from the project root:

    .venv/bin/python -m bench.where_lost                  # 20 lost games per game, defaults
    .venv/bin/python -m bench.where_lost --games 5        # a quick look

Games come from play as bench/odds_meter.py plays: seeded deals (seeds from --seed on) of
Pyramid and Tri-Peaks, standard rules, each move the hint's (LP-7) three times in four and
a random legal move otherwise (a player's slip), never resign; the first --games of each
that end lost are kept (won games are skipped). Each is then analysed in this process, one
after another, with the modules' default budgets (after one untimed call of each, so that
imports and first calls are not counted): p50, p95 and max of the wall-clock seconds, the
p95 of the CPU seconds, the moves per game, and what the turning point found.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench.odds_meter import GAMES, HINT_SHARE, commit
from bench.stats import percentile
from games.engine import get_engine
from games.engine.solitaire_common import LOST, PLAYING
from games.engine.solver import analysis, hint, odds


@dataclass(frozen=True)
class Game:
    game: str
    seed: int
    texts: list[str]


def lost_games(game: str, count: int, seed: int) -> list[Game]:
    """The first ``count`` games of seeds ``seed``, ``seed + 1``, ... that end lost."""
    engine = get_engine(game)
    games: list[Game] = []
    deal = seed
    while len(games) < count:
        rnd = random.Random(f"where-lost:{game}:{deal}")
        state = engine.initial_state(None, deal)
        texts: list[str] = []
        while state.status == PLAYING:
            view = engine.view(state, 0)
            moves = [text for text in view.legal if text != "resign"]
            # A running game always has a move besides resigning (LOST is declared first).
            move = (hint(game, view) if rnd.random() < HINT_SHARE else None) or rnd.choice(moves)
            texts.append(move)
            state = engine.apply(state, move)
        if state.status == LOST:
            games.append(Game(game, deal, texts))
        deal += 1
    return games


def timed(call: Callable[..., Any], played: Game) -> tuple[Any, float, float]:
    """``call``'s result on ``played``, its wall-clock and CPU seconds."""
    started, cpu = time.perf_counter(), time.process_time()
    result = call(played.game, None, played.seed, played.texts)
    return result, time.perf_counter() - started, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="lost games per game")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")

    games = [played for game in GAMES for played in lost_games(game, args.games, args.seed)]
    for game in GAMES:  # untimed warm-up
        first = next(played for played in games if played.game == game)
        analysis.curve(game, None, first.seed, first.texts[:2])
        analysis.turning_point(game, None, first.seed, first.texts[:2])
    load_before = os.getloadavg()[0]
    rows: list[dict[str, Any]] = []
    for played in games:
        _, curve_s, curve_cpu = timed(analysis.curve, played)
        found, point_s, point_cpu = timed(analysis.turning_point, played)
        rows.append(
            {
                "game": played.game,
                "moves": len(played.texts),
                "curve": curve_s,
                "curve_cpu": curve_cpu,
                "point": point_s,
                "point_cpu": point_cpu,
                "found": found,
            }
        )
    load_after = os.getloadavg()[0]

    print(
        f"commit {commit()}; {args.games} lost games per game from seed {args.seed}; curve: "
        f"{odds.ODDS_SAMPLES} samples, node limit {odds.ODDS_SOLVE_NODES:,}; turning point: "
        f"node limit {analysis.TURNING_POINT_NODES:,}; load average {load_before:.2f} before timing, "
        f"{load_after:.2f} after"
    )
    for game in (*GAMES, "both"):
        mine = [row for row in rows if game in ("both", row["game"])]
        moves = [row["moves"] for row in mine]
        average = statistics.mean(moves)
        print(f"\n{game}: {len(mine)} lost games, {average:.0f} moves on average (max {max(moves)})")
        for what in ("curve", "point"):
            seconds = [row[what] for row in mine]
            name = "curve" if what == "curve" else "turning point"
            print(
                f"  {name:13}  p50 {percentile(seconds, 0.5):7.3f} s"
                f"  p95 {percentile(seconds, 0.95):7.3f} s  max {max(seconds):7.3f} s"
                f"  p95 CPU {percentile([row[what + '_cpu'] for row in mine], 0.95):7.3f} s"
            )
        found = [row["found"] for row in mine]
        outcomes = Counter(f.outcome.value for f in found)
        solves = [f.solves for f in found]
        print(
            "  turning point: "
            + ", ".join(f"{name} {n}" for name, n in sorted(outcomes.items()))
            + f"; solves per game mean {statistics.mean(solves):.1f}, max {max(solves)}"
        )


if __name__ == "__main__":
    main()
