"""What a live table looks like to one person: the template context.

Everything about cards comes from ``engine.view(state, seat)`` for the person's own seat,
or ``seat=None`` for a spectator: the templates never see a state. The game's own part
comes from its spec (``games.kinds``); rendering and its cache are ``table_frames``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup

from accounts.models import Rating, User
from accounts.ratings import MODEL
from games import kinds
from games.engine import TABLE_SEAT
from games.kinds.spec import TableSpec
from games.kinds.triad import place_of
from games.kinds.words import ordinal, plural
from games.lru import Lru
from games.models import GameRecord, Seat, Table
from games.spectator_views import spectator_view
from games.started_seats import seats_of
from games.state_cache import current_state
from games.table_log import log_section


def _names_list(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _final_rows(seats: list[Seat], outcome: dict[str, Any]) -> dict[str, Any]:
    """The result of a finished table: the winner and each seat's place and chips or score,
    best first, and why the winner won when the totals alone do not say (a level score
    settled by a place tie-replay)."""
    totals = outcome.get("chips") or outcome.get("scores") or []
    names = {seat.number: seat.name for seat in seats}
    places = outcome.get("places") or []
    order = [n for n in outcome.get("ranking") or [] if n in names] or sorted(names)
    order += [n for n in sorted(names) if n not in order]
    winner = outcome.get("winner")
    if "chips" in outcome:
        unit, one = "chips", "chip"
    elif outcome.get("scoring") == "basic":
        unit, one = "hands won", "hand won"
    else:
        unit, one = "points", "point"
    note = ""
    if winner is not None and winner < len(totals):
        level = [
            names[n] for n in sorted(names) if n != winner and n < len(totals) and totals[n] == totals[winner]
        ]
        if level:
            tied = _names_list(level)
            note = f"level on {unit} with {tied}, {names[winner]} won the tie-replay for first place"
    if outcome.get("forfeit") is not None and outcome["forfeit"] in names:
        note = f"{names[outcome['forfeit']]} lost by forfeit"
    return {
        "winner": names.get(winner) if winner is not None else None,
        "rows": [
            {
                "name": names[n],
                "total": totals[n] if n < len(totals) else None,
                "amount": (f"{totals[n]} {one if totals[n] == 1 else unit}" if n < len(totals) else ""),
                "place": ordinal(places[n]) if n < len(places) and places[n] else "",
            }
            for n in order
        ],
        "unit": unit,
        "note": note,
    }


def _tie_words(view: Any, names: dict[int, str]) -> tuple[str, str]:
    """Who is tied and what for, in a chips game's tie: ``("Bot 2 and ann", "2nd place")``,
    or ``("", "")`` where the view names no tied seats (a game that ended level)."""
    tied = [names.get(seat, f"Seat {seat + 1}") for seat in getattr(view, "tied", ()) or ()]
    if not tied:
        return "", ""
    deal = view.deal if view.phase not in ("tie-replay", "place-tie") else view.phase
    if deal == "place-tie":
        return _names_list(tied), f"{ordinal(place_of(view.places, view.tied))} place"
    pot = getattr(view, "held_pot", 0) or getattr(view, "pot", 0)
    return _names_list(tied), f"the held pot of {pot}" if pot else "the pot"


def _tie_context(view: Any, seats: Sequence[Seat], info: TableSpec) -> dict[str, str]:
    """What the page says of a tie: ``tie_note`` while the table is about to deal the
    replay, ``replay_note`` while the replay is played."""
    names = {seat.number: seat.name for seat in seats}
    who, what = _tie_words(view, names)
    phase, word = getattr(view, "phase", ""), info.tie_replay_word
    if phase in ("tie-replay", "place-tie"):
        if who:
            return {"tie_note": f"Tie: {who} are level for {what}. They play a replay {word} for it"}
        return {"tie_note": f"Tie: the {word} ended level. A replay {word} decides it"}
    if who and getattr(view, "deal", "hand") != "hand":
        return {"replay_note": f"Replay {word}: {who} play for {what}"}
    return {}


def _last_hand(view: Any, seats: Sequence[Seat]) -> str:
    """A chips game's last finished deal in one sentence, ties and tie-replays named."""
    result = getattr(view, "last_result", None)
    if result is None or not hasattr(result, "winners"):
        return ""
    names = {seat.number: seat.name for seat in seats}
    winners = _names_list([names.get(seat, f"Seat {seat + 1}") for seat in result.winners])
    if result.deal == "place-tie":
        if result.tie:
            return f"Last hand (a replay for a place): {winners} tied again, so they play another"
        return f"Last hand (a replay for a place): {winners} won it and ranks above the others level on chips"
    if result.tie:
        held = view.held_pot or result.pot
        return f"Last hand: {winners} tied, so the pot of {held} is held for a replay hand"
    what = "the held pot" if result.deal == "tie-replay" else "the pot"
    head = "Last hand (the tie replay)" if result.deal == "tie-replay" else "Last hand"
    unseen = ", everyone else folded" if result.unseen else ""
    return f"{head}: {winners} won {what} of {plural(result.pot, 'chip')}{unseen}"


