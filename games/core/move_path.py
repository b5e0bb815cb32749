"""Every move of every game goes through here: a socket's, a solitaire page's, a bot's, a turn
clock's, a tie replay's, a closing event's resignation. docs/architecture.md ("One move
path") lists the hops.

1. **Decide** (``decide``, pure): the engine applies the move to the state of the version the
   move was made from (the snapshot, ``games.core.snapshots``), and the game's row is worked out
   as the move leaves it. A refusal raises ``GameError`` and nothing is written.
2. **Store** (``_store``, one transaction, Django's ORM, the same on SQLite and PostgreSQL):
   the game's row is updated only if it is still at that version (a compare-and-set: an
   ``UPDATE ... WHERE version = v``, which on PostgreSQL also waits for a concurrent move's
   lock and then finds the row moved on), the action is inserted, and a game that ends
   writes its result, ratings (none if everyone had left it to the clocks, RT-5) and table
   status. A game that moved on writes nothing and is refused with ``StaleVersion``;
   ``(game, seq)`` is unique, so no move is ever stored twice.
3. **Announce** (``_committed``, after commit): the new snapshot is kept, ``TableChanged``
   (the version, no card) is sent or handed back to the caller, and the turn clock's task
   goes out if the move needs one.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.db import router, transaction
from django.db.models import F
from django.utils.translation import gettext_lazy

from accounts.models import User
from games.core import announcements, finishes, moves, rated, snapshots
from games.core.announcements import TableChanged
from games.core.errors import GameError, StaleVersion
from games.core.snapshots import Snapshot
from games.engine import get_engine
from games.live import turn_clocks, turns
from games.models import Action, GameRecord, Seat, Table

logger = logging.getLogger(__name__)

Move = str | Mapping[str, object]
"""A move's text, or the fields of the page's form (which the engine reads)."""
Outbox = list[TableChanged]
"""Where a move's announcement goes once committed, for its caller to send
(``announcements.send_async``); without one, it is sent at once."""

# Lazy: worded when the refusal is sent, in its reader's language (a table's moves are played
# in batches on the database thread, whichever socket's language is active there).
TABLE_STALE = gettext_lazy("The table moved on before your move arrived: it is shown as it stands now.")
GAME_STALE = gettext_lazy(
    "This game changed in another tab or window: the board is now shown as it stands. Try again."
)


@dataclass(frozen=True)
class Decided:
    """A move checked and applied to a snapshot, not yet stored."""

    before: Snapshot
    record: GameRecord
    """The game's row as the move leaves it (a copy: the snapshot's stays as it was)."""
    state: Any
    seat: int
    text: str
    timed_out: bool
    armed: bool
    """Whether the next turn needs a clock task of its own (``turn_clocks.arm``)."""

    @property
    def table(self) -> Table | None:
        return self.before.table

    @property
    def finished(self) -> bool:
        return self.record.is_over and not self.before.record.is_over


def decide(before: Snapshot, seat: int, move: Move, *, timed_out: bool = False) -> Decided:
    record = before.record
    engine = get_engine(record.game)
    action, state = moves.checked(engine, before.state, seat, move)
    after = copy.copy(record)
    moves.counted(after)
    moves.finish_if_over(after, engine, state)
    armed = False
    if before.table is not None:
        turn_clocks.set_deadline(after, before.table, before.seats, engine.current_player(state))
        armed = turn_clocks.arm(after)
    return Decided(before, after, state, seat, str(action), timed_out, armed)


def _store(decided: Decided, outbox: Outbox | None, inserts: list[Action] | None = None) -> bool:
    """In the caller's transaction; ``False``, having written nothing, if the game is no
    longer at the snapshot's version (or its clock task changed since). The action goes to
    ``inserts`` if given (a batch's, inserted together), else is inserted at once, as is one
    that ends the game (what is written for its end comes after its last action)."""
    before, after = decided.before.record, decided.record
    changed = {
        field.attname: getattr(after, field.attname)
        for field in GameRecord._meta.concrete_fields
        if not field.primary_key and getattr(after, field.attname) != getattr(before, field.attname)
    }
    unmoved = GameRecord.objects.filter(
        pk=before.pk, version=before.version, clock_task_at=before.clock_task_at
    )
    if not unmoved.update(**changed):
        return False
    action = Action(
        game_id=before.pk,
        seq=before.action_count,
        seat=decided.seat,
        text=decided.text,
        timed_out=decided.timed_out,
    )
    if inserts is None or after.is_over != before.is_over:
        action.save(force_insert=True)
    else:
        inserts.append(action)
    if after.is_over != before.is_over:
        finishes.sync(after)
    table = decided.table
    if table is not None and turn_clocks.is_turn_based(table.clock_seconds):
        to_act = get_engine(after.game).current_player(decided.state)
        turns.sync(table, decided.before.seats, after, to_act, new_turn=to_act != decided.seat)
    if decided.finished and decided.table is not None:
        _table_finished(decided)
    transaction.on_commit(partial(_committed, decided, outbox), using=router.db_for_write(GameRecord))
    return True


def _table_finished(decided: Decided) -> None:
    from accounts import notices, ratings

    table, record = decided.table, decided.record
    assert table is not None
    Table.objects.filter(pk=table.pk).update(
        status=Table.Status.FINISHED, lobby_version=F("lobby_version") + 1
    )
    notices.settle(about=notices.about_table(table.pk))  # "go to your table": done
    seats = decided.before.seats
    people = [seat.user for seat in seats if seat.user is not None and not seat.is_bot]
    # RT-2: a rated table whose every seat is a person rates its game, in this transaction
    # (RT-4), unless everyone had left it to the clocks (RT-5: the ending move's action is
    # inserted).
    rates = table.rates_with(seats) and len(people) == len(seats) and record.outcome is not None
    if rates and not rated.everyone_left(record.pk, seats):
        places = get_engine(record.game).places(record.outcome or {})
        ratings.rate_game(record.pk, record.game, people, places)
    if record.kind == GameRecord.Kind.TOURNAMENT:
        transaction.on_commit(partial(_report_match, record.pk))
    # Each seat's odds at every step, for the replay (issue 46): seconds of play-outs, on the
    # analysis queue's worker, once the game's end is committed. Robust: a lost message costs
    # only a wait, since the replay asks again for figures it does not find.
    transaction.on_commit(partial(_analyse, record.pk), robust=True)


def _analyse(game_id: int) -> None:
    from games.tasks import analyse_table_game

    analyse_table_game.delay(game_id)


def _report_match(game_id: int) -> None:
    """Tell the tournaments app that a match ended. By task name, so that games never imports
    tournaments; its sweeper records any result whose message is lost."""
    from config.celery import app

    app.send_task("tournaments.tasks.record_match", args=(game_id,))


def _committed(decided: Decided, outbox: Outbox | None) -> None:
    record, table = decided.record, decided.table
    try:
        snapshots.keep(_snapshot_after(decided))
    except Exception:  # a snapshot is a convenience: the next reader builds it from the rows
        logger.exception("the snapshot of game %s at version %s was not kept", record.pk, record.version)
    if table is not None:
        event = TableChanged(table.pk, record.pk, record.version, lobby=decided.finished)
        if outbox is None:
            announcements.send([event])
        else:
            outbox.append(event)
    if decided.armed:
        turn_clocks.schedule(record.pk, record.version, record.turn_deadline)


def _snapshot_after(decided: Decided) -> Snapshot:
    table, record = decided.table, copy.copy(decided.record)  # the caller's copy may change
    if table is None:
        return Snapshot(record, decided.state)
    moved = copy.copy(table)
    moved.record = record
    if decided.finished:
        moved.status = Table.Status.FINISHED
    row = (decided.text, decided.timed_out)
    return snapshots.following(decided.before, moved, record, [row], [decided.state])


def _store_decided(decided: Decided, outbox: Outbox | None) -> bool:
    with transaction.atomic(using=router.db_for_write(GameRecord)):
        return _store(decided, outbox)


# Tables


def seat_of(seats: Sequence[Seat], user: User | None) -> int | None:
    """``user``'s seat at a table, ``None`` for a spectator (anonymous or not seated)."""
    if user is None or not user.is_authenticated:
        return None
    return next((seat.number for seat in seats if seat.user_id == user.pk), None)


def table_now(table_id: int) -> Snapshot:
    """The started table as it stands (read from the database, its snapshot built or found)."""
    try:
        table = snapshots.read_table(table_id)
    except Table.DoesNotExist:
        raise GameError("There is no such table.") from None
    if table.record is None:
        raise GameError("This table has not started yet.")
    return snapshots.of_table(table)


@dataclass(frozen=True, eq=False)
class SocketMove:
    """A person's move at a table, made from ``expected_version`` (``None``: as the table
    stands). ``game_id``, if the caller knows it, finds the snapshot without a read."""

    table_id: int
    user: User | None
    move: Move
    expected_version: int | None
    game_id: int | None = None


def play_at_tables(moves: Sequence[SocketMove], outbox: Outbox | None = None) -> list[Decided | Exception]:
    """Each of ``moves`` (different sockets', queued while the last batch was stored), decided
    and then stored in one transaction: one commit for them all, where each commit waits for
    the database's log to reach the disk. Each is still its own compare-and-set, so one move's
    refusal is its own: a game that moved on writes nothing. A move that ends its game writes
    much more (results, ratings, a tournament's report) in a savepoint of its own, so its
    failure is its own too; any other failure is the database's, and fails the batch (nothing
    of it is stored). Moves are stored in the order of their games' rows, so that two batches
    never each hold a row the other waits for. A move whose row moved on since its snapshot is
    decided again from the row as it stands, once. Returns each move's ``Decided``, or what
    refused it."""
    results: list[Decided | Exception | None] = [None] * len(moves)
    pending, fresh = list(range(len(moves))), False
    while pending:
        decided: list[tuple[int, Decided]] = []
        for n in pending:
            try:
                decided.append((n, _decide_at_table(moves[n], fresh)))
            except GameError as exc:
                results[n] = exc
        try:
            with transaction.atomic(using=router.db_for_write(GameRecord)):
                outcomes = _store_batch(decided, outbox)
        except Exception as exc:  # the asker's to handle (raised to the socket's consumer)
            outcomes = [(n, exc) for n, _ in decided]
        moved_on = [n for n, outcome in outcomes if outcome is None]
        for n, outcome in outcomes:
            if outcome is not None:
                results[n] = outcome
        if fresh:  # read again already: the game moved on meanwhile
            for n in moved_on:
                results[n] = StaleVersion(TABLE_STALE)
            moved_on = []
        pending, fresh = moved_on, True
    return [result if result is not None else StaleVersion(TABLE_STALE) for result in results]


def _store_batch(
    decided: list[tuple[int, Decided]], outbox: Outbox | None
) -> list[tuple[int, Decided | Exception | None]]:
    """Each move's outcome: stored (its ``Decided``), failed (a move that ends its game), or
    ``None`` if its game moved on."""
    outcomes: list[tuple[int, Decided | Exception | None]] = []
    inserts: list[Action] = []
    for n, one in sorted(decided, key=lambda each: each[1].record.pk):
        if len(decided) > 1 and one.record.is_over != one.before.record.is_over:
            try:
                with transaction.atomic(using=router.db_for_write(GameRecord)):  # a savepoint
                    done = _store(one, outbox)
            except Exception as exc:
                outcomes.append((n, exc))
                continue
        else:
            done = _store(one, outbox, inserts)
        outcomes.append((n, one if done else None))
    # One INSERT for the batch's actions: A/B on PostgreSQL, saturated, 471.6 / 475.6 moves/s
    # with one a move against 500.6 / 506.2 (ratio 0.335 / 0.343 -> 0.367, issue 43's goal 0.35).
    Action.objects.bulk_create(inserts)
    return outcomes


def _decide_at_table(move: SocketMove, fresh: bool) -> Decided:
    if not isinstance(move.move, Mapping):
        moves.check_text(move.move, "'check' or 'take 0,3'")
    before = None
    if not fresh and move.game_id is not None and move.expected_version is not None:
        kept = snapshots.find(move.game_id, move.expected_version)
        if kept is not None and kept.table is not None and kept.table.pk == move.table_id:
            before = kept
    if before is None:
        # The row moved on since the snapshot (another process's move), or only its clock task
        # changed (a clock that ran and sent the next): the table as it stands.
        before = table_now(move.table_id)
    if move.expected_version is not None and before.version != move.expected_version:
        raise StaleVersion(TABLE_STALE)
    seat = seat_of(before.seats, move.user)
    if seat is None:
        raise GameError("You are watching this table: only its players can move.")
    return decide(before, seat, move.move)


def play_at_table(
    *,
    table_id: int,
    user: User | None,
    move: Move,
    expected_version: int | None,
    game_id: int | None = None,
    outbox: Outbox | None = None,
) -> Decided:
    """One person's move (``play_at_tables``); raises what refused it."""
    (result,) = play_at_tables([SocketMove(table_id, user, move, expected_version, game_id)], outbox)
    if isinstance(result, Exception):
        raise result
    return result


def play_due(before: Snapshot, seat: int, text: str, *, timed_out: bool = False) -> Decided | None:
    """The move due at ``before``'s version for ``seat`` (a bot's, a timed-out seat's, the
    table's tie replay), from a Celery task; ``None`` if the game moved on meanwhile."""
    decided = decide(before, seat, text, timed_out=timed_out)
    return decided if _store_decided(decided, None) else None


# Games alone


def play_game(
    record: GameRecord, move: Move, *, expected_version: int | None, unrank: bool = False
) -> Decided:
    """A solitaire move (seat 0) on ``record`` as the caller read and checked it (its owner,
    its day, its event's window): ``StaleVersion`` if the game is no longer at that version,
    or at ``expected_version``. ``unrank``: the move no longer counts on its day's board."""
    if expected_version is not None and expected_version != record.version:
        raise StaleVersion(GAME_STALE)
    before = Snapshot(record, snapshots.state_of(record))
    decided = decide(before, 0, move)
    if unrank:
        decided.record.ranked = False
    if not _store_decided(decided, None):
        raise StaleVersion(GAME_STALE)
    return decided
