"""Writes about tournaments: create one, enter and withdraw, start it, record each result.

Every write locks the tournament row (``select_for_update``) first, so entries, draws and
results never interleave; ``running`` does the work of a started tournament. Results arrive
by Celery task when a match's game ends (``games.live.tables`` sends it by name) and from the
sweeper that makes lost ones good; ``record_match`` is idempotent, so either may come twice.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from games import kinds
from games.core.errors import GameError
from games.live import turn_clocks
from games.models import GameRecord, Table
from tournaments import pairing, running, solitaire_events
from tournaments.formats.best_of import BEST_OF
from tournaments.models import SOLITAIRE_FORMATS, TABLE_FORMATS, Entry, MatchGame, Tournament

ENTRANT_LIMITS = (2, 64)
LATEST_START = dt.timedelta(days=60)
SWISS_ROUNDS = (1, 15)
LATE_ENTRY_UNTIL_ROUND = 2
"""TN-7: a Swiss event takes late entries until its second round is drawn."""


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
    format: str = Tournament.Format.SINGLE_ELIMINATION,
    best_of: int = 1,
    table_size: int = 2,
    rounds: int | None = None,
    third_place: bool = False,
    deal_count: int | None = None,
    window_minutes: int | None = None,
) -> Tournament:
    """A tournament taking entries until ``starts_at``, with its creator entered. ``rounds``
    is a Swiss event's (TN-4); ``table_size`` above 2 seats round robin and Swiss rounds at
    tables (TN-3); ``best_of`` is a heads-up match's (TN-5); ``deal_count`` and
    ``window_minutes`` a solitaire event's (TN-8), which plays no table: the clock, bots,
    ratings and the table options do not apply to it."""
    name = name.strip()
    if not name:
        raise TournamentError(gettext("Give the tournament a name."))
    if format in SOLITAIRE_FORMATS:
        try:
            full, deal_count = solitaire_events.check_options(
                game=game,
                format=format,
                deal_count=deal_count,
                window_minutes=window_minutes,
                max_entrants=max_entrants,
            )
        except solitaire_events.EventOptionsError as exc:
            raise TournamentError(str(exc)) from exc
        fill_with_bots = rated = third_place = False
        best_of, table_size, rounds = 1, 1, None
    else:
        full = check_options(
            game=game,
            config=config,
            clock_seconds=clock_seconds,
            max_entrants=max_entrants,
            format=format,
            best_of=best_of,
            table_size=table_size,
            rounds=rounds,
            third_place=third_place,
        )
        deal_count = window_minutes = None
    now = timezone.now()
    if starts_at < now - dt.timedelta(minutes=1):
        raise TournamentError(gettext("The start is in the past: pick a time to come."))
    if starts_at > now + LATEST_START:
        raise TournamentError(gettext("A tournament can be scheduled at most 60 days ahead."))
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            game=game,
            config=full,
            format=format,
            best_of=best_of,
            table_size=table_size,
            third_place=third_place,
            rounds=rounds if format == Tournament.Format.SWISS else None,
            clock_seconds=clock_seconds,
            max_entrants=max_entrants,
            fill_with_bots=fill_with_bots,
            rated=rated,
            starts_at=starts_at,
            created_by=creator,
            deal_count=deal_count,
            window_minutes=window_minutes,
        )
        Entry.objects.create(tournament=tournament, user=creator)
    return tournament


def check_options(
    *,
    game: str,
    config: dict[str, Any] | None,
    clock_seconds: int,
    max_entrants: int,
    format: str,
    best_of: int,
    table_size: int,
    rounds: int | None,
    third_place: bool,
) -> dict[str, Any]:
    """Raises ``TournamentError`` unless a tournament may be played with these options; returns
    its matches' full config. Shared with the series that create tournaments later."""
    spec = kinds.TABLE_BY_SLUG.get(game) if isinstance(game, str) else None
    if spec is None or not spec.in_tournaments:
        raise TournamentError(gettext("%(game)s is not a tournament game.") % {"game": repr(game)})
    low, high = ENTRANT_LIMITS
    if not low <= max_entrants <= high:
        raise TournamentError(
            gettext("A tournament takes between %(low)d and %(high)d players.") % {"low": low, "high": high}
        )
    if not turn_clocks.valid_clock(clock_seconds):
        raise TournamentError(str(turn_clocks.CLOCK_REFUSED))
    _check_format(spec.engine, format, best_of, table_size, rounds, third_place)
    try:
        return spec.engine.normalize_config(spec.tournament_config(config or {}))
    except ValueError as exc:
        raise TournamentError(str(exc)) from exc


def _check_format(
    engine: Any, format: str, best_of: int, table_size: int, rounds: int | None, third_place: bool
) -> None:
    if format not in TABLE_FORMATS:
        raise TournamentError(
            gettext("%(format)s is not a format of table games.") % {"format": repr(format)}
        )
    if best_of not in BEST_OF:
        raise TournamentError(gettext("A match is best of 1, 3 or 5 games."))
    if table_size != 2:
        if format not in (Tournament.Format.ROUND_ROBIN, Tournament.Format.SWISS):
            raise TournamentError(
                gettext("Only round robin and Swiss rounds are played at tables of more than two.")
            )
        if "players" not in engine.options or not 2 <= table_size <= engine.max_players:
            raise TournamentError(
                gettext("This game seats 2 to %(most)d at a table, not %(size)d.")
                % {"most": engine.max_players, "size": table_size}
            )
        if best_of != 1:
            raise TournamentError(gettext("A match at a table of more than two is one game (best of 1)."))
    low, high = SWISS_ROUNDS
    if format == Tournament.Format.SWISS and (rounds is None or not low <= rounds <= high):
        raise TournamentError(
            gettext("A Swiss event has between %(low)d and %(high)d rounds.") % {"low": low, "high": high}
        )
    if third_place and format != Tournament.Format.SINGLE_ELIMINATION:
        raise TournamentError(gettext("A third-place match belongs to single elimination."))


