"""Fill the database with players and finished, rated table games, for measuring at scale.

    manage.py generate_rated_games --players 100000 --games 1000000 [--seed N] [--batch 20000] [--yes]

Makes ``--players`` people (unusable passwords, usernames ``p<seed>-<n>``) and ``--games``
finished games of the multiplayer games (``kinds.TABLE_GAMES``), each a ``GameRecord`` of
kind table with its finished ``Table`` and one ``Seat`` per person, an outcome of its
engine's shape (winner, places...), finished over the last year. Ratings are computed in
memory with ``accounts.ratings.MODEL`` in the order the games finished, exactly as
``rate_game`` would have written them one game at a time; the rows are written a batch at a
time (PostgreSQL ``COPY``, else multi-row inserts). Everything but the clock is decided by
``--seed``: the same seed makes the same people, games, places and ratings (times are
relative to the day the command runs).

The games have no ``Action`` rows: their pages and API read as finished games, but a replay
of one has no moves. The command refuses to run on a database that has any user unless
``--yes`` is given.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.management.color import no_style
from django.db import connection, transaction

from accounts import histories
from accounts.models import Rating, RatingChange, User
from accounts.ratings import MODEL
from games import kinds
from games.engine import get_engine
from games.management.bulk_people import FillCommand
from games.management.bulk_rows import (
    PARTICIPATION_FIELDS,
    RECORD_FIELDS,
    SEAT_FIELDS,
    Row,
    next_id,
    write_rows,
)
from games.models import GameRecord, Participation, Seat, Table

MULTI_SEAT_WEIGHT = 4 / 3
"""A game of 2-6 seats is played 4/3 as often as a heads-up one (Triad, Tauron Hold-Em and
Pyramid Poker 4:4:3). The figures in docs/benchmarks.md were measured with 4:3:3, when
these weights named the games."""

PLAYER_COUNTS = (2, 3, 4, 5, 6)
PLAYER_COUNT_WEIGHTS = (35, 25, 20, 10, 10)
"""How many sit at a table of a game with a ``players`` option (others seat two)."""

ACTIVITY_SKEW = 2.0
"""A seat goes to player ``int(players * u ** ACTIVITY_SKEW)``: a few play a great deal
(with 1,000,000 games among 100,000 players the busiest has about 10,000), most a little."""

BLOCKS_TIE_RATE = 0.03
YEAR = dt.timedelta(days=365)

TABLE_FIELDS = (
    "id", "game", "config", "clock_seconds", "rated", "status", "created_by_id", "record_id",
    "created_at", "lobby_version",
)  # fmt: skip
RATING_FIELDS = ("id", "user_id", "game", "mu", "sigma", "games", "updated_at")
CHANGE_FIELDS = (
    "id", "user_id", "record_id", "game", "place", "mu_before", "sigma_before", "mu_after",
    "sigma_after", "games_after", "created_at",
)  # fmt: skip


@dataclass
class Batch:
    """The rows of a run of consecutive games, written together."""

    records: list[Row] = field(default_factory=list)
    tables: list[Row] = field(default_factory=list)
    seats: list[Row] = field(default_factory=list)
    changes: list[Row] = field(default_factory=list)
    participations: list[Row] = field(default_factory=list)

    def write(self) -> None:
        with transaction.atomic():
            write_rows(GameRecord, RECORD_FIELDS, self.records)
            write_rows(Table, TABLE_FIELDS, self.tables)
            write_rows(Seat, SEAT_FIELDS, self.seats)
            write_rows(RatingChange, CHANGE_FIELDS, self.changes)
            write_rows(Participation, PARTICIPATION_FIELDS, self.participations)


def heads_up_outcome(rng: random.Random, order: Sequence[int]) -> tuple[dict[str, Any], list[int]]:
    """Blocks (two seats, basic scoring): ``order`` best seat first; a few games stay equal."""
    if rng.random() < BLOCKS_TIE_RATE:
        points = rng.randint(0, 6)
        return {"winner": None, "scoring": "basic", "target": None, "scores": [points, points]}, [1, 1]
    winner = order[0]
    scores = [0, 0]
    scores[winner] = 7
    scores[1 - winner] = rng.randint(0, 6)
    return {"winner": winner, "scoring": "basic", "target": None, "scores": scores}, [
        1 if seat == winner else 2 for seat in (0, 1)
    ]


def betting_outcome(
    rng: random.Random, order: Sequence[int], stack: int, hands: int
) -> tuple[dict[str, Any], list[int]]:
    """Triad or Tauron: ``{"winner", "ranking", "places", "chips", "hands"}``, every place distinct
    (place ties are replayed), chips shared out best first."""
    n = len(order)
    total = stack * n
    cuts = sorted(rng.randint(0, total) for _ in range(n - 1))
    shares = sorted((b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)), reverse=True)
    chips, places = [0] * n, [0] * n
    for place, seat in enumerate(order, start=1):
        chips[seat] = shares[place - 1]
        places[seat] = place
    outcome = {
        "winner": order[0],
        "ranking": list(order),
        "places": places,
        "chips": chips,
        "hands": rng.randint(1, hands),
    }
    return outcome, places


class Command(FillCommand):
    help = "Fill the database with players and finished, rated table games (for benchmarks)."

    min_players = 6

    def handle(self, *args: Any, **options: Any) -> None:
        players, games, seed, batch = self.options(options)
        started = time.perf_counter()
        rng = random.Random(seed)
        now = dt.datetime.now(dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        first_user = self._users(rng, seed, players, now)
        self._games(rng, first_user, players, games, batch, now, started)
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(
                no_style(), [User, GameRecord, Table, Seat, Rating, RatingChange, Participation]
            ):
                cursor.execute(sql)
            if connection.vendor == "postgresql":
                cursor.execute("ANALYZE")
        self.stdout.write(f"done: {players} players, {games} games in {time.perf_counter() - started:.1f} s")

    def _users(self, rng: random.Random, seed: int, players: int, now: dt.datetime) -> int:
        return self.write_people(
            rng,
            players,
            lambda n: f"p{seed}-{n:06d}",
            lambda: now - YEAR - dt.timedelta(seconds=rng.randrange(86_400 * 30)),
            email=False,
        )

    def _games(
        self,
        rng: random.Random,
        first_user: int,
        players: int,
        games: int,
        batch_size: int,
        now: dt.datetime,
        started: float,
    ) -> None:
        specs = [spec.slug for spec in kinds.TABLE_GAMES]
        engines = {slug: get_engine(slug) for slug in specs}
        weights = [MULTI_SEAT_WEIGHT if "players" in engines[slug].options else 1.0 for slug in specs]
        configs: dict[tuple[str, int], dict[str, Any]] = {}
        skill = [rng.gauss(0.0, 1.0) for _ in range(players)]  # who tends to finish ahead
        # Finishing times, in order: the order ratings are computed in and ids are given in.
        offsets = sorted(rng.random() for _ in range(games))
        start = now - YEAR
        record_id, table_id, seat_id, change_id, participation_id = (
            next_id(m) for m in (GameRecord, Table, Seat, RatingChange, Participation)
        )
        base_mu, base_sigma = MODEL.rating().mu, MODEL.rating().sigma
        ratings: dict[tuple[int, str], list[Any]] = {}  # (user, game) -> [mu, sigma, games, last]
        batch = Batch()
        for index, offset in enumerate(offsets):
            slug = rng.choices(specs, weights)[0]
            engine = engines[slug]
            two_only = "players" not in engine.options
            count = 2 if two_only else rng.choices(PLAYER_COUNTS, PLAYER_COUNT_WEIGHTS)[0]
            people: list[int] = []
            while len(people) < count:
                person = int(players * rng.random() ** ACTIVITY_SKEW)
                if person not in people:
                    people.append(person)
            order = sorted(
                range(count), key=lambda seat: skill[people[seat]] + rng.gauss(0.0, 1.5), reverse=True
            )
            config = configs.get((slug, count))
            if config is None:
                config = engine.normalize_config({} if two_only else {"players": count})
                configs[slug, count] = config
            if two_only:
                outcome, places = heads_up_outcome(rng, order)
            else:
                outcome, places = betting_outcome(rng, order, int(config["stack"]), int(config["hands"]))
            finished = start + YEAR * offset
            opened = finished - dt.timedelta(seconds=rng.randrange(120, 2_400))
            batch.records.append(
                (record_id, slug, engine.version, config, rng.getrandbits(63), None,
                 GameRecord.Kind.TABLE.value, None, "", None, False, 0, 0,
                 GameRecord.Status.FINISHED.value, None, None, outcome, 0, 0,
                 opened, opened, finished, finished, 0, finished - opened, None)
            )  # fmt: skip
            user_ids = [first_user + person for person in people]
            batch.tables.append(
                (
                    table_id,
                    slug,
                    config,
                    30,
                    True,
                    Table.Status.FINISHED.value,
                    user_ids[0],
                    record_id,
                    opened,
                    count + 2,
                )
            )
            for number, user_id in enumerate(user_ids):
                batch.seats.append((seat_id, table_id, number, user_id, False, ""))
                batch.participations.append(
                    (
                        participation_id,
                        user_id,
                        record_id,
                        slug,
                        finished,
                        number,
                        outcome["winner"] == number,
                    )
                )
                seat_id += 1
                participation_id += 1
            before = [ratings.setdefault((uid, slug), [base_mu, base_sigma, 0, finished]) for uid in user_ids]
            after = MODEL.rate(
                [[MODEL.rating(mu=row[0], sigma=row[1])] for row in before], ranks=[float(p) for p in places]
            )
            for user_id, row, place, (new,) in zip(user_ids, before, places, after, strict=True):
                batch.changes.append(
                    (
                        change_id,
                        user_id,
                        record_id,
                        slug,
                        place,
                        row[0],
                        row[1],
                        new.mu,
                        new.sigma,
                        row[2] + 1,
                        finished,
                    )
                )
                change_id += 1
                row[0], row[1], row[2], row[3] = new.mu, new.sigma, row[2] + 1, finished
            record_id += 1
            table_id += 1
            if len(batch.records) >= batch_size or index == games - 1:
                batch.write()
                batch = Batch()
                done = index + 1
                elapsed = time.perf_counter() - started
                self.stdout.write(
                    f"{done} of {games} games written, {elapsed:.1f} s, {done / elapsed:.0f} games/s"
                )
        self._ratings(ratings)

    def _ratings(self, ratings: dict[tuple[int, str], list[Any]]) -> None:
        first = next_id(Rating)
        rows: Iterable[Row] = (
            (first + n, user_id, slug, mu, sigma, played, last)
            for n, ((user_id, slug), (mu, sigma, played, last)) in enumerate(sorted(ratings.items()))
        )
        chunk: list[Row] = []
        with transaction.atomic():
            for row in rows:
                chunk.append(row)
                if len(chunk) >= 50_000:
                    write_rows(Rating, RATING_FIELDS, chunk)
                    chunk = []
            write_rows(Rating, RATING_FIELDS, chunk)
        self.stdout.write(f"{len(ratings)} ratings written")
        # The profile reads each rating's history kept on it, as rated games keep it.
        self.stdout.write(f"{histories.keep_all(Rating)} rating histories kept")
