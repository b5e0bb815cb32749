"""Live tables: seating, dealing, and the moves nobody at the table makes.

A table's moves go through ``games.core.move_path`` like every move. What is here: the seats of
an open table, the deal, the rematch, ``advance`` (the move due when a turn's clock passes:
a bot's, a timed-out seat's (LP-1), the table's tie replay), and LP-5's ``postpone_turns``.
Each change is announced after commit (``games.core.announcements``: the version, no card).
``advance`` acts only if the game is still at the version it was scheduled for, so a task
run twice acts once.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from functools import partial
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, Subquery, Value
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from games import kinds
from games.core import announcements, move_path, snapshots
from games.core.announcements import LOBBY_GROUP, TableChanged, table_group
from games.core.errors import GameError
from games.engine import FORFEIT, TABLE_SEAT, get_engine
from games.engine.base import MAX_SEED
from games.engine.bots import bot_seed
from games.live import outages, table_access, turn_clocks, turns
from games.models import GameRecord, Seat, Table, Turn

__all__ = ["LOBBY_GROUP", "table_group"]

logger = logging.getLogger(__name__)


def _announce(table: Table) -> None:
    """After commit: seats or the table's status changed (an open table's, without a version)."""
    record = table.record
    event = TableChanged(
        table.pk,
        None if record is None else record.pk,
        None if record is None else record.version,
        lobby=True,
    )
    announcements.send([event])


def _touch_lobby(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(lobby_version=table.lobby_version + 1)
    transaction.on_commit(partial(_announce, table))


# Seating


def create_table(
    *,
    game: str,
    creator: User,
    config: dict[str, Any] | None = None,
    clock_seconds: int = 30,
    rated: bool = False,
    private: bool = False,
) -> Table:
    """A new open table, with its creator in seat 0; ``rated`` (RT-2) or casual; ``private``
    (LP-9): listed nowhere, reached by its link (``table_access``)."""
    try:
        spec = kinds.get_table_game(game)
    except kinds.UnknownGame:
        raise GameError(gettext("%(game)s is not played at tables.") % {"game": repr(game)}) from None
    if not turn_clocks.valid_clock(clock_seconds):
        raise GameError(str(turn_clocks.CLOCK_REFUSED))
    try:
        full = spec.engine.normalize_config(dict(config or {}))
    except ValueError as exc:
        raise GameError(str(exc)) from exc
    seats = spec.engine.seat_count(full)
    with transaction.atomic():
        table = Table.objects.create(
            game=game,
            config=full,
            clock_seconds=clock_seconds,
            created_by=creator,
            rated=rated,
            private_key=table_access.new_key() if private else None,
        )
        Seat.objects.bulk_create(
            [Seat(table=table, number=n, user=creator if n == 0 else None) for n in range(seats)]
        )
        transaction.on_commit(lambda: _announce(table))
    return table


def _open_table(table_id: int) -> Table:
    try:
        table = Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise GameError(gettext("There is no such table.")) from None
    if table.status != Table.Status.OPEN:
        raise GameError(gettext("This table has started: seats can no longer change."))
    return table


def sit(*, table_id: int, user: User, number: int | None = None) -> Seat:
    """Take a free seat (the first one if ``number`` is not given)."""
    with transaction.atomic():
        table = _open_table(table_id)
        if table.seats.filter(user=user).exists():
            raise GameError(gettext("You are already sitting at this table."))
        free = table.seats.select_for_update().filter(user__isnull=True, is_bot=False)
        seat = free.filter(number=number).first() if number is not None else free.first()
        if seat is None:
            raise GameError(gettext("That seat is taken.") if number is not None else "Every seat is taken.")
        seat.user = user
        try:
            seat.save(update_fields=["user"])
        except IntegrityError:
            raise GameError(gettext("You are already sitting at this table.")) from None
        _touch_lobby(table)
    return seat


def leave(*, table_id: int, user: User) -> None:
    with transaction.atomic():
        table = _open_table(table_id)
        updated = table.seats.filter(user=user).update(user=None)
        if not updated:
            raise GameError(gettext("You are not sitting at this table."))
        _touch_lobby(table)


def add_bot(*, table_id: int, user: User, number: int | None = None) -> Seat:
    """Fill an empty seat with the built-in bot; only someone sitting at the table may."""
    with transaction.atomic():
        table = _open_table(table_id)
        if not table.seats.filter(user=user).exists():
            raise GameError(gettext("Sit at the table to invite bots."))
        free = table.seats.select_for_update().filter(user__isnull=True, is_bot=False)
        seat = free.filter(number=number).first() if number is not None else free.first()
        if seat is None:
            raise GameError(gettext("There is no empty seat for a bot."))
        seat.is_bot = True
        seat.save(update_fields=["is_bot"])
        _touch_lobby(table)
    return seat


def remove_bot(*, table_id: int, user: User, number: int) -> None:
    with transaction.atomic():
        table = _open_table(table_id)
        if not table.seats.filter(user=user).exists():
            raise GameError(gettext("Sit at the table to change its seats."))
        if not table.seats.filter(number=number, is_bot=True).update(is_bot=False):
            raise GameError(gettext("There is no bot in that seat."))
        _touch_lobby(table)


def start(*, table_id: int, user: User) -> Table:
    """Deal: every seat must be taken; anyone sitting at the table may start it."""
    with transaction.atomic():
        table = _open_table(table_id)
        seats = list(table.seats.all())
        if not any(seat.user_id == user.pk for seat in seats):
            raise GameError(gettext("Only someone sitting at the table can start it."))
        if not all(seat.taken for seat in seats):
            raise GameError(
                gettext("Every seat must be taken (by a person or a bot) before the game starts.")
            )
        _deal(table, GameRecord.Kind.TABLE, seats)
    return table


def rematch(*, table_id: int, user: User) -> Table:
    """The rematch of a finished table, made once however many ask: a new open table with
    the same game, options, clock and rating, its bots back in their seats and ``user`` in
    their own seat; the other people are told (a notice) and take their seats by asking too,
    which seats them in their old seat. Only a person who sat at the table may ask; a
    tournament's table has its tournament's next game instead.

    Two asks at once (two clicks, two players) queue on the finished table's row, so the
    second finds the first's table rather than making another.
    """
    with transaction.atomic():
        # An UPDATE, not SELECT FOR UPDATE: it also takes SQLite's write lock at once, so
        # the look for an existing rematch below is serialised there too.
        if not Table.objects.filter(pk=table_id).update(lobby_version=F("lobby_version")):
            raise GameError(gettext("There is no such table."))
        old = Table.objects.select_related("record").get(pk=table_id)
        if old.status != Table.Status.FINISHED or old.record is None:
            raise GameError(gettext("A rematch can be asked for once the game is over."))
        if hasattr(old, "tournament_game"):
            raise GameError(gettext("This is a tournament's game: its next game is dealt by the tournament."))
        seats = list(old.seats.select_related("user"))
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if mine is None:
            raise GameError(gettext("Only the players of this table can ask for a rematch."))
        new = Table.objects.filter(rematch_of=old).first()
        if new is None:
            new = _open_rematch(old, seats, user, mine.number)
        elif new.status == Table.Status.OPEN and not new.seats.filter(user=user).exists():
            free = new.seats.select_for_update().filter(user__isnull=True, is_bot=False)
            seat = free.filter(number=mine.number).first() or free.first()
            if seat is not None:
                seat.user = user
                seat.save(update_fields=["user"])
                _touch_lobby(new)
    return new


def _open_rematch(old: Table, seats: list[Seat], user: User, number: int) -> Table:
    from accounts import event_notices  # accounts' notices import the tournaments app

    new = Table.objects.create(
        game=old.game,
        config=old.config,
        clock_seconds=old.clock_seconds,
        created_by=user,
        rated=old.rated,
        rematch_of=old,
        # A private table's rematch is private too, with a key of its own: the old link
        # (which others may hold) does not lead to it; its players may enter (``may_enter``).
        private_key=table_access.new_key() if old.is_private else None,
    )
    Seat.objects.bulk_create(
        [
            Seat(
                table=new,
                number=seat.number,
                user=user if seat.number == number else None,
                is_bot=seat.is_bot,
            )
            for seat in seats
        ]
    )
    invited = [seat.user for seat in seats if seat.user is not None and seat.user_id != user.pk]
    event_notices.rematch_asked(new, user, invited)
    transaction.on_commit(lambda: _announce(new))
    return new


def open_match(
    *,
    game: str,
    config: dict[str, Any],
    clock_seconds: int,
    players: list[User | str],
    created_by: User,
    rated: bool = False,
) -> Table:
    """A table dealt at once for a tournament match: ``players`` by seat, a bot by its name.

    Expects to run inside the caller's transaction (the tournament's lock).
    """
    table = Table.objects.create(
        game=game, config=config, clock_seconds=clock_seconds, created_by=created_by, rated=rated
    )
    seats = Seat.objects.bulk_create(
        [
            Seat(table=table, number=n, user=player, is_bot=False)
            if isinstance(player, User)
            else Seat(table=table, number=n, is_bot=True, bot_name=player)
            for n, player in enumerate(players)
        ]
    )
    _deal(table, GameRecord.Kind.TOURNAMENT, seats)
    return table


def _deal(table: Table, kind: str, seats: list[Seat]) -> None:
    """Start the table's game at its ``seats``; announced and its first turn scheduled after commit."""
    engine = get_engine(table.game)
    record = GameRecord.objects.create(
        game=table.game,
        engine_version=engine.version,
        config=table.config,
        seed=secrets.randbelow(MAX_SEED),
        kind=kind,
        first_viewed_at=timezone.now(),
    )
    table.record = record
    table.status = Table.Status.PLAYING
    table.lobby_version += 1
    table.save(update_fields=["record", "status", "lobby_version"])
    state = engine.initial_state(record.config, record.seed, record.deck)
    to_act = engine.current_player(state)
    turn_clocks.set_deadline(record, table, seats, to_act)
    armed = turn_clocks.arm(record)
    record.save(update_fields=["turn_deadline", "clock_task_at"])
    turns.sync(table, seats, record, to_act, new_turn=True)
    version, deadline = record.version, record.turn_deadline

    def announce_and_schedule() -> None:
        _announce(table)
        if armed:
            turn_clocks.schedule(record.pk, version, deadline)

    transaction.on_commit(announce_and_schedule)