def _locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentError(gettext("There is no such tournament."))
    return tournament


def _taking_entries(tournament_id: int) -> Tournament:
    tournament = _locked(tournament_id)
    if tournament.status != Tournament.Status.OPEN:
        raise TournamentError(gettext("This tournament has started: entries are closed."))
    return tournament


def _bump(tournament: Tournament) -> None:
    tournament.version += 1
    tournament.save(update_fields=["version"])


def _late_entry_open(tournament: Tournament) -> bool:
    return (
        tournament.format == Tournament.Format.SWISS
        and tournament.status == Tournament.Status.RUNNING
        and tournament.current_round < LATE_ENTRY_UNTIL_ROUND
    )


def join(*, tournament_id: int, user: User) -> Entry:
    """Enter before the start, or a Swiss event until its second round (TN-7: late, with no
    points for the round missed, seeded after everyone), or a solitaire event while its window
    is open (TN-8: late, with less time to play)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        late = _late_entry_open(tournament) or (
            tournament.is_solitaire and solitaire_events.taking_late_entries(tournament)
        )
        if tournament.status != Tournament.Status.OPEN and not late:
            raise TournamentError(gettext("This tournament has started: entries are closed."))
        if tournament.entries.filter(user=user).exists():
            raise TournamentError(gettext("You are already entered."))
        if tournament.entries.count() >= tournament.max_entrants:
            raise TournamentError(gettext("This tournament is full."))
        entry = Entry(tournament=tournament, user=user)
        if late and tournament.is_solitaire:
            entry.save()
            solitaire_events.give_run(tournament, entry)
            _bump(tournament)
            return entry
        if late:
            last = (
                tournament.entries.filter(seed__isnull=False).order_by("-seed").values_list("seed", flat=True)
            )
            entry.seed = (last.first() or 0) + 1
            entry.rating = running.rating_of(tournament, user)
        entry.save()
        _bump(tournament)
    return entry


def withdraw(*, tournament_id: int, user: User) -> None:
    """Leave before the start; or, in a round robin or Swiss event, at any time (TN-7): out of
    the rounds drawn after this, the results so far kept (a match being played stands)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        entry = tournament.entries.filter(user=user).first()
        if entry is None or entry.withdrawn_at is not None:
            raise TournamentError(gettext("You are not entered in this tournament."))
        if tournament.status == Tournament.Status.OPEN:
            entry.delete()
        elif tournament.status == Tournament.Status.RUNNING and tournament.by_rounds:
            entry.withdrawn_at = timezone.now()
            entry.save(update_fields=["withdrawn_at"])
        elif tournament.is_solitaire:
            raise TournamentError(
                gettext("This event has started: the deals you play count as you play them.")
            )
        else:
            raise TournamentError(gettext("This tournament has started: a knock-out is played to its end."))
        _bump(tournament)


def start_now(*, tournament_id: int, user: User) -> Tournament:
    """The creator's early start, once at least two players (or bots to fill) are there."""
    with transaction.atomic():
        tournament = _taking_entries(tournament_id)
        if tournament.created_by_id != user.pk:
            raise TournamentError(gettext("Only the tournament's creator can start it early."))
        least = 1 if tournament.is_solitaire else pairing.MIN_ENTRANTS
        if tournament.entries.count() < least and not tournament.fill_with_bots:
            raise TournamentError(gettext("At least two players must be entered to start."))
        tournament.starts_at = timezone.now()
        tournament.save(update_fields=["starts_at"])
        running.draw(tournament)
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
                running.draw(tournament)
                started.append(tournament_id)
    return started


def close_due(now: dt.datetime | None = None) -> list[int]:
    """Close every solitaire event whose window is over (TN-8); returns their ids."""
    now = now or timezone.now()
    due = Tournament.objects.filter(
        status=Tournament.Status.RUNNING, format__in=SOLITAIRE_FORMATS, closes_at__lte=now
    )
    closed = []
    for tournament_id in due.values_list("pk", flat=True):
        with transaction.atomic():
            tournament = _locked(tournament_id)
            if tournament.status == Tournament.Status.RUNNING and tournament.closes_at is not None:
                solitaire_events.close(tournament, now)
                closed.append(tournament_id)
    return closed


def record_match(*, game_id: int) -> bool:
    """Record the game ``game_id`` of a tournament match, if it is over and not yet recorded:
    the match is decided, or its next game dealt. Returns whether this call recorded it."""
    found = (
        MatchGame.objects.filter(table__record_id=game_id).values_list("pk", "match__tournament_id").first()
    )
    if found is None:
        return False
    game_pk, tournament_pk = found
    with transaction.atomic():
        tournament = _locked(tournament_pk)
        game = MatchGame.objects.select_related("match", "table__record").get(pk=game_pk)
        record = game.table.record
        if game.recorded_at is not None or record is None or record.status != GameRecord.Status.FINISHED:
            return False
        if tournament.status != Tournament.Status.RUNNING:
            return False
        running.record_game(tournament, game, record)
    return True


def unrecorded_results() -> list[int]:
    """Games of tournament matches that are over but not recorded: for the sweeper."""
    return list(
        MatchGame.objects.filter(
            recorded_at__isnull=True,
            table__status=Table.Status.FINISHED,
            match__tournament__status=Tournament.Status.RUNNING,
        ).values_list("table__record_id", flat=True)
    )
