"""The one cache: each game as it stands at one version, kept per process.

A snapshot is everything a page or a socket's frame needs of a game at a version: the game's
row and state and, at a table, the table, its seats, the log's last moves in words and the
ratings shown. A version's snapshot never changes (versions only grow, and a snapshot is
kept only once the version has committed), so an entry is never stale, only unused, and the
least recently used goes first.

The event loop and Django's database thread share the cache: one lock guards it. Snapshots
are built on the thread (they read the database); a socket's frame is drawn on the loop from
a snapshot found here (``find``), or on the thread when there is none.
"""

from __future__ import annotations

import copy
import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q

from games import kinds
from games.core import narration, rated
from games.engine import get_engine
from games.models import Action, GameRecord, Seat, Table

CACHE_SIZE = 1024
"""Snapshots kept per process: a few versions of each game being played here."""
LOG_LENGTH = 8
"""How many of the latest moves a table's log lists (the replay has them all)."""


@dataclass(frozen=True)
class LogLine:
    seq: int
    said: narration.Said
    """What a spectator could see of the move (LP-3: ``reveal=False``), in words: ``str()``
    says it in the reader's language."""
    timed_out: bool


@dataclass(eq=False)
class Snapshot:
    record: GameRecord
    state: Any
    table: Table | None = None
    """The table the game is played at; ``None`` for a solitaire game."""
    seats: list[Seat] = field(default_factory=list)
    window: tuple[Any, ...] = ()
    """At a table, the states after each of the last moves (the last one is ``state``): what
    the log's next sentence is said from."""
    log: tuple[LogLine, ...] = ()
    rating_rows: list[dict[str, Any]] = field(default_factory=list)
    unrated_by: tuple[str, ...] = ()
    """RT-5: a finished game its table would have rated, not rated: the people, who had all left."""
    tournament: Any = None
    """A finished tournament game's tournament, for the page's way back."""
    memo: dict[Any, Any] = field(default_factory=dict)
    """What is drawn from the snapshot once for all who see it (frames by seat and language,
    the public parts by language): a dict's item assignment is atomic, so two threads at most
    draw one twice."""

    @property
    def version(self) -> int:
        return self.record.version

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]


class _Cache:
    """Snapshots by (game, version), and the newest kept of each game (to build the next from)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[int, int], Snapshot] = OrderedDict()
        self._newest: dict[int, int] = {}

    def find(self, game_id: int, version: int) -> Snapshot | None:
        with self._lock:
            found = self._entries.get((game_id, version))
            if found is not None:
                self._entries.move_to_end((game_id, version))
            return found

    def newest(self, game_id: int) -> Snapshot | None:
        with self._lock:
            version = self._newest.get(game_id)
            return None if version is None else self._entries.get((game_id, version))

    def keep(self, snapshot: Snapshot) -> None:
        game_id, version = snapshot.record.pk, snapshot.version
        with self._lock:
            # A table's snapshot is never replaced by a state alone of the same version.
            kept = self._entries.get((game_id, version))
            if kept is None or kept.table is None or snapshot.table is not None:
                self._entries[(game_id, version)] = snapshot
            self._entries.move_to_end((game_id, version))
            if self._newest.get(game_id, -1) < version:
                self._newest[game_id] = version
            while len(self._entries) > self.size:
                (old_game, old_version), _ = self._entries.popitem(last=False)
                if self._newest.get(old_game) == old_version:
                    del self._newest[old_game]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._newest.clear()


_cache = _Cache(CACHE_SIZE)
find = _cache.find
keep = _cache.keep
clear = _cache.clear


# Games alone (their state): solitaire pages and moves, replays of a game in play.


def state_of(record: GameRecord) -> Any:
    """The game's state at ``record``'s version. Kept only if ``record`` is a committed row
    (read outside a transaction): inside one, what was read may yet be rolled back."""
    kept = find(record.pk, record.version)
    if kept is not None:
        return kept.state
    state = _rebuilt(record)
    # A copy: the caller's row may change under it (``refresh_from_db``), the kept one never.
    _keep_committed(Snapshot(copy.copy(record), state))
    return state


def _keep_committed(snapshot: Snapshot) -> None:
    """Kept only if read outside a transaction: inside one, what was read may yet be rolled
    back, and another version of the same number would then find it."""
    if not transaction.get_connection().in_atomic_block:
        keep(snapshot)


def _rebuilt(record: GameRecord) -> Any:
    """From the newest state kept of the game with only the actions since, while no undo came
    between (an undo puts another action in a place already applied); else from the deal."""
    engine = get_engine(record.game)
    if record.engine_version != engine.version:
        raise RuntimeError(
            f"game {record.pk} was played with {record.game} engine version {record.engine_version}, "
            f"and this server has version {engine.version}"
        )
    newest = _cache.newest(record.pk)
    if (
        newest is not None
        and newest.record.undo_count == record.undo_count
        and newest.record.action_count <= record.action_count
    ):
        state = newest.state
        for text, _ in _actions(record, newest.record.action_count):
            state = engine.apply(state, text)
        return state
    texts = [text for text, _ in _actions(record, 0)]
    return engine.replay(record.config, record.seed, texts, deck=record.deck)[-1]


def _actions(record: GameRecord, start: int) -> list[tuple[str, bool]]:
    """The game's actions from ``start`` to the version read: not one committed since."""
    rows = record.actions.filter(seq__gte=start, seq__lt=record.action_count).order_by("seq")
    return list(rows.values_list("text", "timed_out"))


