"""What a live table looks like to one person: the template context and its rendering.

Everything about cards comes from ``engine.view(state, seat)`` for the person's own seat,
or ``seat=None`` for a spectator: the templates never see a state.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.templatetags.static import static

from accounts.models import User
from games.catalogue import GAMES_BY_SLUG
from games.engine import TABLE_SEAT, get_engine
from games.models import Seat, Table
from games.presenters import card_name
from games.state_cache import current_state

TRIAD_COLOURS = {"P": "Purple", "G": "Green", "O": "Orange"}
TRIAD_LEVELS = {"1": "first level", "2": "second level", "3": "third level"}
BLOCK_ROWS = 8


def triad_card(card: str | None) -> dict[str, str]:
    if card is None:
        return {"image": static("cards/triad/back.svg"), "label": "face-down card", "card": ""}
    label = "The Capstone" if card == "X" else f"{TRIAD_COLOURS[card[0]]}, {TRIAD_LEVELS[card[1]]}"
    return {"image": static(f"cards/triad/{card}.svg"), "label": label, "card": card}


def block_face(card: str | None) -> dict[str, str]:
    if card is None:
        return {"image": static("cards/blocks/back.svg"), "label": "hidden block", "card": ""}
    label = "Joker" if card.startswith("X") else card_name(card)
    return {"image": static(f"cards/std/{card}.svg"), "label": label, "card": card}


def compose_action(message: dict[str, Any]) -> str:
    """The action text of a ``ws-send`` form: ``action``, plus ``amount`` (bets) or ``discard``."""
    action = message.get("action")
    if not isinstance(action, str) or not action:
        raise ValueError("no action named")
    if action == "discard":
        cards = message.get("discard") or []
        if isinstance(cards, str):
            cards = [cards]
        if not all(isinstance(c, str) for c in cards):
            raise ValueError("discard lists card texts")
        return "discard " + (" ".join(cards) if cards else "-")
    if "amount" in message:
        return f"{action} {int(message['amount'])}"
    return action


def _seat_rows(seats: list[Seat], view: dict[str, Any] | None) -> list[dict[str, Any]]:
    public = {entry["seat"]: entry for entry in (view or {}).get("seats", [])}
    rows = []
    for seat in seats:
        entry = public.get(seat.number, {})
        cards = entry.get("cards")
        rows.append(
            {
                "seat": seat,
                "state": entry,
                "cards": [triad_card(c) for c in cards]
                if cards
                else [triad_card(None)] * entry.get("card_count", 0),
            }
        )
    return rows


def _blocks_grid(view: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The pyramid's rows, top row first, each place with what this viewer may know of it."""
    rows: dict[int, list[dict[str, Any]]] = {}
    for place in view["pyramid"]:
        face = place["face"] if place["filled"] else None
        rows.setdefault(place["row"], []).append(
            {
                **place,
                **({"block": block_face(face)} if place["filled"] else {}),
                "text": f"{place['row']},{place['index']}",
            }
        )
    return [rows[r] for r in sorted(rows, reverse=True)]


def _final_rows(seats: list[Seat], outcome: dict[str, Any]) -> dict[str, Any]:
    """The result of a finished table: the winner and each seat's chips (Triad) or score."""
    totals = outcome.get("chips") or outcome.get("scores") or []
    names = {seat.number: seat.name for seat in seats}
    return {
        "winner": names.get(outcome.get("winner")),
        "rows": [{"name": names[n], "total": totals[n] if n < len(totals) else None} for n in sorted(names)],
        "unit": "chips" if "chips" in outcome else "points",
    }