def _caption(cards: list[dict[str, Any]]) -> None:
    """A short caption under each face-up card, read at a glance ("Green 2", "Capstone"):
    the picture's own corner letters are too small on a phone."""
    for card in cards:
        label, code = card.get("label", ""), card.get("card", "")
        if not code:
            card["short"] = ""
            continue
        colour, _, _ = label.partition(",")
        digits = "".join(ch for ch in code if ch.isdigit())
        card["short"] = f"{colour.removeprefix('The ')} {digits}".strip()


def _showdown(view: Any, seats: Sequence[Seat]) -> list[dict[str, Any]]:
    """A game of paired hands (Pyramid Poker): who won each pair at the last showdown."""
    result = getattr(view, "last_result", None)
    pairs = getattr(result, "pairs", None)
    if result is None or pairs is None:
        return []
    names = {seat.number: seat.name for seat in seats}
    rows = []
    for k, pair in enumerate(pairs):
        hands = [
            {
                "name": names.get(seat, f"Seat {seat + 1}"),
                "hand": result.hands[seat][k].name or "",
                "won": pair == seat,
            }
            for seat in range(len(result.hands))
        ]
        winner = "Drawn" if pair is None else f"{names.get(pair, f'Seat {pair + 1}')} wins"
        rows.append({"number": k + 1, "hands": hands, "winner": winner})
    return rows


def _phase_name(spec: TableSpec, view: Any, seats: Sequence[Seat]) -> str:
    """The phase as the replay's standing words it ("Place tie replay next"), never an engine id."""
    names = [seat.name for seat in seats]
    row = next((row for row in spec.standing(view, names) if row["label"] == "Phase"), None)
    return str(row["value"]) if row else ""


RATING_ROWS = 256
_rating_rows_kept: Lru[tuple[int, bool], list[dict[str, Any]]] = Lru(RATING_ROWS)


def _rating_rows(table: Table, seats: list[Seat], record: GameRecord) -> list[dict[str, Any]]:
    """RT-3: each person's rating at a rated table, and once the game is over its change.

    Read once in a process while the game is played, and once when it is over: a game's
    changes are written with the move that ends it (RT-4). A player's rating moves during
    the game only if another game of theirs ends, and the table shows it from the end of this
    one, as it shows this game's change. So no later version of a game in play reads the
    ratings, and its frames are drawn without a read (``games.shared_frames``)."""
    if not table.rated:
        return []
    key = (record.pk, record.is_over)
    rows = _rating_rows_kept.find(key)
    if rows is None:
        rows = _read_rating_rows(table, seats, record)
        _rating_rows_kept.keep(key, rows)
    return rows


def _read_rating_rows(table: Table, seats: list[Seat], record: GameRecord) -> list[dict[str, Any]]:
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


def table_context(
    table: Table, user: User | None, error: str = "", *, seats: list[Seat] | None = None
) -> dict[str, Any]:
    """The table page's context for ``user``; ``seats`` if the caller has read them already."""
    seats = seats_of(table) if seats is None else seats
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
        "log_section": "",
    }
    record = table.record
    if record is None:
        context["announce"] = _seating_announcement(seats, me)
        return context
    engine = spec.engine
    state = current_state(record)
    view = spectator_view(engine, state) if me is None else engine.view(state, me)
    to_act = engine.current_player(state)
    page, area = _public_parts(spec, table, seats, record, state, to_act)
    context.update(
        record=record,
        version=record.version,
        deadline=record.turn_deadline,
        **page,
        **game_area(spec, view, seats, me, to_act, version=record.version, public=area),
    )
    context["announce"] = _game_announcement(context, seats)
    return context


PUBLIC_PARTS = 512
_public: Lru[tuple[int, int], tuple[dict[str, Any], dict[str, Any]]] = Lru(PUBLIC_PARTS)


