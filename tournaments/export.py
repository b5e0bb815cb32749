"""A tournament's results as data: JSON, and CSV for spreadsheets. Public facts only: who
entered, who met whom, the places, and each game's winner and replay; never a deal's seed
or a card (a replay shows those, to whom it may).

JSON, ``results.json``::

    {"tournament": {"id", "name", "game", "format", "best_of", "table_size", "third_place",
                    "rounds", "rated", "status", "started_at", "finished_at", "url"},
     "entrants": [{"seed", "name", "username", "rating", "place", "points", "buchholz",
                   "sonneborn_berger", "withdrawn"}],
     "matches": [{"round", "round_name", "side", "slot", "bye", "decided", "winner", "score",
                  "entrants": [{"seed", "name", "seat", "place", "games_won"}],
                  "games": [{"number", "status", "winner", "table_url", "replay_url"}]}]}

Seeds count from 1 as the page shows them; ``username`` is null for a bot; points and
tie-breaks are null in the elimination formats; ``winner`` is an entrant's seed (null for
a bye's opponent, a tie or a table's game); ``replay_url`` is null until the game is over.
Matches come winners' bracket first, then the losers', the finals and the third-place
match; in round robin and Swiss events, by round. ``results.csv`` is the entrants (one row
each, by place), ``matches.csv`` every match's entrants (one row per seat).

A solitaire event (TN-8) has no matches: its entrants carry ``total``, ``seconds``,
``deals_played`` and ``deals`` ([{"number", "score", "finished", "replay_url"}], the replay
once the window has closed), and ``matches.csv`` is one row per entrant and deal.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from django.urls import reverse

from accounts.closed_names import username
from tournaments.event_view import Event, GameLink, MatchView
from tournaments.models import Entry, Tournament
from tournaments.solitaire_events import DealResult, Standing

Absolute = Callable[[str], str]

ENTRANT_COLUMNS = (
    "place",
    "seed",
    "name",
    "username",
    "rating",
    "points",
    "buchholz",
    "sonneborn_berger",
    "withdrawn",
)
SEAT_COLUMNS = (
    "round",
    "round_name",
    "side",
    "slot",
    "bye",
    "seat",
    "seed",
    "name",
    "place",
    "games_won",
    "match_winner",
    "replays",
)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _seed(entry: Entry | None) -> int | None:
    return None if entry is None or entry.seed is None else entry.seed + 1


def _number(value: Fraction | None) -> float | None:
    return None if value is None else round(float(value), 4)


def entrants(event: Event) -> list[dict[str, Any]]:
    """Every entrant, by place (then seed), with points and tie-breaks where the format has them."""
    scored = {row.entry.pk: row for row in event.standings}
    order = sorted(event.entrants, key=lambda e: (e.place is None, e.place or 0, e.seed is None, e.seed or 0))
    out = []
    for entry in order:
        row = scored.get(entry.pk)
        out.append(
            {
                "seed": _seed(entry),
                "name": entry.name,
                "username": username(entry.user),
                "rating": None if entry.rating is None else round(entry.rating, 1),
                "place": entry.place,
                "points": _number(row.points) if row else None,
                "buchholz": _number(row.buchholz) if row else None,
                "sonneborn_berger": _number(row.sonneborn_berger) if row else None,
                "withdrawn": entry.withdrawn_at is not None,
            }
        )
    return out


def _game(game: GameLink, absolute: Absolute) -> dict[str, Any]:
    return {
        "number": game.number,
        "status": "finished" if game.finished else "playing" if game.live else "waiting",
        "winner": _seed(game.winner),
        "table_url": None if game.finished else absolute(game.url),
        "replay_url": absolute(game.url) if game.finished else None,
    }


def _match(view: MatchView, absolute: Absolute) -> dict[str, Any]:
    match = view.match
    winner = next((line.entry for line in view.seats if line.won), None)
    return {
        "round": match.round,
        "round_name": view.name,
        "side": match.side,
        "slot": match.slot,
        "bye": match.bye,
        "decided": match.decided,
        "winner": _seed(winner),
        "score": view.score or None,
        "entrants": [
            {
                "seed": _seed(line.entry),
                "name": line.entry.name,
                "seat": line.seat,
                "place": line.place,
                "games_won": line.wins if view.heads_up else None,
            }
            for line in view.seats
        ],
        "games": [_game(game, absolute) for game in view.games],
    }


def _when(moment: dt.datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _tournament(tournament: Tournament, absolute: Absolute, **facts: Any) -> dict[str, Any]:
    """The facts every tournament's results give, with its format's own ``facts``."""
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "game": tournament.game,
        "format": tournament.format,
        **facts,
        "status": tournament.status,
        "started_at": _when(tournament.started_at),
        "finished_at": _when(tournament.finished_at),
        "url": absolute(tournament.get_absolute_url()),
    }


def results(event: Event, absolute: Absolute) -> dict[str, Any]:
    tournament = event.tournament
    return {
        "tournament": _tournament(
            tournament,
            absolute,
            best_of=tournament.best_of,
            table_size=tournament.table_size,
            third_place=tournament.third_place,
            rounds=tournament.rounds,
            rated=tournament.rated,
        ),
        "entrants": entrants(event),
        "matches": [_match(view, absolute) for view in event.matches],
    }


def seat_rows(event: Event, absolute: Absolute) -> list[dict[str, Any]]:
    """One row per entrant of each match, for a spreadsheet."""
    rows = []
    for view in event.matches:
        replays = " ".join(absolute(game.url) for game in view.games if game.finished)
        for line in view.seats:
            rows.append(
                {
                    "round": view.match.round,
                    "round_name": view.name,
                    "side": view.match.side,
                    "slot": view.match.slot,
                    "bye": view.match.bye,
                    "seat": line.seat,
                    "seed": _seed(line.entry),
                    "name": line.entry.name,
                    "place": line.place,
                    "games_won": line.wins if view.heads_up else None,
                    "match_winner": line.won,
                    "replays": replays,
                }
            )
    return rows


def _cell(value: Any) -> str:
    """A CSV cell; text a spreadsheet would run as a formula is quoted out (OWASP's advice)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = str(value)
    return f"'{text}" if isinstance(value, str) and text.startswith(FORMULA_STARTS) else text


def to_csv(columns: tuple[str, ...], rows: Iterable[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row[column]) for column in columns])
    return out.getvalue()


