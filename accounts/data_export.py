"""Everything the site holds about a person, as one JSON document (issue 45): their profile,
ratings and rating history, notices, follows, blocks, invitations, chat messages and reports,
and every game they played as the site's own game file (``games.replays.replays.export``, the
format of a replay's download and of the import page: no second format).

The document is written a piece at a time (``chunks``): the games ``GAMES_A_READ`` at a time
along the index of the person's part in them, and every other list ``ROWS_A_READ`` rows at a
time by id, so a person with ten thousand games is sent without the whole file ever being held.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any

from asgiref.sync import sync_to_async
from django.db.models import Model, QuerySet
from django.urls import reverse
from django.utils import timezone

from accounts import closed_names
from accounts.models import Block, Follow, Notice, Rating, RatingChange, User
from games.core.players import Player
from games.models import Action, GameRecord, Invitation, Participation, Seat
from games.replays import replays
from games.stats import selectors
from talk.models import Message, Report

FORMAT = "capstone-account-data"
VERSION = 1
GAMES_A_READ = 200
ROWS_A_READ = 1000


def filename(user: User) -> str:
    return f"capstone-{user.pk}-data.json"


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _when(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _name(user: User | None) -> str | None:
    if user is None:
        return None
    return closed_names.shown() if user.closed_at is not None else user.username


def profile(user: User) -> dict[str, Any]:
    return {
        "username": user.username,
        "email": user.email,
        "bio": user.bio,
        "joined": _when(user.date_joined),
        "last_login": _when(user.last_login),
        "last_seen": _when(user.last_seen),
        "reminder_emails": user.reminder_emails,
        "turn_emails": user.turn_emails,
        "invite_policy": user.invite_policy,
        "hide_chat": user.hide_chat,
        "profile": reverse("profile", kwargs={"username": user.username}),
    }


def _rating(row: Rating) -> dict[str, Any]:
    return {
        "game": row.game,
        "rating": row.shown,
        "mu": row.mu,
        "sigma": row.sigma,
        "games": row.games,
        "provisional": row.provisional,
    }


def _rating_change(row: RatingChange) -> dict[str, Any]:
    return {
        "game": row.game,
        "game_id": row.record_id,
        "place": row.place,
        "before": row.before,
        "after": row.after,
        "mu_before": row.mu_before,
        "mu_after": row.mu_after,
        "sigma_after": row.sigma_after,
        "games_after": row.games_after,
        "at": _when(row.created_at),
    }


def _notice(row: Notice) -> dict[str, Any]:
    return {
        "kind": row.kind,
        "text": row.words,
        "url": row.url,
        "created_at": _when(row.created_at),
        "read_at": _when(row.read_at),
    }


def _following(row: Follow) -> dict[str, Any]:
    return {"username": _name(row.followed), "since": _when(row.created_at)}


def _follower(row: Follow) -> dict[str, Any]:
    return {"username": _name(row.follower), "since": _when(row.created_at)}


def _block(row: Block) -> dict[str, Any]:
    return {"username": _name(row.blocked), "since": _when(row.created_at)}


def _invitation(row: Invitation) -> dict[str, Any]:
    return {
        "table": row.table_id,
        "from": _name(row.from_user),
        "to": _name(row.to_user),
        "status": row.current_status(),
        "created_at": _when(row.created_at),
        "answered_at": _when(row.answered_at),
    }


def _message(row: Message) -> dict[str, Any]:
    return {
        "room": row.room,
        "table": row.table_id,
        "tournament": row.tournament_id,
        "text": row.text,
        "preset": row.preset,
        "hidden": row.hidden,
        "created_at": _when(row.created_at),
    }


def _report(row: Report) -> dict[str, Any]:
    return {
        "about": _name(row.reported),
        "message": row.message_id,
        "reason": row.reason,
        "details": row.details,
        "status": row.status,
        "created_at": _when(row.created_at),
    }


def _invitations() -> QuerySet[Invitation]:
    return Invitation.objects.select_related("from_user", "to_user")


Section = tuple[str, Callable[[User], "QuerySet[Any]"], Callable[[Any], dict[str, Any]]]

SECTIONS: list[Section] = [
    ("ratings", lambda u: Rating.objects.filter(user=u), _rating),
    ("rating_history", lambda u: RatingChange.objects.filter(user=u), _rating_change),
    ("notices", lambda u: Notice.objects.filter(user=u), _notice),
    ("following", lambda u: Follow.objects.filter(follower=u).select_related("followed"), _following),
    ("followers", lambda u: Follow.objects.filter(followed=u).select_related("follower"), _follower),
    # Whom the person blocked; never who blocked them (the blocked are not told, LP-10).
    ("blocked", lambda u: Block.objects.filter(blocker=u).select_related("blocked"), _block),
    ("invitations_sent", lambda u: _invitations().filter(from_user=u), _invitation),
    ("invitations_received", lambda u: _invitations().filter(to_user=u), _invitation),
    ("chat_messages", lambda u: Message.objects.filter(user=u), _message),
    ("reports_made", lambda u: Report.objects.filter(reporter=u).select_related("reported"), _report),
]


def _rows_after(queryset: QuerySet[Model], last: int | None) -> list[Model]:
    """The next ``ROWS_A_READ`` rows by id: a key, not an offset, so each read is as quick."""
    if last is not None:
        queryset = queryset.filter(pk__gt=last)
    return list(queryset.order_by("pk")[:ROWS_A_READ])


def withheld_games(user: User) -> dict[int, str]:
    """The person's games that no replay or download shows yet, even to them, with why (LP-6:
    a daily deal whose day is not over, an event's deal whose window is open). Found among the
    few games ``selectors`` hides from visitors."""
    hidden = selectors.hidden_from_public(user)
    if not hidden:
        return {}
    viewer = Player(user=user, token="")
    records = GameRecord.objects.filter(pk__in=hidden)
    reasons = {record.pk: selectors.replay_closed(record, viewer) for record in records}
    return {pk: reason for pk, reason in reasons.items() if reason}


def games_after(user: User, last: int, withheld: dict[int, str]) -> tuple[list[dict[str, Any]], int | None]:
    """The person's next ``GAMES_A_READ`` finished games by id after ``last``, each as its
    file, and the last id read (None when there are no more). Four queries a read: their
    parts, the records, the moves, the seats."""
    parts = list(
        Participation.objects.filter(user=user, record_id__gt=last)
        .order_by("record_id")
        .values_list("record_id", "seat", "won")[:GAMES_A_READ]
    )
    if not parts:
        return [], None
    ids = [record_id for record_id, _, _ in parts]
    records = GameRecord.objects.select_related("owner").in_bulk(ids)
    moves: dict[int, list[str]] = {record_id: [] for record_id in ids}
    actions = Action.objects.filter(game_id__in=ids).order_by("game_id", "seq")
    for record_id, text in actions.values_list("game_id", "text"):
        moves[record_id].append(text)
    seats: dict[int, list[Seat]] = {}
    at_tables = Seat.objects.filter(table__record_id__in=ids).select_related("user", "table")
    for seat in at_tables.order_by("number"):
        if seat.table.record_id is not None:
            seats.setdefault(seat.table.record_id, []).append(seat)
    rows = []
    for record_id, number, won in parts:
        record = records[record_id]
        entry: dict[str, Any] = {
            "id": record_id,
            "game": record.game,
            "kind": record.kind,
            "finished_at": _when(record.finished_at),
            "seat": number,
            "won": won,
            "replay": reverse("replay", kwargs={"game_id": record_id}),
        }
        if record_id in withheld:
            entry["file"] = None
            entry["withheld"] = withheld[record_id]
        else:
            entry["file"] = replays.export(_source(record, moves[record_id], seats.get(record_id, [])))
        rows.append(entry)
    return rows, ids[-1] if len(parts) == GAMES_A_READ else None


def _source(record: GameRecord, moves: list[str], seats: list[Seat]) -> replays.ReplaySource:
    """The replay's source as ``replays.from_record`` makes it, from rows read for many games
    at once."""
    if seats:
        players: tuple[str, ...] = tuple(seat.name for seat in seats)
    elif record.owner is not None and not record.at_table:
        players = (record.owner.username,)
    else:
        players = ()
    return replays.ReplaySource(
        key=f"game:{record.pk}",
        game=record.game,
        config=record.config,
        seed=record.seed,
        actions=tuple(moves),
        finished=record.is_over,
        names=list(players),
        title="",
        deck=record.deck,
        record=record,
        seats=seats,
        players=players,
    )


async def chunks(user: User) -> AsyncIterator[bytes]:
    """The document, a piece at a time: each database read in a thread of its own
    (``sync_to_async``), so the server's event loop streams the rest meanwhile."""
    head = {"format": FORMAT, "version": VERSION, "exported_at": _when(timezone.now())}
    yield (_json(head)[:-1] + ',"profile":' + _json(await sync_to_async(profile)(user))).encode()
    for name, rows_of, shape in SECTIONS:
        yield f',"{name}":['.encode()
        last: int | None = None
        first = True
        while True:
            rows = await sync_to_async(_rows_after)(rows_of(user), last)
            if not rows:
                break
            yield _joined((shape(row) for row in rows), first)
            first = False
            last = rows[-1].pk
            if len(rows) < ROWS_A_READ:
                break
        yield b"]"
    withheld = await sync_to_async(withheld_games)(user)
    yield b',"games":['
    after: int | None = 0
    first = True
    while after is not None:
        games, after = await sync_to_async(games_after)(user, after, withheld)
        if games:
            yield _joined(games, first)
            first = False
    yield b"]}"


def _joined(items: Iterable[dict[str, Any]], first: bool) -> bytes:
    text = ",".join(_json(item) for item in items)
    return (text if first else "," + text).encode()