def _my_seat(seats: list[Seat], user: User | None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return next((seat.number for seat in seats if seat.user_id == user.pk), None)


def table_context(table: Table, user: User | None, error: str = "") -> dict[str, Any]:
    seats = list(table.seats.select_related("user"))
    me = _my_seat(seats, user)
    context: dict[str, Any] = {
        "table": table,
        "info": GAMES_BY_SLUG[table.game],
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
        context["seat_rows"] = _seat_rows(seats, None)
        return context
    engine = get_engine(record.game)
    state = current_state(record)
    view = engine.view(state, me)
    to_act = engine.current_player(state)
    context.update(
        record=record,
        version=record.version,
        deadline=record.turn_deadline,
        final=_final_rows(seats, record.outcome) if record.is_over else None,
        **game_area(table.game, view, seats, me, to_act),
    )
    return context


def game_area(
    game: str,
    view: dict[str, Any],
    seats: list[Seat],
    me: int | None,
    to_act: int | None,
    *,
    live: bool = True,
) -> dict[str, Any]:
    """What the Triad or Pyramid Poker templates draw from one view (a seat's, a spectator's,
    or, in a finished game's replay, the whole state's); ``live=False`` shows no controls."""
    legal = (view.get("legal") or []) if live else []
    context: dict[str, Any] = {
        "view": view,
        "to_act": to_act,
        "table_turn": to_act == TABLE_SEAT,
        "my_turn": live and me is not None and to_act == me,
        "seat_rows": _seat_rows(seats, view),
        "legal": legal,
    }
    if game == "triad":
        context["my_cards"] = [triad_card(c) for c in view.get("cards") or []]
        context["bets"] = [a for a in legal if a.startswith(("bet ", "raise "))]
        context["simple_actions"] = [a for a in legal if a in ("check", "call", "fold", "show")]
        context["can_discard"] = any(a.startswith("discard") for a in legal)
        names = {seat.number: seat.name for seat in seats}
        last = view.get("last_result") or {}
        context["last_shown"] = [
            {
                "name": names[hand["seat"]],
                "hand_name": hand["name"],
                "cards": [triad_card(c) for c in hand["cards"]],
            }
            for hand in last.get("shown", [])
        ]
        return context
    context["grid"] = _blocks_grid(view)
    context["hands"] = [
        [{"name": hand["name"], "blocks": [block_face(c) for c in hand["cards"]]} for hand in seat_hands]
        for seat_hands in view["hands"]
    ]
    holding = view.get("holding")
    if holding and holding.get("face"):
        taker = next((seat.name for seat in seats if seat.number == holding["seat"]), "")
        context["holding"] = {
            **block_face(holding["face"]),
            "taker": "You" if holding["seat"] == me else taker,
        }
    else:
        context["holding"] = None
    context["next_block"] = block_face(view["next_block"]) if live and view.get("next_block") else None
    context["revealed"] = [block_face(c) for c in view.get("revealed") or []]
    if view.get("scores"):
        context["score_rows"] = [{"name": seat.name, "score": view["scores"][seat.number]} for seat in seats]
    return context


_frames: OrderedDict[tuple[int, int, int | None], str] = OrderedDict()
FRAME_CACHE_SIZE = 512


def render_table(table_id: int, user: User | None, error: str = "") -> tuple[str, int | None]:
    """The table's live part as HTML for one person, and the game version it shows.

    A started table's frame depends only on its version and the viewer's seat, so the
    frame built for one socket serves every other socket of the same seat (and every
    spectator) in this process; versions only grow, so a kept frame is never stale.
    """
    table = Table.objects.select_related("record").get(pk=table_id)
    if table.record is None or error:
        context = table_context(table, user, error)
        context["user"] = user
        return render_to_string("games/partials/table_live.html", context), context["version"]
    seats = list(table.seats.select_related("user"))
    key = (table.record_id, table.record.version, _my_seat(seats, user))
    frame = _frames.get(key)
    if frame is None:
        context = table_context(table, user)
        context["user"] = user
        frame = render_to_string("games/partials/table_live.html", context)
        _frames[key] = frame
        while len(_frames) > FRAME_CACHE_SIZE:
            _frames.popitem(last=False)
    return frame, table.record.version


def lobby_tables() -> dict[str, list[Table]]:
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    recent = Table.objects.prefetch_related(seats).order_by("-created_at")
    return {
        "open_tables": list(recent.filter(status=Table.Status.OPEN)[:50]),
        "live_tables": list(
            recent.filter(status=Table.Status.PLAYING).select_related("tournament_match__tournament")[:50]
        ),
    }


def render_lobby() -> str:
    return render_to_string("games/partials/lobby_tables.html", lobby_tables())
