"""How fast a replay page renders: a long game, imported into a running site, every step.

Start the site (``make run``), then:

    .venv/bin/python bench/replay.py --url http://127.0.0.1:8000 --game blocks --min-actions 300

It plays a whole game of at least --min-actions actions with random legal moves
(for blocks: advanced scoring, a match of several games), imports it through the import
page, then times GET /games/<id>/replay/?step=N as htmx asks for it: the first request
(which rebuilds every state) and then 200 requests for random steps.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.solitaire_roundtrip import Browser
from bench.stats import percentile
from games.engine import TABLE_SEAT, get_engine

CONFIGS = {
    "blocks": {"scoring": "advanced"},
    "triad": {"players": 4, "hands": 12},
    "pyramid": {},
    "tripeaks": {},
}


def long_game(game: str, min_actions: int) -> dict[str, object]:
    engine = get_engine(game)
    config = engine.normalize_config(CONFIGS[game])
    for seed in range(1, 10_000):
        chooser = random.Random(seed)
        state, actions = engine.initial_state(config, seed), []
        while (seat := engine.current_player(state)) is not None:
            legal = [str(a) for a in engine.legal_actions(state) if str(a) != "resign"] or ["resign"]
            text = legal[0] if seat == TABLE_SEAT else chooser.choice(legal)
            actions.append(text)
            state = engine.apply(state, text)
        if len(actions) >= min_actions:
            return {
                "game": game,
                "engine_version": engine.version,
                "config": config,
                "seed": seed,
                "actions": actions,
            }
    raise RuntimeError(f"no {game} game of {min_actions} actions found")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--game", default="blocks", choices=sorted(CONFIGS))
    parser.add_argument("--min-actions", type=int, default=300)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    data = long_game(args.game, args.min_actions)
    browser = Browser(args.url)
    browser.get("/games/import/")
    url, _ = browser.post("/games/import/", {"text": json.dumps(data)})
    path = urllib.parse.urlparse(url).path
    steps = len(data["actions"])

    def fetch(step: int) -> float:
        start = time.perf_counter()
        request = urllib.request.Request(f"{args.url}{path}?step={step}", headers={"HX-Request": "true"})
        with browser.opener.open(request) as response:
            response.read()
        return (time.perf_counter() - start) * 1000

    first = fetch(steps)
    chooser = random.Random(0)
    timings = sorted(fetch(chooser.randrange(steps + 1)) for _ in range(args.requests))
    print(f"{args.game}: {steps} actions; first request (rebuilds every state) {first:.1f} ms")
    print(
        f"{args.requests} random steps: median {statistics.median(timings):.1f} ms, "
        f"p95 {percentile(timings, 0.95):.1f} ms, max {timings[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()
