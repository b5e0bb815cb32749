"""Fill the past days' daily deals with finished ranked attempts, for measuring at scale.

    manage.py generate_daily_attempts --days 365 --players-per-day 1000 [--seed N]

For each of the ``--days`` UTC days up to today and each solitaire game, makes the day's
``DailyChallenge`` (any it lacks: a seed, no solution) and ``--players-per-day`` finished
ranked attempts by existing people, chosen with the same skew as ``generate_rated_games``
(a few play nearly every day, most now and then), with results, scores, moves and times
drawn at random, their ``Participation`` rows and everyone's ``DailyStanding``, written as
``games.core.finishes`` would. The attempts have no ``Action`` rows. Run it after
``generate_rated_games``, which makes the people.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from dataclasses import dataclass, field
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.management.color import no_style
from django.db import connection, transaction

from accounts.models import User
from games import kinds
from games.engine import get_engine
from games.management.bulk_rows import PARTICIPATION_FIELDS, RECORD_FIELDS, Row, next_id, write_rows
from games.models import DailyChallenge, DailyStanding, GameRecord, Participation
from games.stats import daily_standings

ACTIVITY_SKEW = 2.0
WIN_RATE = 0.3
DAILY_FIELDS = ("id", "game", "date", "seed", "config", "solution", "created_at")
STANDING_FIELDS = ("user_id", "played", "won", "last_won_at", "best", "latest_run", "last_day")


@dataclass
class Tally:
    days: set[dt.date] = field(default_factory=set)
    played: int = 0
    won: int = 0
    last_won_at: dt.datetime | None = None


class Command(BaseCommand):
    help = "Fill past daily deals with finished ranked attempts (for benchmarks)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, required=True)
        parser.add_argument("--players-per-day", type=int, required=True)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        days, per_day, seed = options["days"], options["players_per_day"], options["seed"]
        people = list(User.objects.order_by("pk").values_list("pk", flat=True))
        if days < 1 or not 1 <= per_day <= len(people):
            raise CommandError(
                "--days must be 1 or more and --players-per-day from 1 to the number of people."
            )
        if DailyStanding.objects.exists():
            raise CommandError(
                "The database has ranked daily attempts already: this command makes the first."
            )
        started = time.perf_counter()
        rng = random.Random(seed)
        today = dt.datetime.now(dt.UTC).date()
        tallies: dict[int, Tally] = {}
        for back in range(days - 1, -1, -1):
            self._day(rng, today - dt.timedelta(days=back), people, per_day, tallies)
        self._standings(tallies)
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(
                no_style(), [DailyChallenge, GameRecord, Participation]
            ):
                cursor.execute(sql)
            if connection.vendor == "postgresql":
                cursor.execute("ANALYZE")
        attempts = days * per_day * len(kinds.SOLITAIRE_SLUGS)
        self.stdout.write(f"done: {attempts} attempts in {time.perf_counter() - started:.1f} s")

    def _day(
        self, rng: random.Random, day: dt.date, people: list[int], per_day: int, tallies: dict[int, Tally]
    ) -> None:
        records: list[Row] = []
        participations: list[Row] = []
        dailies: list[Row] = []
        record_id, participation_id, daily_id = (
            next_id(model) for model in (GameRecord, Participation, DailyChallenge)
        )
        existing = {deal.game: deal for deal in DailyChallenge.objects.filter(date=day)}
        noon = dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)
        for slug in kinds.SOLITAIRE_SLUGS:
            engine = get_engine(slug)
            config = engine.normalize_config({})
            deal = existing.get(slug)
            if deal is None:
                deal_seed, this_daily = rng.getrandbits(48), daily_id
                dailies.append((daily_id, slug, day, deal_seed, config, [], noon))
                daily_id += 1
            else:
                deal_seed, this_daily, config = deal.seed, deal.pk, deal.config
            chosen: set[int] = set()
            while len(chosen) < per_day:
                chosen.add(people[int(len(people) * rng.random() ** ACTIVITY_SKEW)])
            for owner in sorted(chosen):
                won = rng.random() < WIN_RATE
                score = rng.randint(300, 1_000) if won else rng.randint(0, 299)
                begun = noon + dt.timedelta(seconds=rng.randrange(86_000))
                ended = begun + dt.timedelta(seconds=rng.randrange(60, 1_800))
                outcome = {"won": won, "score": score}
                moves = rng.randrange(20, 120)
                records.append(
                    (record_id, slug, engine.version, config, deal_seed, None, GameRecord.Kind.DAILY.value,
                     owner, "", this_daily, True, 0, moves, GameRecord.Status.FINISHED.value,
                     won, score, outcome, 0, 0, begun, begun, ended, ended, moves, ended - begun, None)
                )  # fmt: skip
                participations.append((participation_id, owner, record_id, slug, ended, None, won))
                record_id += 1
                participation_id += 1
                tally = tallies.setdefault(owner, Tally())
                tally.days.add(day)
                tally.played += 1
                if won:
                    tally.won += 1
                    tally.last_won_at = max(tally.last_won_at or ended, ended)
        with transaction.atomic():
            write_rows(DailyChallenge, DAILY_FIELDS, dailies)
            write_rows(GameRecord, RECORD_FIELDS, records)
            write_rows(Participation, PARTICIPATION_FIELDS, participations)
        self.stdout.write(f"{day}: {len(records)} attempts")

    def _standings(self, tallies: dict[int, Tally]) -> None:
        rows: list[Row] = []
        for user_id, tally in sorted(tallies.items()):
            best, latest_run, last_day = daily_standings.latest(tally.days)
            rows.append((user_id, tally.played, tally.won, tally.last_won_at, best, latest_run, last_day))
        with transaction.atomic():
            write_rows(DailyStanding, STANDING_FIELDS, rows)
