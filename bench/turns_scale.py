"""How fast LP-8's "your turn" count and page answer with 100,000 open turn-based games among
20,000 people (issue 44's goal: p95 under 50 ms).

``make bench-turns`` (scripts/bench_turns) fills a database of its own once and times them warm
and cold, with the production settings. By hand, with a DATABASE_URL naming a database for this
alone (created if missing):

    .venv/bin/python bench/turns_scale.py --fill --requests 200 [--cold] [--markdown]

``--fill`` migrates the database and, if it has no user yet, fills it
(``generate_turn_games --players 20000 --games 100000 --seed 1``, under a minute), then
``VACUUM ANALYZE``; a filled database is reused as it is.

It finds the busiest waiting person (the most ``Turn`` rows) and times, ``--requests`` times
each, in this process: the header's count (``accounts.waiting.count``, the one query every
signed-in page adds), and with Django's test ``Client`` over HTTPS, signed in as that person
(the whole request through the middleware, the view and the templates; no HTTP server), the
page ``/turns/``, its last page, and the home page (whose header carries the count). It prints
each one's SQL queries and the p50, p95 and max of the time from the request to the whole
response (the first, which warms up and whose queries are counted, is not timed). ``--cold``
empties the settings' cache (``REDIS_URL``: give it a Redis database of its own) before every
request and times each request for another of the 200 busiest people in turn, so no request
finds the rows the one before it read; warm asks for the same person each time. Each person's
client has made one request (``/rules/``) before any is timed, as a browser has.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

from bench.ratings_scale import counted, create_database, settings_line  # noqa: E402

FILL = ("generate_turn_games", "--players", "20000", "--games", "100000", "--seed", "1", "--yes")
BUSIEST = 200
"""How many of the busiest waiting people a cold run goes round."""
TIMED = ("count", "page", "last page", "home")


def fill() -> None:
    from django.core.management import call_command
    from django.db import connection

    from accounts.models import User

    call_command("migrate", "--noinput", verbosity=0)
    if User.objects.exists():
        print("the database is filled already: reused as it is")
        return
    started = time.perf_counter()
    call_command(*FILL)
    print(f"{' '.join(FILL)}: {time.perf_counter() - started:.1f} s")
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--fill", action="store_true", help="create, migrate and fill the database if empty")
    parser.add_argument("--requests", type=int, default=200, help="requests of each kind")
    parser.add_argument("--cold", action="store_true", help="empty the cache and change person before each")
    parser.add_argument("--markdown", action="store_true", help="print a table for docs/benchmarks.md")
    args = parser.parse_args()
    if args.fill:
        create_database()

    import logging

    import django

    django.setup()
    logging.getLogger("axes").setLevel(logging.WARNING)  # a line per sign-in of the cold run's people
    from django.core.cache import cache
    from django.db import connection
    from django.db.models import Count
    from django.test import Client

    from accounts import waiting
    from accounts.models import User
    from bench.stats import percentile
    from games.models import GameRecord, Turn

    if args.fill:
        fill()
    top = list(Turn.objects.values("user_id").annotate(n=Count("pk")).order_by("-n", "user_id")[:BUSIEST])
    if not top:
        sys.exit("no waiting games: fill the database first (--fill, or manage.py generate_turn_games)")
    people = User.objects.in_bulk([row["user_id"] for row in top])
    busiest, waiting_games = people[top[0]["user_id"]], top[0]["n"]
    print(
        f"database {connection.settings_dict['NAME']}: {User.objects.count()} users, "
        f"{GameRecord.objects.filter(status=GameRecord.Status.PLAYING).count()} games playing, "
        f"{Turn.objects.count()} waiting; busiest {busiest.username} with {waiting_games} games waiting"
    )
    # Over HTTPS, as the proxy of docs/operations.md tells the site (the production settings
    # redirect plain HTTP); one client per person, each signed in once.
    clients: dict[int, Client] = {}

    def client_for(user: User) -> Client:
        if user.pk not in clients:
            clients[user.pk] = Client(secure=True, HTTP_X_FORWARDED_PROTO="https")
            clients[user.pk].force_login(user)
            # A browser's first request of a session costs more (its CSRF cookie is made, the
            # session read afresh); a person going to their games has made it already.
            clients[user.pk].get("/rules/")
        return clients[user.pk]

    rotation = [people[row["user_id"]] for row in top] if args.cold else [busiest]
    for user in rotation:
        client_for(user)

    last_pages = {
        user.pk: f"/turns/?page={max(1, -(-waiting.count(user.pk) // waiting.PER_PAGE))}" for user in rotation
    }

    def request(label: str, user: User) -> int:
        if label == "count":
            waiting.count(user.pk)
            return 200
        url = {"page": "/turns/", "last page": last_pages[user.pk], "home": "/"}[label]
        return client_for(user).get(url).status_code

    load = os.getloadavg()[0]
    rows = []
    for label in TIMED:
        queries: list[str] = []
        cache.clear()
        with connection.execute_wrapper(partial(counted, queries)):
            status = request(label, busiest)  # also warms the connection and the templates
        times: list[float] = []
        for n in range(args.requests):
            user = rotation[n % len(rotation)]
            if args.cold:
                cache.clear()
            started = time.perf_counter()
            answered = request(label, user)
            times.append((time.perf_counter() - started) * 1000)
            if answered != status:
                sys.exit(f"{label}: {answered} after {status}")
        rows.append((label, status, len(queries), times))
    mode = f"cold (cache emptied, the {len(rotation)} busiest in turn)" if args.cold else "warm"
    when = f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after"
    if args.markdown:
        print(f"\n{settings_line()}; {mode}; {when}\n")
        print("| what | status | queries | requests | p50 ms | p95 ms | max ms |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for label, status, count, times in rows:
            print(
                f"| {label} | {status} | {count} | {len(times)} | {percentile(times, 0.5):.1f} "
                f"| {percentile(times, 0.95):.1f} | {max(times):.1f} |"
            )
        return
    print(f"{settings_line()}; {mode}; {when}")
    print(f"{'what':<10} {'status':>6} {'queries':>7} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for label, status, count, times in rows:
        print(
            f"{label:<10} {status:>6} {count:>7} {len(times):>5} "
            f"{percentile(times, 0.5):>8.1f} {percentile(times, 0.95):>8.1f} {max(times):>8.1f}"
        )


if __name__ == "__main__":
    main()
