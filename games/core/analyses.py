"""What the analysis queue works out about a finished game, kept for its replay
(``GameAnalysis``): the steps that where a solitaire game was lost
(``games.solitaire.analysis``) and a table game's odds (``games.replays.table_odds``) share."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db import transaction

from games.models import GameAnalysis, GameRecord

ASKED_FOR_S = 120
"""A game's analysis is asked for at most once in this long (however many open its replay)."""


def kept(record: GameRecord) -> GameAnalysis | None:
    """The analysis of ``record`` as it stands, if it has been worked out."""
    return GameAnalysis.objects.filter(record=record, version=record.version).first()


def ask(record: GameRecord, task: Any) -> None:
    """Queues ``task`` (a Celery task taking the game's id) unless it was asked a moment ago."""
    if cache.add(f"analysis-asked:{record.pk}:{record.version}", True, ASKED_FOR_S):
        task.delay(record.pk)


def texts(record: GameRecord) -> list[str]:
    return list(record.actions.order_by("seq").values_list("text", flat=True))


def keep(record: GameRecord, **fields: Any) -> GameAnalysis | None:
    """Keeps what was worked out for ``record`` as it was read; None, keeping nothing, if the
    game has moved on or gone meanwhile."""
    with transaction.atomic():
        # The game's row first, then the analysis's: the order a flush or a cascade of the two
        # tables takes them in (the other order deadlocked a test database's flush in CI).
        still = GameRecord.objects.select_for_update().filter(pk=record.pk, version=record.version)
        if not list(still.values_list("pk", flat=True)):
            return None
        analysed, _ = GameAnalysis.objects.update_or_create(
            record=record, defaults={"version": record.version, **fields}
        )
    return analysed