def advance(*, game_id: int, version: int) -> bool:
    """Make the move that is due at ``version``, if it still is: a bot's, a timed-out seat's
    (LP-1) or the table's tie replay. Returns whether a move was made.

    LP-5: an outage that just ended moves the deadline on before it is judged (this task may
    be one that waited in Redis through the outage), and while the site is down a person's
    clock takes no action: they cannot be at the table. Call it outside a transaction that
    holds a game row (``outages.resume_if_down`` may lock them all).
    """
    site_up = outages.resume_if_down()
    table = Table.objects.select_related("record").filter(record_id=game_id).first()
    record = None if table is None else table.record
    if table is None or record is None or record.kind not in GameRecord.TABLE_KINDS or record.is_over:
        return False
    if record.version != version:
        with transaction.atomic():
            turn_clocks.rearm(record)
        return False
    before = snapshots.of_table(table)
    engine = get_engine(record.game)
    seat = engine.current_player(before.state)
    if seat is None:
        return False
    if seat == TABLE_SEAT:
        return move_path.play_due(before, seat, str(engine.legal_actions(before.state)[0])) is not None
    view = engine.view(before.state, seat)
    chooser_seed = bot_seed(record.seed, seat, record.action_count)
    if turn_clocks.is_bot(before.seats, seat):
        return move_path.play_due(before, seat, engine.bot_action(view, chooser_seed)) is not None
    if not (site_up and record.turn_deadline is not None and timezone.now() >= record.turn_deadline):
        return False
    text = FORFEIT if _no_show(record, seat) else engine.timeout_action(view, chooser_seed)
    moved = move_path.play_due(before, seat, text, timed_out=True)
    if moved is None:
        return False
    _tell_timed_out(before, seat, text, moved.state)
    return True


