"""How fast the rating pages answer once the site has a million rated games.

``make bench-scale`` (scripts/bench_scale) fills a database of its own once and times the
pages warm and cold, with the production settings. By hand, with a DATABASE_URL naming a
database for this alone (created if missing):

    .venv/bin/python bench/ratings_scale.py --fill --requests 200 [--cold] [--markdown]

``--fill`` migrates the database and, if it has no user yet, fills it as docs/benchmarks.md
says (``generate_rated_games --players 100000 --games 1000000 --seed 1``, then
``generate_daily_attempts --days 365 --players-per-day 1000 --seed 1``: about ten minutes),
then ``VACUUM ANALYZE``; a filled database is reused as it is.

It finds the busiest player (the most ``RatingChange`` rows), then GETs each page
``--requests`` times in this process with Django's test ``Client`` over HTTPS (the whole
request through the middleware, the views and the templates; no HTTP server, no network), on
one database connection: the settings' own (``DJANGO_SETTINGS_MODULE``, ``config.settings.test``
unless given), so its statements are prepared and planned as the site's are. The pages: the
leaderboards page, that player's profile and its ratings (asked for as the profile's htmx
asks), ``/api/users/<name>``, ``/api/users/<name>/games``,
``/api/leaderboards/triad``, and the deep pages: Triad's rating board's last page and the
busiest player's last page of games in the API, both by page number. It prints each page's
status, SQL queries per request, and the p50, p95 and max of the time from the request to the
whole response (the first GET, which warms up and whose queries are counted, is not timed;
``--max-seconds`` ends a slow page's run early, and the GETs column says how many were
timed). The cache is the settings'
Redis (``REDIS_URL``): the profile keeps each rating history there until the person's next
rated game; ``--cold`` empties it before every GET, so give it a Redis database of its own.
The API's per-address rate limit is off (``RATELIMIT_ENABLE=False``): 200 GETs a page would
pass it. ``--markdown`` prints the table for docs/benchmarks.md, with the commit and settings.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

FILL = (
    ("generate_rated_games", "--players", "100000", "--games", "1000000", "--seed", "1", "--yes"),
    ("generate_daily_attempts", "--days", "365", "--players-per-day", "1000", "--seed", "1"),
)
PAGE_SIZE = 50
"""The rating board's and the API's pages."""
PAGES = (
    "leaderboards",
    "profile",
    "profile ratings",
    "api user",
    "api user games",
    "api leaderboard triad",
    "board last page",
    "api games last page",
)


def create_database() -> None:
    """The DATABASE_URL's database, made if it is missing (from the server's ``postgres``)."""
    import psycopg

    url = urlsplit(os.environ["DATABASE_URL"])
    name = url.path.lstrip("/")
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        if connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
            connection.execute(f'CREATE DATABASE "{name}"')
            print(f"created database {name}")


def fill() -> None:
    from django.core.management import call_command
    from django.db import connection

    from accounts.models import User

    call_command("migrate", "--noinput", verbosity=0)
    if User.objects.exists():
        print("the database is filled already: reused as it is")
        return
    for command in FILL:
        started = time.perf_counter()
        call_command(*command)
        print(f"{' '.join(command)}: {time.perf_counter() - started:.1f} s")
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def busiest() -> tuple[str, int]:
    from django.db.models import Count

    from accounts.models import RatingChange, User

    top = RatingChange.objects.values("user").annotate(n=Count("pk")).order_by("-n", "user").first()
    if top is None:
        sys.exit("no rated games: fill the database first (--fill, or manage.py generate_rated_games)")
    return User.objects.get(pk=top["user"]).username, int(top["n"])


def counted(log: list[str], execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    log.append(sql)
    return execute(sql, params, many, context)


def settings_line() -> str:
    """What the figures depend on: the commit, the settings, the database's plan settings."""
    from django.conf import settings
    from django.db import connection

    commit = subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    options = settings.DATABASES["default"].get("OPTIONS", {})
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('server_version'), current_setting('shared_buffers')")
        version, buffers = cursor.fetchone()
        cursor.execute("SELECT current_setting('plan_cache_mode')")
        (plan_cache_mode,) = cursor.fetchone()
    return (
        f"commit {commit}; {os.environ['DJANGO_SETTINGS_MODULE']}; "
        f"prepare_threshold={options.get('prepare_threshold')}, "
        f"server_side_binding={options.get('server_side_binding')}, plan_cache_mode={plan_cache_mode}; "
        f"PostgreSQL {version.split()[0]}, shared_buffers {buffers}; {os.cpu_count()} cores"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--fill", action="store_true", help="create, migrate and fill the database if empty")
    parser.add_argument("--requests", type=int, default=200, help="GETs of each page")
    parser.add_argument(
        "--max-seconds", type=float, default=0.0, help="stop a page's GETs after this long (0: never)"
    )
    parser.add_argument("--page", action="append", choices=PAGES, help="time only this page (repeatable)")
    parser.add_argument(
        "--cold", action="store_true", help="empty the cache before every GET (it must be a Redis of its own)"
    )
    parser.add_argument("--markdown", action="store_true", help="print a table for docs/benchmarks.md")
    args = parser.parse_args()
    if args.fill:
        create_database()

    import django

    django.setup()
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client, override_settings

    from accounts.models import PROVISIONAL_GAMES, Rating, RatingChange, User
    from bench.stats import percentile
    from games.models import GameRecord, Participation

    if args.fill:
        fill()
    with override_settings(RATELIMIT_ENABLE=False):
        name, rated = busiest()
        # Read from the models alone, so that the bench times an older commit's pages too.
        board_pages = -(
            -Rating.objects.filter(game="triad", games__gte=PROVISIONAL_GAMES).count() // PAGE_SIZE
        )
        games_pages = -(-Participation.objects.filter(user__username=name).count() // PAGE_SIZE)
        print(
            f"database {connection.settings_dict['NAME']}: {User.objects.count()} users, "
            f"{GameRecord.objects.count()} games, {RatingChange.objects.count()} rating changes; "
            f"busiest player {name} with {rated} rated games"
        )
        pages = {
            "leaderboards": "/leaderboards/",
            "profile": f"/u/{name}/",
            "profile ratings": f"/u/{name}/ratings/",
            "api user": f"/api/users/{name}",
            "api user games": f"/api/users/{name}/games",
            "api leaderboard triad": "/api/leaderboards/triad",
            "board last page": f"/leaderboards/triad/?page={board_pages}",
            "api games last page": f"/api/users/{name}/games?page={games_pages}",
        }
        # Over HTTPS, as the proxy of docs/operations.md tells the site (the production
        # settings redirect plain HTTP).
        client = Client(secure=True, HTTP_X_FORWARDED_PROTO="https")
        # The profile's ratings come in a request of their own once the profile is drawn, as
        # its htmx asks for them.
        asked_by_htmx = {"profile ratings"}
        load = os.getloadavg()[0]
        rows = []
        for label, url in pages.items():
            if args.page and label not in args.page:
                continue
            get = partial(client.get, headers={"HX-Request": "true"} if label in asked_by_htmx else {})
            queries: list[str] = []
            if args.cold:
                cache.clear()
            else:
                get(url)  # fills the cache: the count below is a warm GET's
            with connection.execute_wrapper(partial(counted, queries)):
                first = get(url)  # also warms the connection and the templates
            times: list[float] = []
            began = time.perf_counter()
            for _ in range(args.requests):
                if args.max_seconds and time.perf_counter() - began > args.max_seconds:
                    break
                if args.cold:
                    cache.clear()
                started = time.perf_counter()
                response = get(url)
                times.append((time.perf_counter() - started) * 1000)
                if response.status_code != first.status_code:
                    sys.exit(f"{url}: {response.status_code} after {first.status_code}")
            rows.append((label, url, first.status_code, len(queries), times))
        mode = "cold (cache emptied before each GET)" if args.cold else "warm"
        when = f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after"
        if args.markdown:
            print(f"\n{settings_line()}; {mode}; {when}\n")
            print("| page | address | queries | GETs | p50 ms | p95 ms | max ms |")
            print("|---|---|---:|---:|---:|---:|---:|")
            for label, url, _, count, times in rows:
                print(
                    f"| {label} | `{url}` | {count} | {len(times)} | {percentile(times, 0.5):.1f} "
                    f"| {percentile(times, 0.95):.1f} | {max(times):.1f} |"
                )
            return
        print(f"{settings_line()}; {mode}; {when}")
        print(
            f"{'page':<22} {'status':>6} {'queries':>7} {'GETs':>5} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}"
        )
        for label, _, status, count, times in rows:
            print(
                f"{label:<22} {status:>6} {count:>7} {len(times):>5} "
                f"{percentile(times, 0.5):>8.1f} {percentile(times, 0.95):>8.1f} {max(times):>8.1f}"
            )


if __name__ == "__main__":
    main()
