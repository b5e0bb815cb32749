"""Celery beat schedules every periodic task the site relies on, each a registered task."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings

from config.celery import app

EXPECTED = {
    "games.tasks.create_daily_challenges": timedelta(hours=1),
    "games.tasks.sweep_overdue_turns": timedelta(seconds=5),
    "tournaments.tasks.run_tournaments": timedelta(seconds=5),
    "accounts.tasks.remind_tournament_entrants": timedelta(seconds=30),
    "tournaments.tasks.schedule_series": timedelta(seconds=30),
    "accounts.tasks.clear_expired_sessions": timedelta(hours=6),
    "accounts.tasks.forget_old_login_failures": timedelta(hours=6),
    "accounts.tasks.forget_stale_presence": timedelta(minutes=1),
    "accounts.tasks.send_turn_digests": timedelta(minutes=5),
}


def test_beat_schedules_every_periodic_task() -> None:
    scheduled = {entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled == EXPECTED


def test_every_scheduled_task_is_registered() -> None:
    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks, entry["task"]
