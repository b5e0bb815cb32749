"""A tournament's rows read as the pure formats read them (``tournaments.formats``).

Entrants are their seeds (0 the first): a bracket's graph, a round's draw and the
standings all name entrants by seed, and ``seeded`` maps a seed back to its ``Entry``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from tournaments.formats import elimination, round_robin, standings
from tournaments.formats.results import Round, RoundResult, TableResult
from tournaments.models import Entry, Match, Seating, Tournament


def seeded(tournament: Tournament) -> dict[int, Entry]:
    """The entrants by seed: everyone drawn at the start, and late entrants of a Swiss event."""
    entries = tournament.entries.filter(seed__isnull=False).select_related("user")
    return {entry.seed: entry for entry in entries if entry.seed is not None}


def bracket(tournament: Tournament, entrants: int) -> elimination.Bracket:
    if tournament.format == Tournament.Format.DOUBLE_ELIMINATION:
        return elimination.double_elimination(entrants)
    return elimination.single_elimination(entrants, third_place=tournament.third_place)


def bracket_results(matches: Iterable[Match], seats: dict[int, list[Seating]]) -> dict[int, int]:
    """Node -> the winning side (the winner's seat, 0 or 1) of every match played to a result."""
    results = {}
    for match in matches:
        if match.node is None or match.bye or match.winner_id is None:
            continue
        (won,) = (seating.seat for seating in seats.get(match.pk, []) if seating.entry_id == match.winner_id)
        results[match.node] = won
    return results


def round_robin_schedule(tournament: Tournament, seeds: list[int]) -> tuple[Round, ...]:
    """Every round of a round robin, drawn from the seeds alone (so drawn again the same)."""
    if tournament.table_size == 2:
        return round_robin.heads_up_round_robin(seeds)
    return round_robin.table_round_robin(seeds, tournament.table_size)


def seatings_by_match(tournament: Tournament) -> dict[int, list[Seating]]:
    seats: dict[int, list[Seating]] = defaultdict(list)
    for seating in (
        Seating.objects.filter(match__tournament=tournament).select_related("entry").order_by("seat")
    ):
        seats[seating.match_id].append(seating)
    return seats


def round_results(
    matches: Iterable[Match], seats: dict[int, list[Seating]], *, through: int | None = None
) -> list[RoundResult]:
    """The decided rounds of a round robin or Swiss event, first round first: each table's
    finish from its seatings' places, each bye. Undecided matches are left out."""
    tables: dict[int, list[TableResult]] = defaultdict(list)
    byes: dict[int, list[int]] = defaultdict(list)
    numbers: set[int] = set()
    for match in matches:
        if through is not None and match.round > through:
            continue
        numbers.add(match.round)
        seated = seats.get(match.pk, [])
        if not match.decided or not seated:
            continue
        seed_of = {seating.entry_id: seating.entry.seed for seating in seated}
        if match.bye:
            byes[match.round].extend(seed for seed in seed_of.values() if seed is not None)
            continue
        places = {seed_of[seating.entry_id]: seating.place for seating in seated}
        if all(seed is not None and place is not None for seed, place in places.items()):
            tables[match.round].append(TableResult.from_places(places))  # type: ignore[arg-type]
    return [RoundResult(tuple(tables[number]), tuple(byes[number])) for number in sorted(numbers)]


def event_standings(
    tournament: Tournament,
    entrants: dict[int, Entry],
    matches: Iterable[Match],
    seats: dict[int, list[Seating]],
) -> tuple[standings.Standing, ...]:
    """TN-3, TN-4: points, Buchholz, Sonneborn-Berger, then the rating each was seeded by."""
    order = sorted(entrants)
    ratings = {seed: entry.rating for seed, entry in entrants.items()}
    return standings.standings(order, round_results(matches, seats), ratings)
