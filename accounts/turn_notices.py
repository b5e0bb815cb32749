"""LP-8: a person hears that a turn-based game reached them, and every open page's header keeps
the count of the games waiting for them ("Your turn (3)").

``games.live.turns`` calls these after the move (or the deal) commits, so the move's own
transaction writes nothing more for them: a notice is a convenience, and a failure here is
logged and leaves the move as it is (``on_commit(..., robust=True)``).

One notice per person and game: a new turn in the same game replaces the last one (deleted and
made again, so that a page that showed the old one shows the new as new), and it is read when
the person opens the table (``notices.about_table``, as every notice of a table) or once the
turn has passed to another person at that table. A person whose page is at that table now sees
the turn there, and gets no notice.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection

from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from accounts import notices, presence
from accounts.models import Notice, Presence
from games.core.announcements import send_to_group
from games.models import Seat, Table, Turn


def key(game_id: int) -> str:
    """The one notice a person has for a game's turn."""
    return f"your-turn:{game_id}"


def turn_reached(
    *, table_id: int, game_id: int, user_id: int, since: dt.datetime, people: Collection[int]
) -> None:
    """After commit: the game's turn reached ``user_id`` at ``since`` (a fresh ``Turn`` row).
    Everyone seated (``people``) hears their count; the person to act gets the notice, unless
    the game moved on meanwhile (another process's move committed after this one)."""
    with transaction.atomic():
        if Turn.objects.filter(game_id=game_id, user_id=user_id, since=since).exists():
            _tell(table_id, game_id, user_id)
    counts_changed(people)


def _tell(table_id: int, game_id: int, user_id: int) -> None:
    about = notices.about_table(table_id)
    # The others at the table have moved (or their clocks did): their turn notices are done.
    notices.settle(about=about, kind=Notice.Kind.YOUR_TURN, but_user_id=user_id)
    if Presence.objects.filter(
        user_id=user_id, table_id=table_id, seen_at__gte=timezone.now() - presence.STALE
    ).exists():
        return
    seats = list(Seat.objects.filter(table_id=table_id).select_related("user").order_by("number"))
    person = next((seat.user for seat in seats if seat.user_id == user_id), None)
    if person is None:
        return
    table = Table(pk=table_id, game=Table.objects.values_list("game", flat=True).get(pk=table_id))
    others = ", ".join(seat.name for seat in seats if seat.user_id != user_id)
    Notice.objects.filter(user_id=user_id, key=key(game_id)).delete()
    notices.notify(
        user=person,
        kind=Notice.Kind.YOUR_TURN,
        params={"others": others, "game": table.game},
        url=table.get_absolute_url(),
        key=key(game_id),
        about=about,
    )


def counts_changed(user_ids: Collection[int]) -> None:
    """Each person's open pages hear how many games now wait for them (one query for all)."""
    if not user_ids or get_channel_layer() is None:
        return
    counts = dict(
        Turn.objects.filter(user_id__in=user_ids)
        .values("user_id")
        .annotate(n=Count("pk"))
        .values_list("user_id", "n")
    )
    for user_id in user_ids:
        send_to_group(notices.group_name(user_id), {"type": "turns.count", "count": counts.get(user_id, 0)})
