"""``manage.py create_daily_challenges``: deal today's and the next days' daily deals now.

The beat task of the same name does this every hour; its first run comes an hour after
beat starts, so ``make run`` (launcher/embedded.py) runs this once before the web server:
a fresh site has today's deals from its first page. Idempotent, like the task.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.tasks import create_daily_challenges


class Command(BaseCommand):
    help = "Deal today's and the next days' daily challenges (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--days-ahead", type=int, default=2, help="also deal this many days after today (default 2)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # The task's function, run here in this process: no worker is needed yet.
        deals = create_daily_challenges(days_ahead=options["days_ahead"])
        self.stdout.write(f"daily deals ready: {', '.join(deals)}")
