"""What a live table looks like to one person: the template context.

Everything about cards comes from ``engine.view(state, seat)`` for the person's own seat,
or ``seat=None`` for a spectator: the templates never see a state. A started table's context
comes from its snapshot (``games.core.snapshots``), and needs no read; what every viewer of a
version sees alike is worked out once, in the snapshot. The game's own part comes from its
spec (``games.kinds``); rendering is ``table_frames``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import get_language, gettext, ngettext, pgettext

from accounts.models import User
from games import kinds
from games.core import snapshots
from games.core.move_path import seat_of
from games.core.snapshots import Snapshot
from games.engine import TABLE_SEAT
from games.kinds.blocks import poker_hand
from games.kinds.spec import TableSpec
from games.kinds.triad import place_of, triad_card_name
from games.kinds.words import and_list, ordinal, seat_name
from games.live import clock_words, turn_clocks
from games.live.table_log import log_section
from games.models import Seat, Table


def _names_list(names: Sequence[str]) -> str:
    return and_list(names)


def _amount(total: int, outcome: dict[str, Any]) -> str:
    """A seat's total at the end, with its unit: "3 chips", "1 hand won", "7 points"."""
    if "chips" in outcome:
        return ngettext("%(count)s chip", "%(count)s chips", total) % {"count": total}
    if outcome.get("scoring") == "basic":
        return ngettext("%(count)s hand won", "%(count)s hands won", total) % {"count": total}
    return ngettext("%(count)s point", "%(count)s points", total) % {"count": total}


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
        unit = gettext("chips")
        level_note = gettext("level on chips with %(names)s, %(winner)s won the tie-replay for first place")
    elif outcome.get("scoring") == "basic":
        unit = gettext("hands won")
        level_note = gettext(
            "level on hands won with %(names)s, %(winner)s won the tie-replay for first place"
        )
    else:
        unit = gettext("points")
        level_note = gettext("level on points with %(names)s, %(winner)s won the tie-replay for first place")
    note = ""
    if winner is not None and winner < len(totals):
        level = [
            names[n] for n in sorted(names) if n != winner and n < len(totals) and totals[n] == totals[winner]
        ]
        if level:
            note = level_note % {"names": _names_list(level), "winner": names[winner]}
    if outcome.get("forfeit") is not None and outcome["forfeit"] in names:
        note = gettext("%(name)s lost by forfeit") % {"name": names[outcome["forfeit"]]}
    return {
        "winner": names.get(winner) if winner is not None else None,
        "rows": [
            {
                "name": names[n],
                "total": totals[n] if n < len(totals) else None,
                "amount": _amount(totals[n], outcome) if n < len(totals) else "",
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
    tied = [names.get(seat) or seat_name([], seat) for seat in getattr(view, "tied", ()) or ()]
    if not tied:
        return "", ""
    deal = view.deal if view.phase not in ("tie-replay", "place-tie") else view.phase
    if deal == "place-tie":
        place = ordinal(place_of(view.places, view.tied))
        return _names_list(tied), gettext("%(place)s place") % {"place": place}
    pot = getattr(view, "held_pot", 0) or getattr(view, "pot", 0)
    return _names_list(tied), gettext("the held pot of %(pot)s") % {"pot": pot} if pot else gettext("the pot")


def _tie_context(view: Any, seats: Sequence[Seat], info: TableSpec) -> dict[str, str]:
    """What the page says of a tie: ``tie_note`` while the table is about to deal the
    replay, ``replay_note`` while the replay is played."""
    names = {seat.number: seat.name for seat in seats}
    who, what = _tie_words(view, names)
    phase, hand = getattr(view, "phase", ""), info.tie_replay_word == "hand"
    said = {"names": who, "what": what}
    if phase in ("tie-replay", "place-tie"):
        if who:
            if hand:
                return {
                    "tie_note": gettext(
                        "Tie: %(names)s are level for %(what)s. They play a replay hand for it"
                    )
                    % said
                }
            return {
                "tie_note": gettext("Tie: %(names)s are level for %(what)s. They play a replay game for it")
                % said
            }
        if hand:
            return {"tie_note": gettext("Tie: the hand ended level. A replay hand decides it")}
        return {"tie_note": gettext("Tie: the game ended level. A replay game decides it")}
    if who and getattr(view, "deal", "hand") != "hand":
        if hand:
            return {"replay_note": gettext("Replay hand: %(names)s play for %(what)s") % said}
        return {"replay_note": gettext("Replay game: %(names)s play for %(what)s") % said}
    return {}


def _last_hand(view: Any, seats: Sequence[Seat]) -> str:
    """A chips game's last finished deal in one sentence, ties and tie-replays named."""
    result = getattr(view, "last_result", None)
    if result is None or not hasattr(result, "winners"):
        return ""
    names = {seat.number: seat.name for seat in seats}
    winners = _names_list([names.get(seat) or seat_name([], seat) for seat in result.winners])
    said = {"names": winners, "pot": result.pot}
    if result.deal == "place-tie":
        if result.tie:
            return (
                gettext("Last hand (a replay for a place): %(names)s tied again, so they play another") % said
            )
        return (
            gettext(
                "Last hand (a replay for a place): %(names)s won it and ranks above the others level on chips"
            )
            % said
        )
    if result.tie:
        said["pot"] = view.held_pot or result.pot
        return gettext("Last hand: %(names)s tied, so the pot of %(pot)s is held for a replay hand") % said
    if result.deal == "tie-replay":
        if result.unseen:
            return (
                ngettext(
                    "Last hand (the tie replay): %(names)s won the held pot of %(pot)s chip, "
                    "everyone else folded",
                    "Last hand (the tie replay): %(names)s won the held pot of %(pot)s chips, "
                    "everyone else folded",
                    result.pot,
                )
                % said
            )
        return (
            ngettext(
                "Last hand (the tie replay): %(names)s won the held pot of %(pot)s chip",
                "Last hand (the tie replay): %(names)s won the held pot of %(pot)s chips",
                result.pot,
            )
            % said
        )
    if result.unseen:
        return (
            ngettext(
                "Last hand: %(names)s won the pot of %(pot)s chip, everyone else folded",
                "Last hand: %(names)s won the pot of %(pot)s chips, everyone else folded",
                result.pot,
            )
            % said
        )
    return (
        ngettext(
            "Last hand: %(names)s won the pot of %(pot)s chip",
            "Last hand: %(names)s won the pot of %(pot)s chips",
            result.pot,
        )
        % said
    )


def _short_colour(colour: str) -> str:
    """A Triad colour as a card's caption says it: short, to fit under the card on a phone."""
    if colour == "P":
        return pgettext("a Triad card's caption", "Purple")
    if colour == "G":
        return pgettext("a Triad card's caption", "Green")
    return pgettext("a Triad card's caption", "Orange")


def _caption(cards: list[dict[str, Any]]) -> None:
    """A short caption under each face-up card, read at a glance ("Green 2", "Capstone"):
    the picture's own corner letters are too small on a phone."""
    for card in cards:
        code = card.get("card", "")
        if not code:
            card["short"] = ""
        elif code == "X":
            card["short"] = triad_card_name(code)
        else:
            card["short"] = f"{_short_colour(code[0])} {code[1]}"


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
                "name": names.get(seat) or seat_name([], seat),
                "hand": poker_hand(result.hands[seat][k].name),
                "won": pair == seat,
            }
            for seat in range(len(result.hands))
        ]
        if pair is None:
            winner = pgettext("a pair of hands", "Drawn")
        else:
            winner = gettext("%(name)s wins") % {"name": names.get(pair) or seat_name([], pair)}
        rows.append({"number": k + 1, "hands": hands, "winner": winner})
    return rows


def _phase_name(spec: TableSpec, view: Any, seats: Sequence[Seat]) -> str:
    """The phase as the replay's standing words it ("Place tie replay next"), never an engine id."""
    names = [seat.name for seat in seats]
    label = gettext("Phase")  # the standing's rows are worded in the active language
    row = next((row for row in spec.standing(view, names) if row["label"] == label), None)
    return str(row["value"]) if row else ""


def table_context(
    table: Table, user: User | None, error: str = "", *, snapshot: Snapshot | None = None
) -> dict[str, Any]:
    """The table page's context for ``user``: a started table's from its ``snapshot`` (built
    from ``table`` if not given: that reads), an open table's from its seats (read)."""
    if table.record is not None and snapshot is None:
        snapshot = snapshots.of_table(table)
    if snapshot is not None:
        assert snapshot.table is not None
        table, seats = snapshot.table, snapshot.seats
    else:
        seats = snapshots.read_seats(table)
    me = seat_of(seats, user)
    spec = kinds.get_table_game(table.game)
    context: dict[str, Any] = {
        "table": table,
        # RT-5: a game played out unrated no longer says "Rated" either.
        "rates": table.rates_with(seats) and not (snapshot is not None and snapshot.unrated_by),
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
        "tournament": None,
    }
    if snapshot is None:
        context["announce"] = _seating_announcement(seats, me)
        return context
    record, state = snapshot.record, snapshot.state
    engine = spec.engine
    view = snapshots.spectators_view(snapshot) if me is None else engine.view(state, me)
    to_act = engine.current_player(state)
    page, area = _public_parts(spec, snapshot, to_act)
    # LP-8: a turn-based turn says what is left of it in words, drawn now (no countdown runs
    # for days, and the page needs no socket to say it); a live one counts down (table.js).
    turn_based = turn_clocks.is_turn_based(table.clock_seconds)
    context.update(
        record=record,
        version=record.version,
        deadline=record.turn_deadline,
        turn_based=turn_based,
        time_left=clock_words.time_left(record.turn_deadline) if turn_based and not record.is_over else "",
        tournament=snapshot.tournament,
        **page,
        **game_area(spec, view, seats, me, to_act, version=record.version, public=area),
    )
    context["announce"] = _game_announcement(context, seats)
    return context


def _public_parts(
    spec: TableSpec, snapshot: Snapshot, to_act: int | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """What a table's page shows alike to its seats and its spectators at the snapshot's
    version, worked out once for them all: the page's part, and the game's (``public_area``
    of the spectators' view: it reads only what every viewer sees, LP-3)."""
    key = ("public", get_language())  # worded: drawn once per language
    parts: tuple[dict[str, Any], dict[str, Any]] | None = snapshot.memo.get(key)
    if parts is None:
        seats, record = snapshot.seats, snapshot.record
        page = {
            "rating_rows": snapshot.rating_rows,
            "not_rated": _not_rated(snapshot.unrated_by),
            "final": _final_rows(seats, record.outcome or {}) if record.is_over else None,
            "log_section": log_section(snapshot),
            "bot_to_act": any(seat.number == to_act and seat.is_bot for seat in seats),
        }
        parts = page, public_area(spec, snapshots.spectators_view(snapshot), seats)
        snapshot.memo[key] = parts
    return parts


def _not_rated(names: Sequence[str]) -> str:
    """RT-5: why a game its table would have rated was played out unrated, in a line."""
    if not names:
        return ""
    said = gettext("Not rated: %(names)s had left, and the clocks played it out.")
    return said % {"names": _names_list(names)}


def _seating_announcement(seats: Sequence[Seat], me: int | None) -> str:
    """What a screen reader hears when an open table's seats change."""
    taken = [
        gettext("%(name)s in seat %(number)s") % {"name": seat.name, "number": seat.number + 1}
        for seat in seats
        if seat.taken
    ]
    free = sum(not seat.taken for seat in seats)
    said = (
        gettext("Seated: %(names)s.") % {"names": _names_list(taken)}
        if taken
        else gettext("No one is seated.")
    )
    if free:
        return said + " " + ngettext("%(count)s seat free.", "%(count)s seats free.", free) % {"count": free}
    return said + " " + gettext("Every seat is taken: the game may start.")


def _game_announcement(context: dict[str, Any], seats: Sequence[Seat]) -> str:
    """The turn in a sentence, for the live region after the newest moves."""
    if context["final"] is not None:
        final = context["final"]
        if final["winner"]:
            return gettext("Game over. %(name)s wins.") % {"name": final["winner"]}
        return gettext("Game over.")
    if context.get("tie_note"):
        return str(context["tie_note"]) + "."
    if context["my_turn"]:
        return gettext("Your turn.")
    name = next((seat.name for seat in seats if seat.number == context["to_act"]), "")
    return gettext("%(name)s to play.") % {"name": name} if name else ""


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
