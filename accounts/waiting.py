"""LP-8's "your turn": the turn-based games waiting for a person's move (``games.models.Turn``),
counted for the site's header and listed, oldest first, on their page (``/turns/``).

Both read the ``turn_waiting_for`` index (user, since) alone: the count is an index-only range,
a page of games is that range in order and its tables' seats in one more query.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from games import kinds
from games.live import clock_words
from games.models import Seat, Turn

PER_PAGE = 50


def count(user_id: int) -> int:
    """How many turn-based games wait for this person's move."""
    return Turn.objects.filter(user_id=user_id).count()


@dataclass(frozen=True)
class Opponent:
    name: str
    url: str
    """Their profile; empty for a bot."""


@dataclass(frozen=True)
class Waiting:
    """One game waiting for the person: what the page shows of it, worked out here once."""

    game_id: int
    game: str
    url: str
    opponents: list[Opponent]
    left: str
    """"1 day 4 h left" (``clock_words``)."""
    speed: str
    """"2 days per move"."""


@dataclass(frozen=True)
class Listing:
    """A page of waiting games: the games, and the page of rows they were read from (its number,
    how many in all, the pages before and after)."""

    games: list[Waiting]
    page: Page[tuple[Any, ...]]


def page(
    user_id: int, number: str | int | None, *, per_page: int = PER_PAGE, now: dt.datetime | None = None
) -> Listing:
    """A page of the games waiting for ``user_id``, the turn that reached them longest ago first.
    Rows rather than models: at 50 games a page, making a model of each turn, table, seat and
    person cost more than the queries (bench/turns_scale.py)."""
    now = now or timezone.now()
    turns = (
        Turn.objects.filter(user_id=user_id)
        .order_by("since", "game_id")
        .values_list("game_id", "table_id", "seat", "deadline", "table__game", "table__clock_seconds")
    )
    found = Paginator(turns, per_page).get_page(number)
    rows = list(found.object_list)
    seats: dict[int, list[tuple[int, bool, str, str | None]]] = {}
    for table_id, seat_number, is_bot, bot_name, username in (
        Seat.objects.filter(table_id__in=[row[1] for row in rows])
        .order_by("table_id", "number")
        .values_list("table_id", "number", "is_bot", "bot_name", "user__username")
    ):
        seats.setdefault(table_id, []).append((seat_number, is_bot, bot_name, username))
    games = [
        Waiting(
            game_id,
            _game_name(slug),
            reverse("table", kwargs={"table_id": table_id}),
            [_opponent(*seat) for seat in seats.get(table_id, []) if seat[0] != number_to_act],
            clock_words.time_left(deadline, now=now),
            clock_words.clock_speed(clock),
        )
        for game_id, table_id, number_to_act, deadline, slug, clock in rows
    ]
    return Listing(games, found)


def _game_name(slug: str) -> str:
    return str(kinds.BY_SLUG[slug].name) if slug in kinds.BY_SLUG else slug


def _opponent(number: int, is_bot: bool, bot_name: str, username: str | None) -> Opponent:
    # As ``Seat.name`` says it, from the row rather than a model.
    if is_bot:
        return Opponent(bot_name or gettext("Bot %(n)d") % {"n": number + 1}, "")
    if username is None:
        return Opponent(gettext("Empty seat"), "")
    return Opponent(username, reverse("profile", kwargs={"username": username}))