# Tables.


def read_table(table_id: int) -> Table:
    """The table and its game, from the database (``Table.DoesNotExist`` if there is none)."""
    return Table.objects.select_related("record").get(pk=table_id)


def read_seats(table: Table) -> list[Seat]:
    return list(table.seats.select_related("user").order_by("number"))


def of_table(table: Table) -> Snapshot:
    """The snapshot of a started table as read (``read_table``): the one kept for its version,
    or one built from the newest kept of its game (reading only the moves since), or from
    the deal. Kept only outside a transaction (see ``state_of``)."""
    found = of_tables([table])[0]
    if isinstance(found, Exception):
        raise found
    return found


def of_tables(tables: Sequence[Table]) -> list[Snapshot | Exception]:
    """``of_table`` for each of several started tables, with the moves since each one's
    newest snapshot read in one query for all; one table's failure is its own."""
    drawn: list[Snapshot | Exception | None] = []
    behind: list[tuple[int, Table, GameRecord, Snapshot]] = []
    for table in tables:
        table = copy.copy(table)  # the snapshot's own: the caller's may change under it
        table.record = record = copy.copy(table.record)
        assert record is not None, "an open table has no game yet"
        try:
            kept = find(record.pk, record.version)
            if kept is not None and kept.table is not None:
                drawn.append(_same_version(kept, table, record))
                continue
            newest = _cache.newest(record.pk)
            if newest is None or newest.table is None or newest.record.action_count > record.action_count:
                drawn.append(_from_the_deal(table, record))
            else:
                behind.append((len(drawn), table, record, newest))
                drawn.append(None)
        except Exception as exc:
            drawn.append(exc)
    rows = _actions_since([(newest.record.action_count, record) for _, _, record, newest in behind])
    for (at, table, record, newest), moves in zip(behind, rows, strict=True):
        try:
            drawn[at] = following(newest, table, record, moves)
        except Exception as exc:
            drawn[at] = exc
    for snapshot in drawn:
        if isinstance(snapshot, Snapshot):
            _keep_committed(snapshot)
    return [found for found in drawn if found is not None]


def _same_version(kept: Snapshot, table: Table, record: GameRecord) -> Snapshot:
    if kept.record.clock_task_at == record.clock_task_at:
        return kept
    # The same moment, but a clock task was sent since (``turn_clocks.rearm``), which changes
    # the row without a new version: the row as it is now, or a move's compare-and-set would
    # miss it again and again.
    return dataclasses.replace(kept, table=table, record=record, memo={})


def _actions_since(games: Sequence[tuple[int, GameRecord]]) -> list[list[tuple[str, bool]]]:
    """For each (start, game read), the game's actions from ``start`` to the version read,
    in one query."""
    if not games:
        return []
    wanted = Q()
    for start, record in games:
        wanted |= Q(game_id=record.pk, seq__gte=start, seq__lt=record.action_count)
    by_game: dict[int, list[tuple[str, bool]]] = {record.pk: [] for _, record in games}
    for game_id, text, timed_out in (
        Action.objects.filter(wanted).order_by("game_id", "seq").values_list("game_id", "text", "timed_out")
    ):
        by_game[game_id].append((text, timed_out))
    return [by_game[record.pk] for _, record in games]