def _tell_timed_out(before: snapshots.Snapshot, seat: int, text: str, after: Any) -> None:
    """LP-1's move is said to the person it was made for, as the table's log says it."""
    from accounts import event_notices  # accounts' notices import the tournaments app
    from games.core.narration import narrate

    assert before.table is not None
    said = narrate(before.record.game, before.state, text, after, before.names, reveal=False)
    person = next((s.user for s in before.seats if s.number == seat), None)
    event_notices.timed_out(before.table, before.record.action_count, person, said)


def _no_show(record: GameRecord, seat: int) -> bool:
    """TN-6: in a tournament game, a seat whose clock runs out a second time without its
    player having made a move loses the game by forfeit."""
    if record.kind != GameRecord.Kind.TOURNAMENT:
        return False
    own = record.actions.filter(seat=seat)
    return own.filter(timed_out=True).exists() and not own.filter(timed_out=False).exists()


def postpone_turns(*, by: dt.timedelta, now: dt.datetime) -> int:
    """LP-5, after an outage of ``by`` that ended at ``now``: every running table game's
    deadline moves later by ``by``, and a person to act gets at least a full turn clock from
    ``now``; a bot or a tie replay keeps its short pause (at most its usual delay from now).
    A task is sent again only for a deadline within ``turn_clocks.TASK_HORIZON`` (the old
    task, if it survived, finds the deadline not yet due); the sweeper acts on the others.
    Returns how many games moved.

    The common case, a person's turn at a turn-based table (a ``Turn`` row; there may be
    100,000 of them), moves in a few UPDATEs, one per speed; the rest (live tables, a bot's or
    the table's turn at a turn-based one: a few hundred) are rebuilt one by one to learn who
    acts. Expects the caller's transaction (``outages`` holds the outage lock); locks the
    games' rows, each game's before its ``Turn`` row, as a move does.
    """
    # First those a Turn row does not account for (its deadline is not the game's), locked.
    accounted = Turn.objects.filter(game_id=OuterRef("pk"), deadline=OuterRef("turn_deadline"))
    rest = GameRecord.objects.select_for_update().filter(
        kind__in=GameRecord.TABLE_KINDS, status=GameRecord.Status.PLAYING, turn_deadline__isnull=False
    )
    done = []
    for record in rest.exclude(Exists(accounted)).order_by("pk"):  # one order for every caller
        _postpone_one(record, by, now)
        done.append(record.pk)
    return len(done) + _postpone_waiting_people(by, now, done)


