"""What a live table looks like to one person: the template context.

Everything about cards comes from ``engine.view(state, seat)`` for the person's own seat,
or ``seat=None`` for a spectator: the templates never see a state. The game's own part
comes from its spec (``games.kinds``); rendering and its cache are ``table_frames``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from accounts.models import Rating, User
from accounts.ratings import MODEL
from games import kinds
from games.engine import TABLE_SEAT
from games.kinds.spec import TableSpec
from games.models import GameRecord, Seat, Table
from games.state_cache import current_state


def _final_rows(seats: list[Seat], outcome: dict[str, Any]) -> dict[str, Any]:
    """The result of a finished table: the winner and each seat's chips (Triad) or score."""
    totals = outcome.get("chips") or outcome.get("scores") or []
    names = {seat.number: seat.name for seat in seats}
    return {
        "winner": names.get(outcome["winner"]) if outcome.get("winner") is not None else None,
        "rows": [{"name": names[n], "total": totals[n] if n < len(totals) else None} for n in sorted(names)],
        "unit": "chips" if "chips" in outcome else "points",
    }


def _rating_rows(table: Table, seats: list[Seat], record: GameRecord) -> list[dict[str, Any]]:
    """RT-3: each person's rating at a rated table, and once the game is over its change."""
    if not table.rated:
        return []
    users = [seat.user_id for seat in seats if seat.user_id is not None]
    current = {row.user_id: row for row in Rating.objects.filter(game=table.game, user_id__in=users)}
    changes = {row.user_id: row for row in record.rating_changes.all()} if record.is_over else {}
    rows = []
    for seat in seats:
        if seat.user_id is None:
            continue
        change, rating = changes.get(seat.user_id), current.get(seat.user_id)
        shown = change.shown_after if change else rating.shown if rating else f"{round(MODEL.rating().mu)}?"
        rows.append({"name": seat.name, "shown": shown, "delta": change.delta if change else None})
    return rows


def my_seat(seats: list[Seat], user: User | None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return next((seat.number for seat in seats if seat.user_id == user.pk), None)


def table_seats(table: Table) -> list[Seat]:
    return list(table.seats.select_related("user"))


def table_context(
    table: Table, user: User | None, error: str = "", *, seats: list[Seat] | None = None
) -> dict[str, Any]:
    """The table page's context for ``user``; ``seats`` if the caller has read them already."""
    seats = table_seats(table) if seats is None else seats
    me = my_seat(seats, user)
    spec = kinds.get_table_game(table.game)
    context: dict[str, Any] = {
        "table": table,
        "info": spec,
        "seats": seats,
        "me": me,
        "error": error,
        "is_open": table.status == Table.Status.OPEN,
        "can_start": me is not None and all(s.taken for s in seats),
        "has_empty_seat": any(not s.taken for s in seats),
        "user_seated": me is not None,
        "version": None,
        "view": None,
    }
    record = table.record
    if record is None:
        return context
    engine = spec.engine
    state = current_state(record)
    view = engine.view(state, me)
    to_act = engine.current_player(state)
    context.update(
        rating_rows=_rating_rows(table, seats, record),
        record=record,
        version=record.version,
        deadline=record.turn_deadline,
        final=_final_rows(seats, record.outcome or {}) if record.is_over else None,
        **game_area(spec, view, seats, me, to_act),
    )
    return context


def game_area(
    spec: TableSpec, view: Any, seats: Sequence[Any], me: int | None, to_act: int | None, *, live: bool = True
) -> dict[str, Any]:
    """What a table game's template draws from one view (a seat's, a spectator's, or, in a
    finished game's replay, the whole state's); ``live=False`` shows no controls."""
    return {
        "view": view,
        "to_act": to_act,
        "table_turn": to_act == TABLE_SEAT,
        "my_turn": live and me is not None and to_act == me,
        **spec.game_area(view, seats, me, to_act, live=live),
    }