def _from_the_deal(table: Table, record: GameRecord) -> Snapshot:
    seats = read_seats(table)
    rows = _actions(record, 0)
    engine = get_engine(record.game)
    states = engine.replay(record.config, record.seed, [text for text, _ in rows], deck=record.deck)
    names = [seat.name for seat in seats]
    first = max(0, len(rows) - LOG_LENGTH)
    log = tuple(
        LogLine(seq, _said(record.game, states[seq], rows[seq][0], states[seq + 1], names), rows[seq][1])
        for seq in range(first, len(rows))
    )
    shown = rating_rows(table, seats, record)
    return Snapshot(
        record,
        states[-1],
        table,
        seats,
        window=tuple(states[-(LOG_LENGTH + 1) :]),
        log=log,
        rating_rows=shown,
        unrated_by=unrated_by(table, seats, record, shown),
        tournament=_tournament(table, record),
    )


def following(
    before: Snapshot,
    table: Table,
    record: GameRecord,
    rows: Sequence[tuple[str, bool]],
    states: Sequence[Any] | None = None,
) -> Snapshot:
    """The table at ``record``'s version from its snapshot ``before`` and the moves made since
    (``rows``: their texts and whether the clock made them), with the states they led to if
    the caller has them (the move path does); reads only the ratings of a game just ended."""
    assert before.table is not None
    engine = get_engine(record.game)
    window, log = list(before.window), list(before.log)
    seq = before.record.action_count
    for n, (text, timed_out) in enumerate(rows):
        after = states[n] if states is not None else engine.apply(window[-1], text)
        log.append(LogLine(seq + n, _said(record.game, window[-1], text, after, before.names), timed_out))
        window.append(after)
    same_ending = before.record.is_over == record.is_over
    shown = before.rating_rows if same_ending else rating_rows(table, before.seats, record)
    return Snapshot(
        record,
        window[-1],
        table,
        before.seats,
        window=tuple(window[-(LOG_LENGTH + 1) :]),
        log=tuple(log[-LOG_LENGTH:]),
        rating_rows=shown,
        unrated_by=before.unrated_by if same_ending else unrated_by(table, before.seats, record, shown),
        tournament=before.tournament if same_ending else _tournament(table, record),
    )


def _said(game: str, before: Any, text: str, after: Any, names: Sequence[str]) -> narration.Said:
    return narration.Said(game, before, text, after, names)


def rating_rows(table: Table, seats: list[Seat], record: GameRecord) -> list[dict[str, Any]]:
    """RT-3: each person's rating at a rated table, and once the game is over its change.
    A game's changes are written with the move that ends it (RT-4); while it is played, the
    table shows the ratings as they were when its process first built it."""
    if not table.rates_with(seats):
        return []
    from accounts.models import Rating
    from accounts.ratings import MODEL

    changes = {row.user_id: row for row in record.rating_changes.all()} if record.is_over else {}
    if record.is_over and not changes:
        return []  # RT-5: played out unrated (``unrated_by`` says why)
    users = [seat.user_id for seat in seats if seat.user_id is not None]
    current = {
        row.user_id: row for row in Rating.objects.filter(game=table.game, user_id__in=users).defer("history")
    }
    rows = []
    for seat in seats:
        if seat.user_id is None:
            continue
        change, rating = changes.get(seat.user_id), current.get(seat.user_id)
        shown = change.shown_after if change else rating.shown if rating else f"{round(MODEL.rating().mu)}?"
        rows.append({"name": seat.name, "shown": shown, "delta": change.delta if change else None})
    return rows


def unrated_by(
    table: Table, seats: list[Seat], record: GameRecord, rows: list[dict[str, Any]]
) -> tuple[str, ...]:
    """RT-5: the names of the people who had all left a finished game that its table would have
    rated and that was not (it has no ``rows``); empty for any other game."""
    if not record.is_over or rows or not table.rates_with(seats):
        return ()
    return tuple(seat.name for seat in rated.everyone_left(record.pk, seats))


def _tournament(table: Table, record: GameRecord) -> Any:
    if not record.is_over or record.kind != GameRecord.Kind.TOURNAMENT:
        return None
    from tournaments.models import Tournament

    return Tournament.objects.filter(matches__games__table=table).first()


def spectators_view(snapshot: Snapshot) -> Any:
    """The spectators' view of the snapshot's state, made once for its frames and its words."""
    view = snapshot.memo.get("spectators")
    if view is None:
        view = kinds.get(snapshot.record.game).engine.view(snapshot.state, None)
        snapshot.memo["spectators"] = view
    return view
