"""Celery tasks of the games app: thin wrappers over services."""

from __future__ import annotations

import datetime as dt

from celery import shared_task
from celery.signals import worker_ready
from django.core.cache import cache
from django.utils import timezone

from games import kinds
from games.solitaire import services


@shared_task
def create_daily_challenges(days_ahead: int = 2) -> list[str]:
    """Make sure today's and the next ``days_ahead`` days' deals exist (idempotent).

    Beat runs it hourly, so the next days' deals are dealt well before their day; pages
    never deal (GET does no unbounded work) and at most queue it with ``days_ahead=0``
    when today's is missing; ``manage.py create_daily_challenges`` runs it at start-up.
    """
    today = timezone.now().date()
    made = []
    for offset in range(days_ahead + 1):
        date = today + dt.timedelta(days=offset)
        for game in kinds.SOLITAIRE_SLUGS:
            made.append(str(services.ensure_daily(game=game, date=date)))
    return made


@shared_task
def analyse_solitaire_game(record_id: int) -> bool:
    """Where a finished solitaire game was lost (issue 46), for its replay: a few seconds of
    solving. Whether there was a game to work out."""
    from games.solitaire import analysis

    return analysis.work_out(record_id) is not None


@shared_task
def analyse_table_game(record_id: int) -> bool:
    """Each seat's chance to win the hand at every step of a finished table game (issue 46),
    for its replay: asked for when the game ends. Whether there was a game to work out."""
    from games.replays import table_odds

    return table_odds.work_out(record_id) is not None


@shared_task(acks_late=True)
def advance_table(game_id: int, version: int) -> bool:
    """The move due at ``version`` (bot, turn clock, tie replay); a no-op if the game moved on."""
    from games.live import tables

    return tables.advance(game_id=game_id, version=version)


FULL_SWEEP_EVERY_S = 60
"""How often the sweeper also reads every playing table game (``tables.overdue_games``'s
``every_game``), for a bot's or a tie replay's lost task at a turn-based table."""


@shared_task
def sweep_overdue_turns() -> int:
    """Re-queue every overdue turn: the clock lives in the database, so a lost task is made good,
    and a person's turn at a turn-based table, which has no task (LP-8), times out here (LP-1).
    First, an outage that just ended moves the clocks on (LP-5), so it never reads as overdue."""
    from games.live import outages, tables

    outages.resume_if_down()
    # The first sweep in a minute (whichever worker runs it) also scans the game rows.
    every_game = cache.add("games:sweep:every-game", True, timeout=FULL_SWEEP_EVERY_S)
    overdue = tables.overdue_games(every_game=every_game)
    for game_id, version in overdue:
        advance_table.delay(game_id, version)
    return len(overdue)


@worker_ready.connect
def start_worker_heartbeat(**kwargs: object) -> None:
    """LP-5: a running worker says so every few seconds from a thread of its own, so that
    the record does not depend on Celery beat: a late sweep is not an outage."""
    from games.live import outages

    outages.Heartbeat(outages.WORKER).start()
