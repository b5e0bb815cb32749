"""Writes about tournaments: create one, enter and withdraw, start it, record each result.

Every write locks the tournament row (``select_for_update``) first, so entries, the
draw and results never interleave. Results arrive by Celery task when a match's game
ends (``games.tables`` sends it by name) and from the sweeper that makes lost ones good;
``record_match`` is idempotent, so either may come twice.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import kinds, tables
from games.engine.base import MAX_SEED
from games.errors import GameError
from games.models import GameRecord, Table
from tournaments import pairing, scoring
from tournaments.models import Entry, Match, Tournament

ENTRANT_LIMITS = (2, 64)
LATEST_START = dt.timedelta(days=60)


class TournamentError(GameError):
    """A refused request; ``str()`` is the message for the person."""


def create_tournament(
    *,
    creator: User,
    name: str,
    game: str,
    config: dict[str, Any] | None,
    clock_seconds: int,
    max_entrants: int,
    starts_at: dt.datetime,
    fill_with_bots: bool = False,
    rated: bool = False,
) -> Tournament:
    """A tournament taking entries until ``starts_at``, with its creator entered."""
    spec = kinds.TABLE_BY_SLUG.get(game) if isinstance(game, str) else None
    if spec is None or not spec.in_tournaments:
        raise TournamentError(f"{game!r} is not a tournament game.")
    name = name.strip()
    if not name:
        raise TournamentError("Give the tournament a name.")
    low, high = ENTRANT_LIMITS
    if not low <= max_entrants <= high:
        raise TournamentError(f"A tournament takes between {low} and {high} players.")
    low, high = tables.CLOCK_LIMITS
    if not low <= clock_seconds <= high:
        raise TournamentError(f"The turn clock must be between {low} and {high} seconds.")
    now = timezone.now()
    if starts_at < now - dt.timedelta(minutes=1):
        raise TournamentError("The start is in the past: pick a time to come.")
    if starts_at > now + LATEST_START:
        raise TournamentError("A tournament can be scheduled at most 60 days ahead.")
    try:
        full = spec.engine.normalize_config(spec.tournament_config(config or {}))
    except ValueError as exc:
        raise TournamentError(str(exc)) from exc
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            game=game,
            config=full,
            clock_seconds=clock_seconds,
            max_entrants=max_entrants,
            fill_with_bots=fill_with_bots,
            rated=rated,
            starts_at=starts_at,
            draw_seed=secrets.randbelow(MAX_SEED),
            created_by=creator,
        )
        Entry.objects.create(tournament=tournament, user=creator)
    return tournament


def _locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentError("There is no such tournament.")
    return tournament


def _taking_entries(tournament_id: int) -> Tournament:
    tournament = _locked(tournament_id)
    if tournament.status != Tournament.Status.OPEN:
        raise TournamentError("This tournament has started: entries are closed.")
    return tournament


def _bump(tournament: Tournament) -> None:
    tournament.version += 1
    tournament.save(update_fields=["version"])


def join(*, tournament_id: int, user: User) -> Entry:
    with transaction.atomic():
        tournament = _taking_entries(tournament_id)
        if tournament.entries.filter(user=user).exists():
            raise TournamentError("You are already entered.")
        if tournament.entries.count() >= tournament.max_entrants:
            raise TournamentError("This tournament is full.")
        entry = Entry.objects.create(tournament=tournament, user=user)
        _bump(tournament)
    return entry


def withdraw(*, tournament_id: int, user: User) -> None:
    with transaction.atomic():
        tournament = _taking_entries(tournament_id)
        if not tournament.entries.filter(user=user).delete()[0]:
            raise TournamentError("You are not entered in this tournament.")
        _bump(tournament)


def start_now(*, tournament_id: int, user: User) -> Tournament:
    """The creator's early start, once at least two players (or bots to fill) are there."""
    with transaction.atomic():
        tournament = _taking_entries(tournament_id)
        if tournament.created_by_id != user.pk:
            raise TournamentError("Only the tournament's creator can start it early.")
        if tournament.entries.count() < pairing.MIN_ENTRANTS and not tournament.fill_with_bots:
            raise TournamentError("At least two players must be entered to start.")
        tournament.starts_at = timezone.now()
        tournament.save(update_fields=["starts_at"])
        _draw(tournament)
    return tournament


def start_due(now: dt.datetime | None = None) -> list[int]:
    """Start every open tournament whose time has come; returns their ids."""
    now = now or timezone.now()
    due = Tournament.objects.filter(status=Tournament.Status.OPEN, starts_at__lte=now)
    started = []
    for tournament_id in due.values_list("pk", flat=True):
        with transaction.atomic():
            tournament = _locked(tournament_id)
            if tournament.status == Tournament.Status.OPEN and tournament.starts_at <= now:
                _draw(tournament)
                started.append(tournament_id)
    return started


