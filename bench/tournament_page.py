"""How fast a tournament's page renders once its bracket is full: 64 players, 63 matches.

Start the site first (``make run``), then, with the same settings and data folder:

    .venv/bin/python bench/tournament_page.py --url http://127.0.0.1:8000 --players 64

It enters ``--players`` people in a Triad tournament (one hand a match), starts it, plays
every match to its end through the table services (first legal move; the running worker
records each result and deals the next match), then times GET of the tournament's page
over HTTP: the whole page, the body alone as an htmx poll from an older version gets it,
and the poll of a page that is up to date (answered 204, nothing rendered).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import urllib.request
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.stats import percentile  # noqa: E402
from games.core import move_path  # noqa: E402
from games.core.snapshots import state_of  # noqa: E402
from games.engine import TABLE_SEAT, get_engine  # noqa: E402
from games.live import tables  # noqa: E402
from games.models import GameRecord, Table  # noqa: E402
from tournaments import services  # noqa: E402
from tournaments.models import Tournament  # noqa: E402


def full_tournament(players: int) -> Tournament:
    run = uuid.uuid4().hex[:6]
    User = get_user_model()
    people = [
        User.objects.create_user(f"t{run}-{n}", f"t{run}-{n}@example.com", "pw-long-enough-1")
        for n in range(players)
    ]
    tournament = services.create_tournament(
        creator=people[0],
        name=f"Bench cup {run}",
        game="triad",
        config={"hands": 1},
        clock_seconds=600,
        max_entrants=players,
        starts_at=timezone.now(),
    )
    for person in people[1:]:
        services.join(tournament_id=tournament.pk, user=person)
    services.start_now(tournament_id=tournament.pk, user=people[0])
    engine = get_engine("triad")
    deadline = time.monotonic() + 600
    while Tournament.objects.get(pk=tournament.pk).status != Tournament.Status.FINISHED:
        assert time.monotonic() < deadline, "the tournament did not finish"
        live = Table.objects.filter(
            tournament_game__match__tournament=tournament, status=Table.Status.PLAYING
        )
        for table in live:
            record = GameRecord.objects.get(pk=table.record_id)
            while not record.is_over:
                seat = engine.current_player(state_of(record))
                if seat == TABLE_SEAT:
                    tables.advance(game_id=record.pk, version=record.version)
                else:
                    user = table.seats.get(number=seat).user
                    text = engine.view(state_of(record), seat).legal[0]
                    move_path.play_at_table(
                        table_id=table.pk, user=user, move=text, expected_version=record.version
                    )
                record.refresh_from_db()
        time.sleep(0.2)  # the worker records results and deals the next round
    return tournament


def timed_get(url: str, headers: dict[str, str]) -> float:
    started = time.perf_counter()
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as response:
        response.read()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    tournament = full_tournament(args.players)
    tournament.refresh_from_db()
    url = f"{args.url}{tournament.get_absolute_url()}"
    matches = tournament.matches.count()
    print(
        f"tournament {tournament.pk}: {args.players} players, {matches} matches, {tournament.rounds} rounds"
    )
    poll = {"HX-Request": "true"}
    cases = (
        ("whole page", url, {}),
        ("htmx body", f"{url}?since={tournament.version - 1}", poll),
        ("htmx poll, up to date", f"{url}?since={tournament.version}", poll),
    )
    for label, address, headers in cases:
        times = [timed_get(address, headers) for _ in range(args.requests)]
        print(
            f"{label}: median {statistics.median(times):.1f} ms, p95 {percentile(times, 0.95):.1f} ms, "
            f"max {max(times):.1f} ms over {len(times)} requests"
        )


if __name__ == "__main__":
    main()
