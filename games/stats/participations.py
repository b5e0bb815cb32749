"""Who took part in each finished game (``Participation``): a person's list of games
(profile, API) and statistics read these rows by ``(user, -finished_at)``. Written through
``games.core.finishes.sync`` whenever a game ends, reopens or changes owner."""

from __future__ import annotations

from collections.abc import Iterable

from games.models import GameRecord, Participation, Seat


def _rows(record: GameRecord, seats: Iterable[tuple[int, int]]) -> list[Participation]:
    """``seats`` are (user id, seat number) of the people at the record's table. An import has
    no owner and no table: nobody took part in it here. A game continued from a replay's step
    has its owner, who played its end but not its start: no part either, and so it counts in no
    statistic, streak or list of games, all of which read these rows."""
    if not record.is_over or record.finished_at is None or record.continued:
        return []
    common = {"record_id": record.pk, "game": record.game, "finished_at": record.finished_at}
    if record.at_table:
        winner = (record.outcome or {}).get("winner")
        return [
            Participation(user_id=user_id, seat=number, won=winner == number, **common)
            for user_id, number in seats
        ]
    if record.owner_id is None:
        return []
    return [Participation(user_id=record.owner_id, seat=None, won=record.won, **common)]


def _people_seated(records: list[GameRecord]) -> dict[int, list[tuple[int, int]]]:
    table_ids = [record.pk for record in records if record.at_table]
    seated: dict[int, list[tuple[int, int]]] = {record_id: [] for record_id in table_ids}
    if table_ids:
        rows = Seat.objects.filter(table__record__in=table_ids, user__isnull=False, is_bot=False).values_list(
            "table__record_id", "user_id", "number"
        )
        for record_id, user_id, number in rows:
            seated[record_id].append((user_id, number))
    return seated


def write(batch: list[GameRecord]) -> None:
    """Make the records' participations match their state: none while a game is played (or
    after an undo reopened it), one per person once it is over."""
    if not batch:
        return
    seated = _people_seated(batch)
    Participation.objects.filter(record__in=[record.pk for record in batch]).delete()
    Participation.objects.bulk_create(
        [row for record in batch for row in _rows(record, seated.get(record.pk, []))]
    )