def _postpone_waiting_people(by: dt.timedelta, now: dt.datetime, done: list[int]) -> int:
    """The games a ``Turn`` row says wait for a person (but those in ``done``): each deadline
    + ``by``, at least a full clock from ``now``, and the row's deadline kept equal to the
    game's. A game whose row a move changed meanwhile (its ``turn_deadline`` no longer is its
    ``Turn``'s when the UPDATE reaches it) is left as that move set it: a fresh clock."""
    moved = 0
    waiting = Turn.objects.filter(game_id=OuterRef("pk")).values("deadline")[:1]
    for clock in turn_clocks.TURN_BASED_CLOCKS:
        games = Turn.objects.filter(table__clock_seconds=clock).values("game_id")
        later = Greatest(F("turn_deadline") + by, Value(now + dt.timedelta(seconds=clock)))
        # clock_task_at changes with it, as wherever the row changes without a new version:
        # a cached snapshot of that version then reads the row again (``snapshots``). No
        # task is sent: a full turn-based clock is beyond ``TASK_HORIZON``.
        moved += (
            GameRecord.objects.filter(
                pk__in=games, status=GameRecord.Status.PLAYING, turn_deadline=Subquery(waiting)
            )
            .exclude(pk__in=done)
            .update(turn_deadline=later, clock_task_at=later)
        )
    game_deadline = GameRecord.objects.filter(pk=OuterRef("game_id")).values("turn_deadline")[:1]
    behind = Turn.objects.filter(game__turn_deadline__isnull=False).exclude(deadline=F("game__turn_deadline"))
    behind.update(deadline=Subquery(game_deadline))
    return moved