def _draw(tournament: Tournament) -> None:
    """Seed the entrants, lay out the whole bracket, settle byes and deal the first matches.

    People are seeded in a random order fixed by ``draw_seed``, bots (if asked for) after
    them: without bots the byes go to the first seeds; with them the bracket is full and,
    as the first seeds meet the last, every bot meets a person in the first round.
    """
    people = list(tournament.entries.filter(user__isnull=False).order_by("joined_at", "pk"))
    rng = random.Random(tournament.draw_seed)
    rng.shuffle(people)
    entrants = list(people)
    if tournament.fill_with_bots and people:
        target = pairing.bracket_size(max(len(people), pairing.MIN_ENTRANTS))
        entrants += [Entry(tournament=tournament) for _ in range(target - len(people))]
    now = timezone.now()
    if len(entrants) < pairing.MIN_ENTRANTS:
        tournament.status = Tournament.Status.CANCELLED
        tournament.finished_at = now
        tournament.version += 1
        tournament.save(update_fields=["status", "finished_at", "version"])
        return
    for seed, entry in enumerate(entrants):
        entry.seed = seed
        entry.save()
    size = pairing.bracket_size(len(entrants))
    tournament.rounds = pairing.round_count(size)
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    tournament.version += 1
    tournament.save(update_fields=["rounds", "status", "started_at", "version"])
    Match.objects.bulk_create(
        [
            Match(tournament=tournament, round=number, slot=slot)
            for number in range(1, tournament.rounds + 1)
            for slot in range(size >> number)
        ]
    )
    first_round = {m.slot: m for m in tournament.matches.filter(round=1)}
    for slot, (first, second) in enumerate(pairing.first_round(len(entrants))):
        match = first_round[slot]
        match.first = entrants[first]
        match.second = entrants[second] if second is not None else None
        match.bye = second is None
        match.save(update_fields=["first", "second", "bye"])
    for match in first_round.values():
        if match.bye:
            _decide(tournament, match, match.first)
        else:
            _deal(tournament, match)


def _deal(tournament: Tournament, match: Match) -> None:
    assert match.first is not None and match.second is not None
    match.table = tables.open_match(
        game=tournament.game,
        config=tournament.config,
        clock_seconds=tournament.clock_seconds,
        players=[entry.user or entry.name for entry in (match.first, match.second)],
        created_by=tournament.created_by,
        rated=tournament.rated,
    )
    match.save(update_fields=["table"])


def _decide(tournament: Tournament, match: Match, winner: Entry | None) -> None:
    """Record ``match``'s winner, place its loser, and move the winner on (or end the tournament)."""
    assert winner is not None and tournament.rounds is not None
    match.winner = winner
    match.save(update_fields=["winner"])
    for entry in match.entrants:
        if entry.pk != winner.pk:
            entry.place = scoring.place_of_loser(match.round, tournament.rounds)
            entry.save(update_fields=["place"])
    tournament.version += 1
    if match.round == tournament.rounds:
        winner.place = 1
        winner.save(update_fields=["place"])
        tournament.status = Tournament.Status.FINISHED
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "finished_at", "version"])
        return
    tournament.save(update_fields=["version"])
    slot, side = pairing.next_place(match.slot)
    following = tournament.matches.select_related("first", "second").get(round=match.round + 1, slot=slot)
    if side == 0:
        following.first = winner
    else:
        following.second = winner
    following.save(update_fields=["first" if side == 0 else "second"])
    if following.first is not None and following.second is not None:
        _deal(tournament, following)


def record_match(*, game_id: int) -> bool:
    """Record the result of the tournament match whose game is ``game_id``, if it is over and
    not yet recorded. Returns whether this call recorded it."""
    found = Match.objects.filter(table__record_id=game_id).values_list("pk", "tournament_id").first()
    if found is None:
        return False
    match_pk, tournament_pk = found
    with transaction.atomic():
        tournament = _locked(tournament_pk)
        match = Match.objects.select_related("first", "second", "table__record").get(pk=match_pk)
        record = match.table.record if match.table else None
        if match.winner_id is not None or record is None or record.status != GameRecord.Status.FINISHED:
            return False
        seat = (record.outcome or {}).get("winner")
        winner = match.first if seat == 0 else match.second
        _decide(tournament, match, winner)
    return True


def unrecorded_results() -> list[int]:
    """Games of finished matches whose result is not recorded: for the sweeper."""
    return list(
        Match.objects.filter(
            winner__isnull=True,
            table__status=Table.Status.FINISHED,
            tournament__status=Tournament.Status.RUNNING,
        ).values_list("table__record_id", flat=True)
    )
