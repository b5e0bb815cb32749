"""Live tables: seating, starting, and every move of a table game.

Every move, whoever makes it (a person over the WebSocket, a bot, a turn clock, the table
itself for a tie replay), goes through ``games.moves`` with the game row locked; what a
table adds is ``_after_move``: in the same transaction it sets the next turn's deadline
and the table's status, and after commit it announces "game N is at version v" to the
table's group (no cards: each connection renders its own seat's view) and schedules
``advance`` for that version. ``advance`` acts only if the game is still at the version it
was scheduled for, so a task run twice acts once.

Outages (LP-5): ``advance`` first asks ``games.outages`` to make good any time the site was
down, which moves clocks on through ``postpone_turns``; a clock never runs out for a person
while the site is down.
"""

from __future__ import annotations

import copy
import datetime as dt
import logging
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from accounts import notices, ratings
from accounts.models import User
from config.compiled_reads import CompiledGet
from config.group_sends import send_to_group
from games import action_rows, carried_games, kinds, move_writes, moves, outages
from games.engine import FORFEIT, TABLE_SEAT, get_engine
from games.engine.base import MAX_SEED
from games.engine.bots import bot_seed
from games.errors import GameError, StaleVersion
from games.models import Action, GameRecord, Seat, Table
from games.started_seats import seats_of
from games.state_cache import current_state, remember_state

logger = logging.getLogger(__name__)

CLOCK_LIMITS = (10, 600)


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


LOBBY_GROUP = "lobby"


def _announce(
    table: Table,
    version: int | None = None,
    *,
    lobby: bool = True,
    row: action_rows.Announced | None = None,
    game: carried_games.Carried | None = None,
) -> None:
    """After commit: tell the table's sockets that something changed, and the lobby when seats
    or the table's status changed (a move alone does not concern it). A move's announcement
    carries its action's row and what it changed in the game's (``action_rows``,
    ``carried_games``), so that no process reads them; the sockets are told only the version,
    and each draws what its seat may see (LP-3)."""
    message = {"type": "table.changed", "table": table.pk, "version": version, "row": row, "game": game}
    send_to_group(table_group(table.pk), message)
    if lobby:
        send_to_group(LOBBY_GROUP, {"type": "lobby.changed"})


