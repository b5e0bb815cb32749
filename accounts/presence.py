"""Who is online, and at which table: a row per open notice socket (``Presence``).

Every page of a signed-in person holds the notice socket (static/js/notices.js), and a
table's page says which table it is in the socket's address (``?table=12``). The row is
written when the socket opens and deleted when it closes; the page's heartbeat refreshes it
at most once a ``HEARTBEAT``. A process that dies leaves its rows: they stop counting after
``STALE`` and a beat task (``forget_stale``) deletes them. Nothing here is written for a
move, and nothing about cards is kept.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from django.core.paginator import Page, Paginator
from django.db import IntegrityError
from django.db.models import Case, F, OuterRef, Q, Subquery, Value, When
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from accounts.models import Presence, User
from games.models import Table
from web.numbers import whole_number

logger = logging.getLogger(__name__)

HEARTBEAT = dt.timedelta(seconds=60)
"""A socket's row is refreshed at most this often, however often its page says it is there."""
STALE = dt.timedelta(minutes=3)
"""A row not refreshed for this long is a socket gone without closing (its process died)."""
FRIENDS_PER_PAGE = 50
MAX_TABLE_ID = 2**63 - 1


def table_in_query(query_string: bytes) -> int | None:
    """The table a socket's address names (``table=12``), or None: a missing, forged or
    malformed one means "not at a table", never an error."""
    try:
        values = parse_qs(query_string.decode("ascii"), max_num_fields=4).get("table", [])
    except (UnicodeDecodeError, ValueError):
        return None
    number = whole_number(values[0]) if len(values) == 1 else None
    return number if number is not None and 0 < number <= MAX_TABLE_ID else None


def connected(*, channel_name: str, user: User, table_id: int | None) -> None:
    try:
        here = {"user": user, "table_id": table_id, "seen_at": timezone.now()}
        Presence.objects.update_or_create(channel_name=channel_name, defaults=here)
    except IntegrityError:
        # The person's row went while their socket opened (an account deleted by staff):
        # nobody is there to be shown online.
        logger.info("no presence for user %s: the account is gone", user.pk)


def refreshed(*, channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).update(seen_at=timezone.now())


def disconnected(*, channel_name: str, user: User) -> None:
    now = timezone.now()
    Presence.objects.filter(channel_name=channel_name).delete()
    User.objects.filter(pk=user.pk).update(last_seen=now)


def forget_stale(now: dt.datetime | None = None) -> int:
    """Deletes the rows of sockets gone without closing, keeping when their people were last
    seen; the number deleted."""
    cutoff = (now or timezone.now()) - STALE
    stale = Presence.objects.filter(seen_at__lt=cutoff)
    latest = stale.filter(user=OuterRef("pk")).order_by("-seen_at").values("seen_at")[:1]
    User.objects.filter(pk__in=stale.values("user")).update(
        last_seen=Greatest(Coalesce(F("last_seen"), Subquery(latest)), Subquery(latest))
    )
    deleted, _rows = stale.delete()
    return deleted


def is_online(user: User, now: dt.datetime | None = None) -> bool:
    return Presence.objects.filter(user=user, seen_at__gte=(now or timezone.now()) - STALE).exists()


def shown_table(table: Table) -> bool:
    """Whether a friends page may say someone is at ``table``: a live public table only.
    The single place that decides it: a private table's address is for those it was given to
    (LP-9), and a friend's page must not hand it on."""
    return table.status == Table.Status.PLAYING and not table.is_private


@dataclass(frozen=True)
class Friend:
    person: User
    online: bool
    last_seen: dt.datetime | None
    table: Table | None


@dataclass(frozen=True)
class FriendsPage:
    friends: list[Friend]
    page: Page[Any]
    """For the pager: its numbers and links."""
    total: int


def friends(user: User, page_number: str | None, now: dt.datetime | None = None) -> FriendsPage:
    """The people ``user`` follows, online ones first (by name), then by when they were last
    seen, a page at a time; with the table each online one is at (if shown)."""
    cutoff = (now or timezone.now()) - STALE
    latest = Presence.objects.filter(user=OuterRef("pk")).order_by("-seen_at").values("seen_at")[:1]
    people = (
        User.objects.filter(followers__follower=user, is_active=True)
        .annotate(latest=Subquery(latest))
        .annotate(
            online=Case(When(latest__gte=cutoff, then=Value(True)), default=Value(False)),
            # Online people by name: ordered by their heartbeats, the list would shuffle.
            online_name=Case(When(latest__gte=cutoff, then=F("username")), default=Value("")),
            # A stale row still says when its person was last seen, until it is cleaned up.
            seen=Greatest(Coalesce(F("latest"), F("last_seen")), Coalesce(F("last_seen"), F("latest"))),
        )
        .order_by("-online", "online_name", F("seen").desc(nulls_last=True), "username")
        .only("username", "last_seen")
    )
    paginator = Paginator(people, FRIENDS_PER_PAGE)
    page = paginator.get_page(page_number)
    persons = list(page.object_list)
    tables = _tables_of([p.pk for p in persons if p.online], cutoff)
    return FriendsPage(
        friends=[
            Friend(person=p, online=p.online, last_seen=p.seen, table=tables.get(p.pk)) for p in persons
        ],
        page=page,
        total=paginator.count,
    )


def _tables_of(user_ids: list[int], cutoff: dt.datetime) -> dict[int, Table]:
    """The shown table each of these people has a page open at, the most recently seen."""
    if not user_ids:
        return {}
    rows = list(
        Presence.objects.filter(Q(user_id__in=user_ids), seen_at__gte=cutoff, table_id__isnull=False)
        .order_by("-seen_at")
        .values_list("user_id", "table_id")
    )
    found = Table.objects.filter(pk__in={table_id for _user, table_id in rows})
    shown = {table.pk: table for table in found if shown_table(table)}
    tables: dict[int, Table] = {}
    for user_id, table_id in rows:
        if table_id in shown:
            tables.setdefault(user_id, shown[table_id])
    return tables
