"""Celery tasks of the tournaments app: thin wrappers over services."""

from __future__ import annotations

from celery import shared_task

from tournaments import series, services


@shared_task(acks_late=True)
def record_match(game_id: int) -> bool:
    """A match's game ended (sent by ``games.live.tables``); a no-op if already recorded."""
    return services.record_match(game_id=game_id)


@shared_task
def run_tournaments() -> dict[str, list[int]]:
    """Start the tournaments whose time has come, close the solitaire events whose window is
    over, and record any result whose task was lost."""
    started = services.start_due()
    closed = services.close_due()
    lost = services.unrecorded_results()
    recorded = [game_id for game_id in lost if services.record_match(game_id=game_id)]
    return {"started": started, "closed": closed, "recorded": recorded}


@shared_task
def schedule_series() -> list[int]:
    """Create the editions of the series due to open (TN-9); safe to run in two beats at once."""
    return series.schedule_editions()
