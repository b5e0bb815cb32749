"""What is kept about finished games besides the games themselves, brought in step with
them. Every writer of a game's result or owner calls ``sync`` in its transaction: a move
that ends a game, an undo that reopens one, the claim of a browser's games. (An import has
no owner and nothing kept: it counts for nobody.)"""

from __future__ import annotations

from games.models import GameRecord
from games.stats import daily_standings, participations


def sync(records: GameRecord | list[GameRecord]) -> None:
    """The records' participations, and the daily standings of the owners of ranked attempts."""
    batch = [records] if isinstance(records, GameRecord) else records
    participations.write(batch)
    daily_standings.refresh(
        {record.owner_id for record in batch if record.ranked and record.owner_id is not None}
    )
