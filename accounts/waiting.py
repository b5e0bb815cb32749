"""LP-8's "your turn": the turn-based games waiting for a person's move (``games.models.Turn``),
counted for the site's header and listed, oldest first, on their page (``/turns/``).

Both read the ``turn_waiting_for`` index (user, since) alone: the count is an index-only range,
a page of games is that range in order and its tables' seats in one more query.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games.models import Seat, Table, Turn

PER_PAGE = 50


def count(user_id: int) -> int:
    """How many turn-based games wait for this person's move."""
    return Turn.objects.filter(user_id=user_id).count()


@dataclass(frozen=True)
class Waiting:
    """One game waiting for the person: its table, the others seated, and the time left."""

    turn: Turn
    opponents: list[Seat]
    left: str
    per_move: str

    @property
    def table(self) -> Table:
        return self.turn.table


@dataclass(frozen=True)
class Listing:
    """A page of waiting games: the games, and the page of rows they were read from (its number,
    how many in all, the pages before and after)."""

    games: list[Waiting]
    page: Page[Turn]


def page(
    user_id: int, number: str | int | None, *, per_page: int = PER_PAGE, now: dt.datetime | None = None
) -> Listing:
    """A page of the games waiting for ``user_id``, the turn that reached them longest ago first."""
    now = now or timezone.now()
    seats = Seat.objects.select_related("user").only(
        "table_id", "number", "is_bot", "bot_name", "user_id", "user__username"
    )
    turns = (
        Turn.objects.filter(user_id=user_id)
        .order_by("since", "game_id")
        .select_related("table")
        .only("game_id", "seat", "since", "deadline", "table__game", "table__clock_seconds")
        .prefetch_related(Prefetch("table__seats", queryset=seats))
    )
    found = Paginator(turns, per_page).get_page(number)
    games = [
        Waiting(
            turn,
            [seat for seat in turn.table.seats.all() if seat.number != turn.seat],
            time_left(turn.deadline - now),
            time_left(dt.timedelta(seconds=turn.table.clock_seconds)),
        )
        for turn in found.object_list
    ]
    return Listing(games, found)


def time_left(left: dt.timedelta) -> str:
    """A turn-based clock's time in words, to the minute: "1 day 4 h", "3 h 20 min", "12 min"."""
    minutes = int(left.total_seconds() // 60)
    if minutes < 1:
        return gettext("less than a minute")
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    parts = []
    if days:
        parts.append(ngettext("%(n)d day", "%(n)d days", days) % {"n": days})
    if hours:
        parts.append(gettext("%(n)d h") % {"n": hours})
    if minutes and not days:
        parts.append(gettext("%(n)d min") % {"n": minutes})
    return " ".join(parts)
