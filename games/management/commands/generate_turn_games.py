"""Fill the database with people and open turn-based games waiting for them, for measuring LP-8's
"your turn" pages at scale (bench/turns_scale.py).

    manage.py generate_turn_games --players 20000 --games 100000 [--seed N] [--batch 20000] [--yes]

Makes ``--players`` people (unusable passwords, usernames ``t<seed>-<n>``) and ``--games`` games
being played at turn-based tables (``turn_clocks.TURN_BASED_CLOCKS``), of the multiplayer games
(``kinds.TABLE_GAMES``): each a ``GameRecord`` of kind table just dealt (version 0, no action),
its playing ``Table`` (a tenth of them private), one ``Seat`` per person and the ``Turn`` row of
the person the deal left to act (the engine's ``current_player`` of the dealt state, as
``games.live.tables`` writes it), reached some time within its clock and not yet run out. Seats
go to people with the skew of ``generate_rated_games``: a few play a great many games at once,
most a few. Everything but the clock is decided by ``--seed``. Rows are written a batch at a
time (PostgreSQL ``COPY``, else multi-row inserts). The command refuses to run on a database
that has any user unless ``--yes`` is given.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from dataclasses import dataclass, field
from typing import Any

from django.core.management.color import no_style
from django.db import connection, transaction

from accounts.models import User
from games import kinds
from games.engine import get_engine
from games.live import table_access, turn_clocks
from games.management.bulk_people import FillCommand
from games.management.bulk_rows import RECORD_FIELDS, SEAT_FIELDS, Row, next_id, write_rows
from games.models import GameRecord, Seat, Table, Turn

PLAYER_COUNTS = (2, 3, 4)
PLAYER_COUNT_WEIGHTS = (70, 20, 10)
"""How many sit at a turn-based table of a game with a ``players`` option (others seat two)."""
ACTIVITY_SKEW = 2.0
"""A seat goes to person ``int(players * u ** ACTIVITY_SKEW)``, as in generate_rated_games."""
PRIVATE_RATE = 0.1

TABLE_FIELDS = (
    "id", "game", "config", "clock_seconds", "rated", "status", "created_by_id", "record_id",
    "created_at", "lobby_version", "private_key",
)  # fmt: skip
TURN_FIELDS = ("game_id", "table_id", "user_id", "seat", "since", "deadline")


@dataclass
class Batch:
    records: list[Row] = field(default_factory=list)
    tables: list[Row] = field(default_factory=list)
    seats: list[Row] = field(default_factory=list)
    turns: list[Row] = field(default_factory=list)

    def write(self) -> None:
        with transaction.atomic():
            write_rows(GameRecord, RECORD_FIELDS, self.records)
            write_rows(Table, TABLE_FIELDS, self.tables)
            write_rows(Seat, SEAT_FIELDS, self.seats)
            write_rows(Turn, TURN_FIELDS, self.turns)


class Command(FillCommand):
    help = "Fill the database with people and open turn-based games waiting for them (for benchmarks)."

    min_players = 4

    def handle(self, *args: Any, **options: Any) -> None:
        players, games, seed, batch = self.options(options)
        started = time.perf_counter()
        rng = random.Random(seed)
        now = dt.datetime.now(dt.UTC)
        first_user = self._users(rng, seed, players, now)
        self._games(rng, first_user, players, games, batch, now, started)
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), [User, GameRecord, Table, Seat]):
                cursor.execute(sql)
            if connection.vendor == "postgresql":
                cursor.execute("ANALYZE")
        self.stdout.write(f"done: {players} players, {games} games in {time.perf_counter() - started:.1f} s")

    def _users(self, rng: random.Random, seed: int, players: int, now: dt.datetime) -> int:
        return self.write_people(
            rng,
            players,
            lambda n: f"t{seed}-{n:06d}",
            lambda: now - dt.timedelta(days=30, seconds=rng.randrange(86_400 * 300)),
            email=True,
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
        configs: dict[tuple[str, int], dict[str, Any]] = {}
        record_id, table_id, seat_id = (next_id(m) for m in (GameRecord, Table, Seat))
        batch = Batch()
        for index in range(games):
            slug = rng.choice(specs)
            engine = engines[slug]
            two_only = "players" not in engine.options
            count = 2 if two_only else rng.choices(PLAYER_COUNTS, PLAYER_COUNT_WEIGHTS)[0]
            people: list[int] = []
            while len(people) < count:
                person = first_user + int(players * rng.random() ** ACTIVITY_SKEW)
                if person not in people:
                    people.append(person)
            config = configs.get((slug, count))
            if config is None:
                config = engine.normalize_config({} if two_only else {"players": count})
                configs[slug, count] = config
            seed = rng.getrandbits(63)
            to_act = engine.current_player(engine.initial_state(config, seed, None))
            assert to_act is not None  # a dealt game has a seat to act
            clock = rng.choice(turn_clocks.TURN_BASED_CLOCKS)
            # The turn reached its person some time within its clock, which has not run out.
            since = now - dt.timedelta(seconds=rng.randrange(clock - 60))
            deadline = since + dt.timedelta(seconds=clock)
            dealt = since - dt.timedelta(seconds=rng.randrange(60, 600))
            batch.records.append(
                (record_id, slug, engine.version, config, seed, None,
                 GameRecord.Kind.TABLE.value, None, "", None, False, 0, 0,
                 GameRecord.Status.PLAYING.value, None, None, None, 0, 0,
                 dealt, None, None, None, None, None, deadline)
            )  # fmt: skip
            private = table_access.new_key() if rng.random() < PRIVATE_RATE else None
            batch.tables.append(
                (table_id, slug, config, clock, False, Table.Status.PLAYING.value, people[0], record_id,
                 dealt, count + 2, private)
            )  # fmt: skip
            for number, user_id in enumerate(people):
                batch.seats.append((seat_id, table_id, number, user_id, False, ""))
                seat_id += 1
            batch.turns.append((record_id, table_id, people[to_act], to_act, since, deadline))
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