def _touch_lobby(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(lobby_version=table.lobby_version + 1)
    transaction.on_commit(lambda: _announce(table))


# Seating


def create_table(
    *,
    game: str,
    creator: User,
    config: dict[str, Any] | None = None,
    clock_seconds: int = 30,
    rated: bool = False,
) -> Table:
    """A new open table, with its creator in seat 0; ``rated`` (RT-2) or casual."""
    try:
        spec = kinds.get_table_game(game)
    except kinds.UnknownGame:
        raise GameError(f"{game!r} is not played at tables.") from None
    low, high = CLOCK_LIMITS
    if not low <= clock_seconds <= high:
        raise GameError(f"The turn clock must be between {low} and {high} seconds.")
    try:
        full = spec.engine.normalize_config(dict(config or {}))
    except ValueError as exc:
        raise GameError(str(exc)) from exc
    seats = spec.engine.seat_count(full)
    with transaction.atomic():
        table = Table.objects.create(
            game=game, config=full, clock_seconds=clock_seconds, created_by=creator, rated=rated
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
        raise GameError("There is no such table.") from None
    if table.status != Table.Status.OPEN:
        raise GameError("This table has started: seats can no longer change.")
    return table


def sit(*, table_id: int, user: User, number: int | None = None) -> Seat:
    """Take a free seat (the first one if ``number`` is not given)."""
    with transaction.atomic():
        table = _open_table(table_id)
        if table.seats.filter(user=user).exists():
            raise GameError("You are already sitting at this table.")
        free = table.seats.select_for_update().filter(user__isnull=True, is_bot=False)
        seat = free.filter(number=number).first() if number is not None else free.first()
        if seat is None:
            raise GameError("That seat is taken." if number is not None else "Every seat is taken.")
        seat.user = user
        try:
            seat.save(update_fields=["user"])
        except IntegrityError:
            raise GameError("You are already sitting at this table.") from None
        _touch_lobby(table)
    return seat


def leave(*, table_id: int, user: User) -> None:
    with transaction.atomic():
        table = _open_table(table_id)
        updated = table.seats.filter(user=user).update(user=None)
        if not updated:
            raise GameError("You are not sitting at this table.")
        _touch_lobby(table)


def add_bot(*, table_id: int, user: User, number: int | None = None) -> Seat:
    """Fill an empty seat with the built-in bot; only someone sitting at the table may."""
    with transaction.atomic():
        table = _open_table(table_id)
        if not table.seats.filter(user=user).exists():
            raise GameError("Sit at the table to invite bots.")
        free = table.seats.select_for_update().filter(user__isnull=True, is_bot=False)
        seat = free.filter(number=number).first() if number is not None else free.first()
        if seat is None:
            raise GameError("There is no empty seat for a bot.")
        seat.is_bot = True
        seat.save(update_fields=["is_bot"])
        _touch_lobby(table)
    return seat


def remove_bot(*, table_id: int, user: User, number: int) -> None:
    with transaction.atomic():
        table = _open_table(table_id)
        if not table.seats.filter(user=user).exists():
            raise GameError("Sit at the table to change its seats.")
        if not table.seats.filter(number=number, is_bot=True).update(is_bot=False):
            raise GameError("There is no bot in that seat.")
        _touch_lobby(table)


def start(*, table_id: int, user: User) -> Table:
    """Deal: every seat must be taken; anyone sitting at the table may start it."""
    with transaction.atomic():
        table = _open_table(table_id)
        seats = list(table.seats.all())
        if not any(seat.user_id == user.pk for seat in seats):
            raise GameError("Only someone sitting at the table can start it.")
        if not all(seat.taken for seat in seats):
            raise GameError("Every seat must be taken (by a person or a bot) before the game starts.")
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
            raise GameError("There is no such table.")
        old = Table.objects.select_related("record").get(pk=table_id)
        if old.status != Table.Status.FINISHED or old.record is None:
            raise GameError("A rematch can be asked for once the game is over.")
        if hasattr(old, "tournament_game"):
            raise GameError("This is a tournament's game: its next game is dealt by the tournament.")
        seats = list(old.seats.select_related("user"))
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if mine is None:
            raise GameError("Only the players of this table can ask for a rematch.")
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
    state = current_state(record)
    _set_deadline(record, table, seats, engine.current_player(state))
    armed = _arm_clock(record)
    record.save(update_fields=["turn_deadline", "clock_task_at"])
    _after_commit(table, record, lobby=True, schedule=armed)


def _after_commit(
    table: Table, record: GameRecord, *, lobby: bool, schedule: bool, action: Action | None = None
) -> None:
    """Once the change commits: announce the game's version (and to the lobby if ``lobby``),
    with ``action`` if it made the version, and, if ``schedule``, send the turn-clock task for
    the deadline set now."""
    version, deadline = record.version, record.turn_deadline
    announce = _announcement(table, record, lobby=lobby, action=action)

    def announce_and_schedule() -> None:
        announce()
        if schedule:
            _schedule(record.pk, version, deadline)

    transaction.on_commit(announce_and_schedule)


def _announcement(
    table: Table, record: GameRecord, *, lobby: bool, action: Action | None
) -> Callable[[], None]:
    """The announcement of the record's version, as it stands now, to send once it commits:
    with ``action``'s row if it made the version, and what it changed in the game's row while
    the table plays."""
    row = None if action is None else action_rows.announced(action, record.undo_count)
    playing = action is not None and table.status == Table.Status.PLAYING
    game = carried_games.carried(record) if playing else None
    return partial(_announce, table, record.version, lobby=lobby, row=row, game=game)


def _arm_clock(record: GameRecord) -> bool:
    """Whether the turn just set needs a clock task of its own (the caller sends it after
    commit, and saves the record).

    Not when the task sent for an earlier turn runs later than now and no later than this
    turn's deadline: that one finds the game moved on and sends the task for the turn then
    current (``_rearm_clock``). In a game of people moving faster than their clocks, a task
    goes out once per clock's length rather than once per move. A task that is lost is made
    good by the sweeper once its deadline is overdue, as before.
    """
    deadline, pending = record.turn_deadline, record.clock_task_at
    if deadline is None:
        return False
    if pending is not None and timezone.now() < pending <= deadline:
        return False
    record.clock_task_at = deadline
    return True


def _rearm_clock(record: GameRecord) -> None:
    """A clock task of an earlier turn ran: send the current turn's, unless one is pending."""
    if _arm_clock(record):
        record.save(update_fields=["clock_task_at"])
        transaction.on_commit(partial(_schedule, record.pk, record.version, record.turn_deadline))


# Moves


@dataclass(frozen=True)
class TableMove:
    record: GameRecord
    state: Any
    table: Table
    """The table as the move left it."""
    seats: list[Seat]
    action: Action


def seat_of(seats: list[Seat], user: User | None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return next((seat.number for seat in seats if seat.user_id == user.pk), None)


def _delay(table: Table, seats: list[Seat], seat: int | None) -> float | None:
    """How long the seat to act has, in seconds; ``None`` when the game is over."""
    if seat is None:
        return None
    if seat == TABLE_SEAT:
        return settings.TABLE_TIE_REPLAY_DELAY_S
    if _is_bot(seats, seat):
        return settings.TABLE_BOT_DELAY_S
    return float(table.clock_seconds)


def _is_bot(seats: list[Seat], seat: int) -> bool:
    return any(s.number == seat and s.is_bot for s in seats)


def _is_person(seats: list[Seat], seat: int | None) -> bool:
    if seat is None or seat == TABLE_SEAT:
        return False
    return not _is_bot(seats, seat)


def _set_deadline(record: GameRecord, table: Table, seats: list[Seat], seat: int | None) -> None:
    delay = _delay(table, seats, seat)
    record.turn_deadline = None if delay is None else timezone.now() + dt.timedelta(seconds=delay)


def _schedule(game_id: int, version: int, deadline: dt.datetime | None) -> None:
    if deadline is None:
        return
    from games.tasks import advance_table

    advance_table.apply_async((game_id, version), eta=deadline)


def _after_move(table: Table, seats: list[Seat]) -> moves.Announce:
    """What a stored move changes at ``table``: the next turn's clock, the table's status,
    and after commit the announcement, the next turn's task and a finished match's report."""

    def announce(record: GameRecord, state: Any, action: Action) -> None:
        _set_deadline(record, table, seats, get_engine(record.game).current_player(state))
        armed = _arm_clock(record)
        finished = record.is_over
        if finished:
            table.status = Table.Status.FINISHED
            table.lobby_version += 1
            table.save(update_fields=["status", "lobby_version"])
            notices.settle(about=notices.about_table(table.pk))  # "go to your table": done
        _after_commit(table, record, lobby=finished, schedule=armed, action=action)
        if finished:
            _rate(record, table, seats)
        if finished and record.kind == GameRecord.Kind.TOURNAMENT:
            transaction.on_commit(lambda: _report_match(record.pk))

    return announce


def _rate(record: GameRecord, table: Table, seats: list[Seat]) -> None:
    """RT-2: a game of a rated table whose every seat is a person changes their ratings,
    in the transaction that records its end (RT-4). ``seats`` by number, with their users."""
    if not table.rated:
        return
    people = [seat.user for seat in seats if seat.user is not None and not seat.is_bot]
    if len(people) != len(seats) or record.outcome is None:
        return
    places = get_engine(record.game).places(record.outcome)
    ratings.rate_game(record.pk, record.game, people, places)


def _apply_locked(
    record: GameRecord,
    table: Table,
    seats: list[Seat],
    seat: int,
    move: str | Mapping[str, object],
    *,
    timed_out: bool = False,
) -> TableMove:
    moved = moves.apply_locked(record, seat, move, announce=_after_move(table, seats), timed_out=timed_out)
    return TableMove(moved.record, moved.state, table, seats, moved.action)


def _report_match(game_id: int) -> None:
    """Tell the tournaments app that a match ended. By task name, so that games never imports
    tournaments; its sweeper records any result whose message is lost."""
    from config.celery import app

    app.send_task("tournaments.tasks.record_match", args=(game_id,))


_LOCKED_GAME = CompiledGet(
    lambda: GameRecord.objects.select_for_update(of=("self",)).select_related("table"), "table__pk"
)


def _locked_game(table_id: int) -> tuple[Table, GameRecord, list[Seat]]:
    """The table's game, locked, and the table read under that lock, with its seats."""
    try:
        record = _LOCKED_GAME.get(table_id)
    except GameRecord.DoesNotExist:
        if Table.objects.filter(pk=table_id).exists():
            raise GameError("This table has not started yet.") from None
        raise GameError("There is no such table.") from None
    return record.table, record, seats_of(record.table)


def act(
    *, table_id: int, user: User | None, move: str | Mapping[str, object], expected_version: int | None
) -> TableMove:
    """A person's move from their seat: its text, or the fields of the page's form (which
    the engine reads). Stale versions, moves out of turn and illegal moves are refused."""
    if not isinstance(move, Mapping):
        moves.check_text(move, "'check' or 'take 0,3'")
    with transaction.atomic():
        table, record, seats = _locked_game(table_id)
        seat = seat_of(seats, user)
        if seat is None:
            raise GameError("You are watching this table: only its players can move.")
        if expected_version is not None and expected_version != record.version:
            raise StaleVersion("The table moved on before your move arrived: it is shown as it stands now.")
        return _apply_locked(record, table, seats, seat, move)


@dataclass(frozen=True)
class KeptMove:
    """A move checked and applied on the table as this process keeps it, not yet stored."""

    table: Table
    seats: list[Seat]
    before: GameRecord
    after: GameRecord
    """The game's row as the move leaves it (a copy: ``before`` stays as kept)."""
    state: Any
    action: Action
    armed: bool
    """Whether the move's turn needs a clock task of its own (``_arm_clock``)."""


def check_on_kept(
    table: Table,
    seats: list[Seat],
    user: User | None,
    move: str | Mapping[str, object],
    expected_version: int,
) -> KeptMove | None:
    """The move checked and applied on the kept table, with the row and the action it would
    store; ``None`` when this way cannot settle it: a refusal (``act`` gives it), a move that
    ends the game (ratings, the tournament's report), a table kept at another version. Reads
    nothing (where a state is not kept, the read raises ``SynchronousOnlyOperation`` on a
    loop)."""
    record = table.record
    if record is None or record.version != expected_version or record.is_over:
        return None
    seat = seat_of(seats, user)
    if seat is None or table.status != Table.Status.PLAYING:
        return None
    engine = get_engine(record.game)
    try:
        if not isinstance(move, Mapping):
            moves.check_text(move, "")
        action, state = moves.checked(engine, current_state(record), seat, move)
    except GameError:
        return None
    if engine.outcome(state) is not None:
        return None
    after = copy.copy(record)
    now = moves.counted(after)
    _set_deadline(after, table, seats, engine.current_player(state))
    armed = _arm_clock(after)
    stored = Action(game=after, seq=record.action_count, seat=seat, text=str(action), created_at=now)
    return KeptMove(table, seats, record, after, state, stored, armed)


def act_on_kept(
    table: Table,
    seats: list[Seat],
    user: User | None,
    move: str | Mapping[str, object],
    expected_version: int,
) -> TableMove | None:
    """``act`` from the table as this process keeps it at ``expected_version`` (``table_frames``),
    without reading or locking its game (``move_writes``). ``None`` when this way cannot
    settle the move (``check_on_kept``), or the game moved on since. In a transaction (a batch
    of moves, ``table_frames.play_batch``), the move is stored when it commits, and kept then."""
    kept = check_on_kept(table, seats, user, move, expected_version)
    if kept is None or not move_writes.store_if_unmoved(kept.before, kept.after, kept.action):
        return None
    moved = _moved_table(kept)
    # At once in autocommit; in a batch's transaction, only once it stands.
    transaction.on_commit(partial(remember_state, kept.after, kept.state))
    _after_commit(moved, kept.after, lobby=False, schedule=kept.armed, action=kept.action)
    return TableMove(kept.after, kept.state, moved, seats, kept.action)


def stored_outside_django(kept: KeptMove) -> TableMove:
    """What follows the commit of a kept move that was stored on a connection of its own
    (``games.loop_writes``), where Django's ``on_commit`` has no transaction to wait for: the
    state kept, and the announcement sent (from the loop, ``config.group_sends``). Its clock
    task, if ``kept.armed``, is the caller's to send (``schedule_clock``): Celery's publish
    blocks."""
    moved = _moved_table(kept)
    remember_state(kept.after, kept.state)
    _announcement(moved, kept.after, lobby=False, action=kept.action)()
    return TableMove(kept.after, kept.state, moved, kept.seats, kept.action)


def schedule_clock(kept: KeptMove) -> None:
    _schedule(kept.after.pk, kept.after.version, kept.after.turn_deadline)


def _moved_table(kept: KeptMove) -> Table:
    moved = copy.copy(kept.table)
    moved.record = kept.after
    return moved


def advance(*, game_id: int, version: int) -> bool:
    """Make the move that is due at ``version``, if it still is: a bot's, a timed-out seat's
    (LP-1) or the table's tie replay. Returns whether a move was made.

    LP-5: an outage that just ended moves the deadline on before it is judged (this task may
    be one that waited in Redis through the outage), and while the site is down a person's
    clock takes no action: they cannot be at the table. Call it outside a transaction that
    holds a game row (``outages.resume_if_down`` may lock them all).
    """
    site_up = outages.resume_if_down()
    with transaction.atomic():
        record = (
            GameRecord.objects.select_for_update().filter(pk=game_id, kind__in=GameRecord.TABLE_KINDS).first()
        )
        if record is None or record.is_over:
            return False
        if record.version != version:
            _rearm_clock(record)
            return False
        table = Table.objects.get(record=record)
        seats = seats_of(table)
        engine = get_engine(record.game)
        state = current_state(record)
        seat = engine.current_player(state)
        if seat is None:
            return False
        if seat == TABLE_SEAT:
            text = str(engine.legal_actions(state)[0])
        else:
            view = engine.view(state, seat)
            chooser_seed = bot_seed(record.seed, seat, record.action_count)
            if _is_bot(seats, seat):
                text = engine.bot_action(view, chooser_seed)
            elif site_up and record.turn_deadline is not None and timezone.now() >= record.turn_deadline:
                text = FORFEIT if _no_show(record, seat) else engine.timeout_action(view, chooser_seed)
                seq = record.action_count
                moved = _apply_locked(record, table, seats, seat, text, timed_out=True)
                _tell_timed_out(table, seq, seat, state, text, moved.state)
                return True
            else:
                return False
        _apply_locked(record, table, seats, seat, text)
        return True


def _tell_timed_out(table: Table, seq: int, seat: int, before: Any, text: str, after: Any) -> None:
    """LP-1's move is said to the person it was made for, as the table's log says it."""
    from accounts import event_notices  # accounts' notices import the tournaments app
    from games.narration import narrate

    seats = seats_of(table)
    said = narrate(table.game, before, text, after, [s.name for s in seats], reveal=False)
    event_notices.timed_out(table, seq, next((s.user for s in seats if s.number == seat), None), said)


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
    Each game's ``advance`` is scheduled again at its new deadline (the old task, if it
    survived, finds the deadline not yet due). Returns how many games moved.

    Expects the caller's transaction (``outages`` holds the outage lock); locks the games' rows.
    """
    moved = 0
    records = GameRecord.objects.select_for_update().filter(
        kind__in=GameRecord.TABLE_KINDS, status=GameRecord.Status.PLAYING, turn_deadline__isnull=False
    )
    for record in records.order_by("pk"):  # one order for every caller: no deadlock between two
        table = Table.objects.get(record=record)
        assert record.turn_deadline is not None  # the query asks for one
        later: dt.datetime = record.turn_deadline + by
        try:
            seat = get_engine(record.game).current_player(current_state(record))
        except (RuntimeError, ValueError):
            # A game this server cannot rebuild (an engine version it lacks, actions that no
            # longer replay) cannot be played here either; it must not keep every other
            # game's clock from resuming. (A database error is not caught: it ends the whole
            # resume, which the next heartbeat tries again.)
            logger.exception("LP-5: game %s could not be rebuilt; its deadline only moves on", record.pk)
            seat, record.turn_deadline = None, later
        seats = seats_of(table)
        delay = _delay(table, seats, seat)
        if delay is not None:
            fresh = now + dt.timedelta(seconds=delay)
            record.turn_deadline = max(later, fresh) if _is_person(seats, seat) else min(later, fresh)
        record.clock_task_at = record.turn_deadline
        record.save(update_fields=["turn_deadline", "clock_task_at"])
        moved += 1
        # robust: one task that cannot be sent must not stop the others (the sweeper makes it good).
        transaction.on_commit(
            partial(_schedule, record.pk, record.version, record.turn_deadline), robust=True
        )
    return moved


def overdue_games(grace_s: float = 2.0) -> list[tuple[int, int]]:
    """(game, version) of table games whose turn is overdue: for the sweeper that makes a
    lost scheduled task (say, a worker that died) good."""
    cutoff = timezone.now() - dt.timedelta(seconds=grace_s)
    return list(
        GameRecord.objects.filter(
            kind__in=GameRecord.TABLE_KINDS, status=GameRecord.Status.PLAYING, turn_deadline__lt=cutoff
        ).values_list("pk", "version")
    )