# Solitaire events (TN-8): no matches, but each entrant's deals. A deal's replay is given once
# the event's window has closed (LP-6), as its page gives it.

SOLITAIRE_ENTRANT_COLUMNS = ("place", "name", "username", "total", "seconds", "deals_played", "scores")
SOLITAIRE_DEAL_COLUMNS = ("name", "username", "deal", "score", "finished", "replay")


def _solitaire_deal(deal: DealResult, public: bool, absolute: Absolute) -> dict[str, Any]:
    replay = public and deal.over and deal.record is not None
    return {
        "number": deal.number,
        "score": deal.score,
        "finished": deal.over,
        "replay_url": absolute(reverse("replay", args=[deal.record.pk])) if replay and deal.record else None,
    }


def solitaire_entrants(rows: list[Standing]) -> list[dict[str, Any]]:
    return [
        {
            "place": row.place,
            "name": row.entry.name,
            "username": username(row.entry.user),
            "total": row.total,
            "seconds": round(row.seconds),
            "deals_played": row.played,
            "scores": " ".join(str(deal.score) for deal in row.deals),
        }
        for row in rows
    ]


def solitaire_results(tournament: Tournament, rows: list[Standing], absolute: Absolute) -> dict[str, Any]:
    public = tournament.status == Tournament.Status.FINISHED
    return {
        "tournament": _tournament(
            tournament,
            absolute,
            deal_count=tournament.deal_count,
            window_minutes=tournament.window_minutes,
            closes_at=_when(tournament.closes_at),
        ),
        "entrants": [
            {**entrant, "deals": [_solitaire_deal(deal, public, absolute) for deal in row.deals]}
            for entrant, row in zip(solitaire_entrants(rows), rows, strict=True)
        ],
        "matches": [],
    }


def solitaire_deal_rows(
    tournament: Tournament, rows: list[Standing], absolute: Absolute
) -> list[dict[str, Any]]:
    public = tournament.status == Tournament.Status.FINISHED
    out = []
    for row in rows:
        for deal in row.deals:
            data = _solitaire_deal(deal, public, absolute)
            out.append(
                {
                    "name": row.entry.name,
                    "username": username(row.entry.user),
                    "deal": deal.number,
                    "score": deal.score,
                    "finished": deal.over,
                    "replay": data["replay_url"],
                }
            )
    return out
