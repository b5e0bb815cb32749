"""How fast the rating pages answer once the site has a million rated games.

Fill a database of its own first, then time it, with the same settings and DATABASE_URL:

    DATABASE_URL=postgres://capstone:capstone@127.0.0.1/capstone_scale \\
        DJANGO_SETTINGS_MODULE=config.settings.test .venv/bin/python manage.py migrate
    ... .venv/bin/python manage.py generate_rated_games --players 100000 --games 1000000
    ... .venv/bin/python bench/ratings_scale.py --requests 200

It finds the busiest player (the most ``RatingChange`` rows), then GETs each page
``--requests`` times in this process with Django's test ``Client`` (the whole request through
the middleware, the views and the templates; no HTTP server, no network): the leaderboards
page, that player's profile, ``/api/users/<name>``, ``/api/users/<name>/games`` and
``/api/leaderboards/triad``. It prints each page's status, SQL queries per request, and the
p50, p95 and max of the time from the request to the whole response
(the first GET, which warms up, is not timed; ``--max-seconds`` ends a slow page's run early,
and the GETs column says how many were timed). The cache is the settings' Redis
(``REDIS_URL``): the profile keeps each rating history there until the person's next rated
game; ``--cold`` empties it before every GET, so give it a Redis database of its own. The
API's per-address rate limit is off (``RATELIMIT_ENABLE=False``): 200 GETs a page would pass it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django

django.setup()

from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Count  # noqa: E402
from django.test import Client, override_settings  # noqa: E402

from accounts.models import RatingChange, User  # noqa: E402
from bench.stats import percentile  # noqa: E402
from games.models import GameRecord  # noqa: E402


def busiest() -> tuple[str, int]:
    top = RatingChange.objects.values("user").annotate(n=Count("pk")).order_by("-n", "user").first()
    if top is None:
        sys.exit("no rated games: fill the database with manage.py generate_rated_games first")
    return User.objects.get(pk=top["user"]).username, int(top["n"])


PAGES = ("leaderboards", "profile", "api user", "api user games", "api leaderboard triad")


def counted(log: list[str], execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    log.append(sql)
    return execute(sql, params, many, context)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=200, help="GETs of each page")
    parser.add_argument(
        "--max-seconds", type=float, default=0.0, help="stop a page's GETs after this long (0: never)"
    )
    parser.add_argument("--page", action="append", choices=PAGES, help="time only this page (repeatable)")
    parser.add_argument(
        "--cold", action="store_true", help="empty the cache before every GET (it must be a Redis of its own)"
    )
    args = parser.parse_args()
    name, rated = busiest()
    print(
        f"database {connection.settings_dict['NAME']}: {User.objects.count()} users, "
        f"{GameRecord.objects.count()} games, {RatingChange.objects.count()} rating changes; "
        f"busiest player {name} with {rated} rated games"
    )
    pages = {
        "leaderboards": "/leaderboards/",
        "profile": f"/u/{name}/",
        "api user": f"/api/users/{name}",
        "api user games": f"/api/users/{name}/games",
        "api leaderboard triad": "/api/leaderboards/triad",
    }
    client = Client()
    print(f"{'page':<22} {'status':>6} {'queries':>7} {'GETs':>5} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for label, url in pages.items():
        if args.page and label not in args.page:
            continue
        queries: list[str] = []
        if args.cold:
            cache.clear()
        with connection.execute_wrapper(partial(counted, queries)):
            first = client.get(url)  # also warms the connection and the templates
        times: list[float] = []
        began = time.perf_counter()
        for _ in range(args.requests):
            if args.max_seconds and time.perf_counter() - began > args.max_seconds:
                break
            if args.cold:
                cache.clear()
            started = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - started) * 1000)
            if response.status_code != first.status_code:
                sys.exit(f"{url}: {response.status_code} after {first.status_code}")
        print(
            f"{label:<22} {first.status_code:>6} {len(queries):>7} {len(times):>5} "
            f"{percentile(times, 0.5):>8.1f} {percentile(times, 0.95):>8.1f} {max(times):>8.1f}"
        )


if __name__ == "__main__":
    with override_settings(RATELIMIT_ENABLE=False):
        main()
