"""A person's list of games (``games.stats.selectors.player_games``) a page at a time: the profile's
by page number, ``/api/users/<name>/games`` by page number or by key (``games.stats.keysets``).

Each page is read in two steps. The page's games are found along the index
``participation_newest`` alone (their finish and record: the index holds both), then only
those rows are read with what the page shows of them. In one query, a prepared statement's
generic plan (planned for a person of average activity, 57 games at a million) read and
joined all 9,980 games of the busiest player before sorting them to keep 50: 258 ms, where
the walk takes about 1 ms (issue 42, docs/benchmarks.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

from accounts.models import User
from games.models import Participation
from games.stats.keysets import GameKey


def _rows(user: User, record_ids: list[int], rows: QuerySet[Participation]) -> list[Participation]:
    """The person's rows of these games, in this order, by the key (person, record)."""
    found = {row.record_id: row for row in rows.filter(user=user, record_id__in=record_ids)}
    return [found[record_id] for record_id in record_ids if record_id in found]


def games_page(
    user: User,
    played: QuerySet[Participation],
    number: str | int | None,
    per_page: int,
    rows: QuerySet[Participation],
) -> Page[Participation]:
    """Page ``number`` of ``played`` as ``Paginator.get_page`` gives it (the last for a number
    past it, the first for anything but a number), holding the games of ``rows``."""
    keys = Paginator(played.values_list("record_id", flat=True), per_page).get_page(number)
    # Its paginator counts keys, one per game: its count and pages are the games'.
    paginator = cast("Paginator[Participation]", keys.paginator)
    return Page(_rows(user, list(keys.object_list), rows), keys.number, paginator)


@dataclass(frozen=True)
class GamesPage:
    rows: list[Participation]
    number: int
    """The page the first game falls on, counting pages of ``size`` from the newest."""
    pages: int
    newer: GameKey | None
    """The first game's key, when a newer one is listed before it."""
    older: GameKey | None
    """The last game's key, when an older one follows."""


def games_by_key(
    user: User,
    played: QuerySet[Participation],
    rows: QuerySet[Participation],
    *,
    size: int,
    number: int = 1,
    after: GameKey | None = None,
    before: GameKey | None = None,
) -> GamesPage:
    """The games after ``after``, else before ``before``, else page ``number``; a page past the
    end has no games."""
    keys = played.values_list("finished_at", "record_id")
    total = keys.count()
    first: int | None = None  # games listed before the page's first
    if after is not None:
        walked = [GameKey(*row) for row in keys.filter(after.older())[: size + 1]]
    elif before is not None:
        upward = [
            GameKey(*row) for row in keys.filter(before.newer()).order_by("finished_at", "record_id")[:size]
        ]
        if len(upward) < size:  # near the top: the first page, whole
            return games_by_key(user, played, rows, size=size)
        walked = upward[::-1]
    else:
        first = (max(number, 1) - 1) * size
        walked = [GameKey(*row) for row in keys[first : first + size + 1]] if first < total else []
    shown = walked[:size]
    if first is None:
        first = played.filter(shown[0].newer()).count() if shown else total
    more = len(walked) > size if before is None else first + len(shown) < total
    return GamesPage(
        rows=_rows(user, [key.record_id for key in shown], rows),
        number=first // size + 1,
        pages=max(1, -(-total // size)),
        newer=shown[0] if shown and first > 0 else None,
        older=shown[-1] if more else None,
    )
