"""What the commands that fill a database for benchmarks share: their options, the checks and
the session they start with, and the people they make (rows written as they are, no
``save()``)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction

from accounts.models import InvitePolicy, User
from games.management.bulk_rows import next_id, write_rows

USER_FIELDS = (
    "id", "password", "last_login", "is_superuser", "username", "first_name", "last_name",
    "is_staff", "is_active", "date_joined", "email", "bio", "reminder_emails", "turn_emails",
    "invite_policy",
)  # fmt: skip
CHUNK = 50_000


class FillCommand(BaseCommand):
    """``--players``, ``--games``, ``--seed``, ``--batch`` and ``--yes``, checked by ``options``."""

    min_players = 2

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--games", type=int, required=True)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--batch", type=int, default=20_000, help="Games written per transaction.")
        parser.add_argument("--yes", action="store_true", help="Run even if the database has users.")

    def options(self, options: dict[str, Any]) -> tuple[int, int, int, int]:
        """(players, games, seed, batch), refused if out of range or if the database has people
        (unless ``--yes``); the session then commits without waiting for the disk."""
        players, games, seed, batch = options["players"], options["games"], options["seed"], options["batch"]
        if players < self.min_players or games < 1 or batch < 1:
            raise CommandError(
                f"--players must be {self.min_players} or more, --games and --batch 1 or more."
            )
        if not options["yes"] and User.objects.exists():
            raise CommandError(
                "The database has users: this command adds a great many rows. Give --yes to go on."
            )
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET synchronous_commit TO off")  # this session only
        return players, games, seed, batch

    def write_people(
        self,
        rng: random.Random,
        players: int,
        name: Callable[[int], str],
        joined: Callable[[], dt.datetime],
        *,
        email: bool,
    ) -> int:
        """``players`` people named ``name(n)``, none of whom can log in; returns the first id."""
        first = next_id(User)
        rows = [
            (
                first + n,
                f"!{rng.getrandbits(160):040x}",  # unusable: no one can log in as them
                None,
                False,
                name(n),
                "",
                "",
                False,
                True,
                joined(),
                f"{name(n)}@example.com" if email else "",
                "",
                True,
                True,
                InvitePolicy.ANYONE.value,
            )
            for n in range(players)
        ]
        with transaction.atomic():
            for start in range(0, players, CHUNK):
                write_rows(User, USER_FIELDS, rows[start : start + CHUNK])
        self.stdout.write(f"{players} players written")
        return first
