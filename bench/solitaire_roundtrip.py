"""Round trip of a solitaire move over real HTTP: POST the move, receive the new board.

Start the site first (``make run``), then:

    .venv/bin/python bench/solitaire_roundtrip.py --url http://127.0.0.1:8000 --games 20

Each game is a fresh anonymous Pyramid deal played with its first legal non-resign move
until it ends or reaches --moves; every move is one htmx-style POST, timed from sending
to the last byte of the answer. Prints median, p95, p99 and max in milliseconds.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import re
import statistics
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stats import percentile
from games.engine import get_engine


class Browser:
    """Just enough of a browser: cookies, the CSRF token, form posts."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path) as response:
            return response.read().decode()

    def post(self, path: str, data: dict[str, str], htmx: bool = False) -> tuple[str, str]:
        request = urllib.request.Request(
            self.base + path,
            data=urllib.parse.urlencode(data).encode(),
            headers={
                "X-CSRFToken": self.csrf(),
                "Referer": self.base + path,
                **({"HX-Request": "true"} if htmx else {}),
            },
        )
        with self.opener.open(request) as response:
            return response.geturl(), response.read().decode()


def play(browser: Browser, seed: int, max_moves: int) -> list[float]:
    engine = get_engine("pyramid")
    browser.get("/play/pyramid/")
    url, _ = browser.post(
        "/play/pyramid/",
        {"deal": "number", "number": str(seed), "rows": "7", "passes": "2", "scoring": "points"},
    )
    path = urllib.parse.urlparse(url).path
    state = engine.initial_state(None, seed)
    timings = []
    for version in range(max_moves):
        actions = [str(a) for a in engine.legal_actions(state) if str(a) != "resign"]
        if not actions:
            break
        start = time.perf_counter()
        _, body = browser.post(path + "act/", {"action": actions[0], "version": str(version)}, htmx=True)
        timings.append((time.perf_counter() - start) * 1000)
        if f'data-version="{version + 1}"' not in body or "is-error" in body:
            message = re.findall(r"game-message[^>]*>(.*?)</p>", body, re.S)
            raise RuntimeError(f"move {actions[0]!r} was not accepted: {message}")
        state = engine.apply(state, actions[0])
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args()
    timings: list[float] = []
    for seed in range(1, args.games + 1):
        timings += play(Browser(args.url), seed, args.moves)
    timings.sort()
    print(f"{len(timings)} moves over {args.games} games")
    print(
        f"round trip ms: median {statistics.median(timings):.1f}, p95 {percentile(timings, 0.95):.1f}, "
        f"p99 {percentile(timings, 0.99):.1f}, max {timings[-1]:.1f}"
    )


if __name__ == "__main__":
    main()
