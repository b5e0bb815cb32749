"""Reads about tournaments: the lists, round names, and one tournament as its page and its
exports show it (``event_view``).

``event`` reads a tournament in a fixed number of queries whatever its size (the entries
with their people, the matches, the seatings, the games with their tables: each once) and
puts the rest together in Python, so a 64-entrant event costs what a 4-entrant one does.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from django.db.models import Count, QuerySet
from django.urls import reverse

from games.models import Table
from tournaments import event_state, event_view, pairing
from tournaments.event_view import Event, GameLink, MatchView, SeatLine, StandingRow
from tournaments.formats import standings
from tournaments.formats.elimination import Side
from tournaments.formats.results import TableResult
from tournaments.models import Entry, Match, MatchGame, Seating, Tournament

FINISHED_SHOWN = 20
SIDE_ORDER = {side.value: n for n, side in enumerate(Side)}  # winners, losers, the finals, third place


def _listed(status: str) -> QuerySet[Tournament]:
    return Tournament.objects.filter(status=status).annotate(entrant_count=Count("entries"))


def tournament_lists() -> dict[str, list[Tournament]]:
    return {
        "upcoming": list(_listed(Tournament.Status.OPEN).order_by("starts_at")),
        "running": list(_listed(Tournament.Status.RUNNING).order_by("started_at")),
        "finished": list(_listed(Tournament.Status.FINISHED).order_by("-finished_at")[:FINISHED_SHOWN]),
    }


def round_label(tournament: Tournament, side: str, number: int) -> str:
    """A round's name as players say it: 'Semi-finals', "Losers' round 2", 'Round 3'."""
    if side == Side.LOSERS.value:
        return f"Losers' round {number}"
    if side == Side.GRAND_FINAL.value:
        return "Grand final"
    if side == Side.GRAND_FINAL_RESET.value:
        return "Grand final reset"
    if side == Side.THIRD_PLACE.value:
        return "Third place"
    if side == Side.WINNERS.value:
        name = pairing.round_name(number, tournament.rounds or number)
        if tournament.format == Tournament.Format.DOUBLE_ELIMINATION:
            return f"Winners' {name[0].lower()}{name[1:]}"
        return name
    return f"Round {number}"


def match_label(match: Match) -> str:
    """The round of ``match`` (its tournament loaded), for a table or a replay to name."""
    return round_label(match.tournament, match.side, match.round)


def entrants(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.select_related("user").order_by("seed", "joined_at"))


def event(tournament: Tournament) -> Event:
    entries = entrants(tournament)
    by_pk = {entry.pk: entry for entry in entries}
    matches = sorted(tournament.matches.all(), key=lambda m: (SIDE_ORDER.get(m.side, 0), m.round, m.slot))
    seats = event_state.seatings_by_match(tournament)
    for seated in seats.values():
        for seating in seated:
            seating.entry = by_pk[seating.entry_id]  # the one Entry, its user loaded
    games: dict[int, list[MatchGame]] = defaultdict(list)
    for game in (
        MatchGame.objects.filter(match__tournament=tournament).select_related("table").order_by("number")
    ):
        games[game.match_id].append(game)
    views = tuple(
        _match_view(tournament, match, seats.get(match.pk, []), games[match.pk], by_pk) for match in matches
    )
    table: tuple[StandingRow, ...] = ()
    if tournament.by_rounds:
        seeded = [entry for entry in entries if entry.seed is not None]
        table = event_view.standing_rows(seeded, event_state.round_results(matches, seats))
    return Event(tournament, tuple(entries), views, dict(seats), table)


def _match_view(
    tournament: Tournament,
    match: Match,
    seated: list[Seating],
    games: list[MatchGame],
    by_pk: dict[int, Entry],
) -> MatchView:
    points = _table_points(seated) if len(seated) > 2 else {}
    lines = tuple(
        SeatLine(
            entry=seating.entry,
            seat=seating.seat,
            place=seating.place,
            wins=sum(game.winner_id == seating.entry_id for game in games),
            won=match.winner_id == seating.entry_id,
            points=points.get(seating.entry_id),
        )
        for seating in seated
    )
    if points:  # a decided table reads best in its finishing order
        lines = tuple(sorted(lines, key=lambda line: line.place or 0))
    alone = tournament.best_of == 1 and len(games) == 1
    links = tuple(_game_link(game, by_pk, alone=alone, heads_up=len(seated) == 2) for game in games)
    return MatchView(
        match, round_label(tournament, match.side, match.round), lines, links, tournament.best_of
    )


def _game_link(game: MatchGame, by_pk: dict[int, Entry], *, alone: bool, heads_up: bool) -> GameLink:
    """``alone``: the match's one game so far, of a match of one game (no number needed)."""
    table = game.table
    live = table.status == Table.Status.PLAYING
    finished = table.status == Table.Status.FINISHED and table.record_id is not None
    url = reverse("replay", args=[table.record_id]) if finished else table.get_absolute_url()
    winner = by_pk.get(game.winner_id) if game.winner_id is not None else None
    if alone:
        text = "Watch live" if live else "Replay" if finished else "Table"
    else:
        tie = finished and heads_up and winner is None
        text = f"Game {game.number}{' live' if live else ' (tie)' if tie else ''}"
    return GameLink(game.number, url, live, finished, winner, text)


def _table_points(seated: list[Seating]) -> dict[int, Fraction]:
    if any(seating.place is None for seating in seated):
        return {}
    result = TableResult.from_places({s.entry_id: s.place for s in seated if s.place is not None})
    return standings.table_points(result)
