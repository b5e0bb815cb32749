"""Reads about tournaments: the lists, a bracket by rounds, standings, one's current match."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, QuerySet

from accounts.models import User
from games.models import Table
from tournaments import pairing, scoring
from tournaments.models import Entry, Match, Tournament

FINISHED_SHOWN = 20


def _listed(status: str) -> QuerySet[Tournament]:
    return Tournament.objects.filter(status=status).annotate(entrant_count=Count("entries"))


def tournament_lists() -> dict[str, list[Tournament]]:
    return {
        "upcoming": list(_listed(Tournament.Status.OPEN).order_by("starts_at")),
        "running": list(_listed(Tournament.Status.RUNNING).order_by("started_at")),
        "finished": list(_listed(Tournament.Status.FINISHED).order_by("-finished_at")[:FINISHED_SHOWN]),
    }


@dataclass(frozen=True)
class BracketRound:
    number: int
    name: str
    matches: list[Match]


def bracket(tournament: Tournament) -> list[BracketRound]:
    """Every match by round, first round first, with entrants, table and game loaded."""
    if tournament.rounds is None:
        return []
    matches = tournament.matches.select_related(
        "first__user", "second__user", "winner__user", "table__record"
    ).order_by("round", "slot")
    by_round: dict[int, list[Match]] = {number: [] for number in range(1, tournament.rounds + 1)}
    for match in matches:
        by_round[match.round].append(match)
    return [
        BracketRound(number, pairing.round_name(number, tournament.rounds), found)
        for number, found in by_round.items()
    ]


def played_matches(rounds: list[BracketRound]) -> list[Match]:
    """The matches whose game is over, latest round first: the tournament's replays."""
    finished = [
        match
        for bracket_round in rounds
        for match in bracket_round.matches
        if match.table is not None and match.table.status == Table.Status.FINISHED
    ]
    return sorted(finished, key=lambda match: (-match.round, match.slot))


@dataclass(frozen=True)
class Standing:
    entry: Entry
    label: str


def standings(tournament: Tournament, entrants: list[Entry]) -> list[Standing]:
    """The ``entrants`` (as ``entrants`` reads them) who have a place, best first; those still
    in the running have none yet."""
    rounds = tournament.rounds
    if rounds is None:
        return []
    placed = sorted(
        ((entry.place, entry.seed or 0, entry) for entry in entrants if entry.place), key=lambda row: row[:2]
    )
    return [Standing(entry, scoring.place_label(place, rounds)) for place, _, entry in placed]


def entrants(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.select_related("user").order_by("seed", "joined_at"))


def current_match(tournament: Tournament, user: User | None) -> Match | None:
    """The match ``user`` is playing in this tournament right now, if any."""
    if user is None or not user.is_authenticated or tournament.status != Tournament.Status.RUNNING:
        return None
    return (
        tournament.matches.filter(table__status=Table.Status.PLAYING, table__seats__user=user)
        .select_related("table")
        .first()
    )