def _postpone_one(record: GameRecord, by: dt.timedelta, now: dt.datetime) -> None:
    table = Table.objects.get(record=record)
    assert record.turn_deadline is not None  # the query asks for one
    later: dt.datetime = record.turn_deadline + by
    try:
        seat = get_engine(record.game).current_player(snapshots.state_of(record))
    except (RuntimeError, ValueError):
        # A game this server cannot rebuild (an engine version it lacks, actions that no
        # longer replay) cannot be played here either; it must not keep every other
        # game's clock from resuming. (A database error is not caught: it ends the whole
        # resume, which the next heartbeat tries again.)
        logger.exception("LP-5: game %s could not be rebuilt; its deadline only moves on", record.pk)
        seat, record.turn_deadline = None, later
    seats = snapshots.read_seats(table)
    delay = turn_clocks.delay(table, seats, seat)
    if delay is not None:
        fresh = now + dt.timedelta(seconds=delay)
        record.turn_deadline = max(later, fresh) if turn_clocks.is_person(seats, seat) else min(later, fresh)
    # Changed even with no task sent, so that a cached snapshot of this version reads the row again.
    record.clock_task_at = record.turn_deadline
    record.save(update_fields=["turn_deadline", "clock_task_at"])
    turns.sync(table, seats, record, seat, new_turn=False)
    if record.turn_deadline is not None and record.turn_deadline - now <= turn_clocks.TASK_HORIZON:
        # robust: one task that cannot be sent must not stop the others (the sweeper makes it good).
        transaction.on_commit(
            partial(turn_clocks.schedule, record.pk, record.version, record.turn_deadline), robust=True
        )


def overdue_games(grace_s: float = 2.0, *, every_game: bool = False) -> list[tuple[int, int]]:
    """(game, version) of table games whose turn is overdue, for the sweeper: the turn-based
    games' people (LP-8: no task waits for them; the ``Turn`` rows' deadline index says which)
    and the live tables' games (a lost task made good, say of a worker that died; the few
    playing live tables are a small partial index, ``table_short_clock_playing``). Neither
    reads the game rows' deadlines, which no index holds: a move would then write every
    index of the row (no heap-only update).

    ``every_game`` reads every playing table game instead (a scan of the game rows): it also
    finds a bot's or a tie replay's turn at a turn-based table whose task was lost. The
    sweeper asks for it about once a minute."""
    cutoff = timezone.now() - dt.timedelta(seconds=grace_s)
    playing = GameRecord.objects.filter(status=GameRecord.Status.PLAYING, turn_deadline__lt=cutoff)
    if every_game:
        return list(playing.filter(kind__in=GameRecord.TABLE_KINDS).values_list("pk", "version"))
    people = Turn.objects.filter(deadline__lt=cutoff).values_list("game_id", flat=True)
    short_clocks = Table.objects.filter(
        status=Table.Status.PLAYING, clock_seconds__lt=turn_clocks.TURN_BASED_CLOCKS[0]
    ).values_list("record_id", flat=True)
    # Two look-ups, then the rows by key: joined, the planner misjudges how few live tables play.
    ids = {game_id for game_id in (*people, *short_clocks) if game_id is not None}
    return list(playing.filter(pk__in=ids).values_list("pk", "version")) if ids else []