def _public_parts(
    spec: TableSpec, table: Table, seats: list[Seat], record: GameRecord, state: Any, to_act: int | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """What a table's page shows alike to its seats and its spectators at the record's version,
    worked out once a version for them all: the page's part, and the game's (``public_area``
    of the spectators' view: it reads only what every viewer sees, LP-3). A started table's
    seats never change."""
    key = (record.pk, record.version)
    parts = _public.find(key)
    if parts is None:
        page = {
            "rating_rows": _rating_rows(table, seats, record),
            "final": _final_rows(seats, record.outcome or {}) if record.is_over else None,
            "log_section": log_section(record, [seat.name for seat in seats]),
            "bot_to_act": any(seat.number == to_act and seat.is_bot for seat in seats),
        }
        parts = page, public_area(spec, spectator_view(spec.engine, state), seats)
        _public.keep(key, parts)
    return parts


PAGE_KEYS = frozenset({"rating_rows", "final", "log_section", "bot_to_act"})
HTML_KEYS = frozenset({"info_bar", "showdown_part"})
"""The parts of a game's template drawn with the public part (``TableSpec.public_html``)."""
AREA_KEYS = frozenset({"showdown", "phase_name", "last_hand", "tie_note", "replay_note"}) | HTML_KEYS


def public_part_to_carry(table: Table, seats: list[Seat], record: GameRecord, state: Any) -> dict[str, Any]:
    """The version's public part (``_public_parts``) as a move's announcement carries it to the
    other processes at the table (``keep_carried_public_part``): what the channel layer's
    msgpack can carry, the log as text. Raises ``SynchronousOnlyOperation`` if it must read."""
    spec = kinds.get_table_game(table.game)
    page, area = _public_parts(spec, table, seats, record, state, spec.engine.current_player(state))
    return {
        "page": {**page, "log_section": str(page["log_section"])},
        "area": {key: str(value) if key in HTML_KEYS else value for key, value in area.items()},
    }


def keep_carried_public_part(record_id: int, version: int, carried: object) -> None:
    """The public part of the game's version as another process worked it out and its move's
    announcement carried it: this process then draws its sockets' frames without working it
    out again. Ignored unless it has the shape ``public_part_to_carry`` gives."""
    if _public.find((record_id, version)) is not None or not isinstance(carried, dict):
        return
    page, area = carried.get("page"), carried.get("area")
    if not isinstance(page, dict) or page.keys() != PAGE_KEYS or not isinstance(area, dict):
        return
    if not area.keys() <= AREA_KEYS or not isinstance(page["log_section"], str):
        return
    if not all(isinstance(area[key], str) for key in HTML_KEYS & area.keys()):
        return
    # Built there from the spectators' view, and so only from what every viewer may see (LP-3).
    page = {**page, "log_section": Markup(page["log_section"])}
    area = {key: Markup(value) if key in HTML_KEYS else value for key, value in area.items()}
    _public.keep((record_id, version), (page, area))


def _seating_announcement(seats: Sequence[Seat], me: int | None) -> str:
    """What a screen reader hears when an open table's seats change."""
    taken = [f"{seat.name} in seat {seat.number + 1}" for seat in seats if seat.taken]
    free = sum(not seat.taken for seat in seats)
    said = f"Seated: {_names_list(taken)}." if taken else "No one is seated."
    return said + (f" {plural(free, 'seat')} free." if free else " Every seat is taken: the game may start.")


def _game_announcement(context: dict[str, Any], seats: Sequence[Seat]) -> str:
    """The turn in a sentence, for the live region after the newest moves."""
    if context["final"] is not None:
        final = context["final"]
        return f"Game over. {final['winner']} wins." if final["winner"] else "Game over."
    if context.get("tie_note"):
        return str(context["tie_note"]) + "."
    if context["my_turn"]:
        return "Your turn."
    name = next((seat.name for seat in seats if seat.number == context["to_act"]), "")
    return f"{name} to play." if name else ""


def game_area(
    spec: TableSpec,
    view: Any,
    seats: Sequence[Any],
    me: int | None,
    to_act: int | None,
    *,
    live: bool = True,
    version: int = 0,
    public: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What a table game's template draws from one view (a seat's, a spectator's, or, in a
    finished game's replay, the whole state's); ``live=False`` shows no controls, and live ones
    send back ``version`` with a move. ``public`` is ``public_area`` of the same moment, if the
    caller keeps it."""
    area: dict[str, Any] = {
        "view": view,
        "to_act": to_act,
        "table_turn": to_act == TABLE_SEAT,
        "my_turn": live and me is not None and to_act == me,
        **spec.game_area(view, seats, me, to_act, live=live, version=version),
    }
    for row in area.get("seat_rows") or ():
        # The view keeps one count per draw; the seat shows the cards thrown in them all.
        row["discarded_count"] = sum(getattr(row["state"], "discarded", None) or ())
        _caption(row["cards"])
    _caption(area.get("my_cards") or [])
    _caption(area.get("board") or [])
    for shown in area.get("last_shown") or ():
        _caption(shown["cards"])
    area.update(public_area(spec, view, seats) if public is None else public)
    return area


def public_area(spec: TableSpec, view: Any, seats: Sequence[Any]) -> dict[str, Any]:
    """The words of the game's part that every viewer reads alike (the phase, the last
    showdown or hand, a tie), and the parts of its template drawn from them once for all."""
    words = {
        "showdown": _showdown(view, seats),
        "phase_name": _phase_name(spec, view, seats),
        "last_hand": _last_hand(view, seats),
        **_tie_context(view, seats, spec),
    }
    return {**words, **spec.public_html(view, seats, words)}
