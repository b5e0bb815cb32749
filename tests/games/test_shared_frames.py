"""A socket's frame is drawn on the event loop from what its process keeps; else the sockets
of one process at a table share one call to the database thread per announced version. Each
still gets only its own seat's frame (LP-3)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgpack
import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games import (
    action_rows,
    carried_games,
    shared_frames,
    stale_sockets,
    state_cache,
    table_frames,
    table_log,
    table_presenter,
    tables,
)
from games.engine import get_engine
from games.models import GameRecord, Seat, Table
from games.state_cache import current_state
from tests.games.table_moments import dealt_heads_up_triad, dealt_triad_tables

pytestmark = pytest.mark.django_db(transaction=True)


@dataclass(eq=False)
class FakeSocket:
    """What ``frame_at`` reads of a socket."""

    table_id: int
    person: User | None
    hidden: bool = False
    channel_name: str = ""
    sent_version: int | None = None
    missed: bool = False


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    seen: dict[str, list[Any]] = {"shared": [], "own": []}

    def shared(table_id: int, viewers: list[User | None], version: int) -> Any:
        seen["shared"].append({table_frames.viewer_key(user) for user in viewers})
        return table_frames.render_for_viewers(table_id, viewers, version)

    def own(*args: Any) -> Any:
        drawn = table_frames.render_table(*args)
        seen["own"].append(args)  # drawn, not only tried (on the loop, with nothing kept)
        return drawn

    monkeypatch.setattr(shared_frames, "render_for_viewers", shared)
    monkeypatch.setattr(shared_frames, "render_table", own)
    return seen


async def at_table(*sockets: FakeSocket) -> None:
    for socket in sockets:
        stale_sockets._sockets.setdefault(socket.table_id, set()).add(socket)  # type: ignore[arg-type]


async def test_a_tables_sockets_share_one_call_and_each_gets_its_own_seats_frame(
    calls: dict[str, list[Any]],
) -> None:
    table, alice, bob = await sync_to_async(dealt_heads_up_triad)()
    sockets = [FakeSocket(table.pk, alice), FakeSocket(table.pk, bob), FakeSocket(table.pk, None)]
    await at_table(*sockets)
    try:
        frames = await asyncio.gather(*(shared_frames.frame_at(socket, 0) for socket in sockets))
    finally:
        stale_sockets._sockets.clear()
    assert calls["shared"] == [{alice.pk, bob.pk, None}] and calls["own"] == []
    for socket, (html, version) in zip(sockets, frames, strict=True):
        expected = await sync_to_async(table_frames.render_table)(table.pk, socket.person, "", 0)
        assert (html, version) == expected
    assert len({html for html, _ in frames}) == 3  # alice's, bob's and the spectators'


async def test_a_hidden_page_is_drawn_nothing_and_a_socket_after_the_call_draws_from_it(
    calls: dict[str, list[Any]],
) -> None:
    table, alice, bob = await sync_to_async(dealt_heads_up_triad)()
    alices, hidden_bobs = FakeSocket(table.pk, alice), FakeSocket(table.pk, bob, hidden=True)
    await at_table(alices, hidden_bobs)
    try:
        await shared_frames.frame_at(alices, 0)
        assert calls["shared"] == [{alice.pk}]
        late = FakeSocket(table.pk, None)
        await at_table(late)
        # The call for version 0 has ended, and kept the table: drawn on the loop.
        html, version = await shared_frames.frame_at(late, 0)
    finally:
        stale_sockets._sockets.clear()
    assert version == 0 and 'data-version="0"' in html
    assert calls["shared"] == [{alice.pk}] and calls["own"] == [(table.pk, None, "", 0)]


def _never_the_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    def asked(item: Any) -> Any:
        raise AssertionError("the database thread was asked for a frame")

    monkeypatch.setattr(shared_frames._batches, "submit", asked)


async def test_a_kept_tables_frames_are_drawn_on_the_loop_each_seat_its_own(
    calls: dict[str, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    table, alice, bob = await sync_to_async(dealt_heads_up_triad)()
    expected = {}
    for person in (alice, bob, None):  # drawn the thread's way: the table is kept at version 0
        expected[table_frames.viewer_key(person)] = await sync_to_async(table_frames.render_table)(
            table.pk, person, "", 0
        )
    table_frames._frames.clear()  # drawn again below, not found
    _never_the_thread(monkeypatch)
    sockets = [FakeSocket(table.pk, alice), FakeSocket(table.pk, bob), FakeSocket(table.pk, None)]
    await at_table(*sockets)
    try:
        frames = [await shared_frames.frame_at(socket, 0) for socket in sockets]
    finally:
        stale_sockets._sockets.clear()
    assert [args[1] for args in calls["own"]] == [alice, bob, None] and calls["shared"] == []
    assert frames == [expected[table_frames.viewer_key(s.person)] for s in sockets]
    assert len({html for html, _ in frames}) == 3


async def test_a_move_made_elsewhere_is_drawn_on_the_loop_from_its_announcement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, first, announcement = await sync_to_async(_moved_elsewhere)(monkeypatch, drawn_before=True)
    version = announcement["version"]
    _never_the_thread(monkeypatch)
    html, shown = await shared_frames.frame_at(FakeSocket(table.pk, first), version, _heard(announcement))
    monkeypatch.undo()
    table_frames._tables.clear()
    table_frames._frames.clear()
    assert shown == version
    assert (html, shown) == await sync_to_async(table_frames.render_table)(table.pk, first, "", version)


async def test_a_frame_that_needs_the_database_goes_to_the_thread(calls: dict[str, list[Any]]) -> None:
    table, alice, _ = await sync_to_async(dealt_heads_up_triad)()
    table_frames._tables.clear()  # as a process that never drew it: the table must be read
    html, version = await shared_frames.frame_at(FakeSocket(table.pk, alice), 0)
    assert calls["shared"] == [{alice.pk}] and calls["own"] == []
    assert version == 0 and (html, version) == await sync_to_async(table_frames.render_table)(
        table.pk, alice, "", 0
    )


@dataclass
class HeldCall:
    started: threading.Event
    release: threading.Event
    batches: list[list[int]]
    """Each call's tables, in order."""


@pytest.fixture
def held_first_call(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldCall]:
    """The first call to the database thread waits until the test lets it go."""
    held = HeldCall(threading.Event(), threading.Event(), [])
    draw = shared_frames._draw

    def recorded(batch: list[Any]) -> Any:
        held.batches.append([ask.table_id for ask in batch])
        if len(held.batches) == 1:
            held.started.set()
            held.release.wait(timeout=10)
        return draw(batch)

    monkeypatch.setattr(shared_frames, "_draw", recorded)
    yield held
    held.release.set()


def _dealt_tables(count: int) -> list[tuple[int, User]]:
    """``count`` dealt two-seat Triad tables, each with its first seat's person."""
    return [(table_id, first) for table_id, first, _ in dealt_triad_tables(count)]


async def _drawn(sockets: list[FakeSocket], held: HeldCall) -> list[Any]:
    """Each socket's frame at version 0: the first socket's asked for first, and the others'
    while the thread draws it."""
    await at_table(*sockets)
    try:
        first = asyncio.ensure_future(shared_frames.frame_at(sockets[0], 0))
        while not held.started.is_set():
            await asyncio.sleep(0.005)
        later = [asyncio.ensure_future(shared_frames.frame_at(socket, 0)) for socket in sockets[1:]]
        await asyncio.sleep(0.05)
        assert len(held.batches) == 1  # the others wait for the call under way to end
        held.release.set()
        return await asyncio.gather(first, *later, return_exceptions=True)
    finally:
        stale_sockets._sockets.clear()


async def test_versions_asked_for_while_the_thread_is_busy_are_drawn_in_one_call(
    held_first_call: HeldCall,
) -> None:
    dealt = await sync_to_async(_dealt_tables)(3)
    sockets = [FakeSocket(table_id, person) for table_id, person in dealt]
    frames = await _drawn(sockets, held_first_call)
    assert held_first_call.batches == [[dealt[0][0]], [dealt[1][0], dealt[2][0]]]
    for socket, frame in zip(sockets, frames, strict=True):
        assert frame == await sync_to_async(table_frames.render_table)(socket.table_id, socket.person, "", 0)


async def test_one_call_draws_at_most_a_batch(
    monkeypatch: pytest.MonkeyPatch, held_first_call: HeldCall
) -> None:
    monkeypatch.setattr(shared_frames._batches, "limit", 2)
    dealt = await sync_to_async(_dealt_tables)(4)
    frames = await _drawn([FakeSocket(table_id, person) for table_id, person in dealt], held_first_call)
    assert [len(batch) for batch in held_first_call.batches] == [1, 2, 1]
    assert all(isinstance(frame, tuple) for frame in frames)


async def test_a_table_gone_fails_its_own_sockets_only(held_first_call: HeldCall) -> None:
    dealt = await sync_to_async(_dealt_tables)(3)
    await sync_to_async(Table.objects.filter(pk=dealt[1][0]).delete)()
    frames = await _drawn([FakeSocket(table_id, person) for table_id, person in dealt], held_first_call)
    assert isinstance(frames[1], Table.DoesNotExist)
    assert isinstance(frames[0], tuple) and isinstance(frames[2], tuple)
    assert held_first_call.batches == [[dealt[0][0]], [dealt[1][0], dealt[2][0]]]


def _moved_elsewhere(
    monkeypatch: pytest.MonkeyPatch, *, drawn_before: bool = False
) -> tuple[Table, User, Any]:
    """A dealt table and one move, made as another process makes it: this one keeps none of
    its actions, and hears of the move from its announcement (caught here); with
    ``drawn_before``, it drew the table before the move (and keeps the table as it read it)."""
    table_id, first = _dealt_tables(1)[0]
    if drawn_before:
        table_frames.render_table(table_id, first, "", 0)
    heard: list[dict[str, Any]] = []
    monkeypatch.setattr(tables, "send_to_group", lambda group, message: heard.append(message))
    record = Table.objects.get(pk=table_id).record
    state = current_state(record)
    seat = get_engine(record.game).current_player(state)
    mover = first if seat == 0 else Seat.objects.get(table_id=table_id, number=seat).user
    tables.act(table_id=table_id, user=mover, move="check", expected_version=record.version)
    action_rows._rows.clear()
    state_cache._states.clear()
    state_cache._latest.clear()
    if not drawn_before:
        table_frames._tables.clear()
    table_frames._frames.clear()
    (announcement,) = [message for message in heard if message["type"] == "table.changed"]
    return Table.objects.get(pk=table_id), first, announcement


@pytest.mark.parametrize("carried", [True, False])
def test_a_move_s_announcement_carries_its_action_so_no_process_reads_it(
    monkeypatch: pytest.MonkeyPatch, carried: bool
) -> None:
    table, first, announcement = _moved_elsewhere(monkeypatch)
    action = table.record.actions.get()
    assert announcement["row"] == (table.record.pk, 0, 0, action.text, False)
    ask = _ask(table, [first, None], announcement)
    ask.heard = _heard(announcement)._replace(row=announcement["row"] if carried else None)
    with CaptureQueriesContext(connection) as queries:
        (frames,) = shared_frames._draw([ask])
    read_actions = [query["sql"] for query in queries.captured_queries if '"games_action"' in query["sql"]]
    assert (read_actions == []) is carried
    assert frames[first.pk] == table_frames.render_table(table.pk, first, "", announcement["version"])


def _ask(table: Table, viewers: list[User | None], announcement: dict[str, Any]) -> shared_frames._Ask:
    ask = shared_frames._Ask.__new__(shared_frames._Ask)
    ask.table_id, ask.version, ask.viewers = table.pk, announcement["version"], viewers
    ask.heard = _heard(announcement)
    return ask


def _heard(announcement: dict[str, Any]) -> shared_frames.Heard:
    """What the announcement carried, as the channel layer hands it over (msgpack's lists)."""
    return shared_frames.Heard.of(msgpack.unpackb(msgpack.packb(announcement), raw=False))


def _columns(record: GameRecord) -> dict[str, Any]:
    return {field.attname: getattr(record, field.attname) for field in GameRecord._meta.concrete_fields}


@pytest.mark.parametrize("drawn_before", [True, False])
def test_a_move_s_announcement_carries_what_it_changed_in_the_game_so_no_process_reads_it(
    monkeypatch: pytest.MonkeyPatch, drawn_before: bool
) -> None:
    """A process that kept the table at the version before reads nothing to draw the move's;
    one that did not reads it, as before. Either way the frame is the one a read draws."""
    table, first, announcement = _moved_elsewhere(monkeypatch, drawn_before=drawn_before)
    assert announcement["game"] is not None
    version = announcement["version"]
    with CaptureQueriesContext(connection) as queries:
        (frames,) = shared_frames._draw([_ask(table, [first, None], announcement)])
    read_game = [query["sql"] for query in queries.captured_queries if '"games_gamerecord"' in query["sql"]]
    assert (read_game == []) is drawn_before
    kept = table_frames._tables.find((table.pk, version))
    assert kept is not None and kept[0].record is not None
    fresh = Table.objects.select_related("record").get(pk=table.pk)
    assert fresh.record is not None and _columns(kept[0].record) == _columns(fresh.record)
    table_frames._tables.clear()
    table_frames._frames.clear()
    for viewer in (first, None):
        drawn = table_frames.render_table(table.pk, viewer, "", version)
        assert frames[table_frames.viewer_key(viewer)] == drawn


def test_what_a_move_carries_of_its_game_holds_only_for_the_version_after() -> None:
    table_id, _ = _dealt_tables(1)[0]
    record = GameRecord.objects.get(table__pk=table_id)
    record.version += 1
    record.action_count += 1
    record.turn_deadline = timezone.now()
    values = carried_games.carried(record)
    record.refresh_from_db()
    after = carried_games.advanced(record, values)
    assert after is not None
    assert after.version == record.version + 1 and after.turn_deadline is not None
    assert after.turn_deadline.isoformat() == values[carried_games.MOVED.index("turn_deadline")]
    assert record.version == after.version - 1  # the kept row is left as it was
    assert carried_games.advanced(after, values) is None  # not the move after that one
    for garbage in (None, "x", [1, 2], [*values[:-1], 12]):
        assert carried_games.advanced(record, garbage) is None


async def test_a_move_s_announcement_carries_its_versions_public_part_so_no_other_process_works_it_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The process that made the move works out what every viewer sees alike (the log, the
    game's public words) and its announcement carries it; another process at the table, which
    kept the table at the version before, draws its sockets' frames from it without working it
    out, and they are the frames a read draws."""
    announcement, first, expected = await database_sync_to_async(_moved_here_with_public_part)(monkeypatch)
    table_id, version = announcement["table"], announcement["version"]
    worked: list[Any] = []
    for name in ("log_section", "public_area"):
        monkeypatch.setattr(table_presenter, name, lambda *a, name=name: worked.append(name))
    _never_the_thread(monkeypatch)
    heard = _heard(announcement)
    frames = {
        table_frames.viewer_key(viewer): await shared_frames.frame_at(
            FakeSocket(table_id, viewer), version, heard
        )
        for viewer in (first, None)
    }
    assert worked == [] and frames == expected


def _moved_here_with_public_part(
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[dict[str, Any], User, dict[int | None, tuple[str, int | None]]]:
    """A move made by this process as a socket's move is made, its announcement prepared as it
    is sent (caught here), and the frames drawn of the version it made; then this process is
    made one that only kept the table at the version before, as it drew it."""
    table_id, first = _dealt_tables(1)[0]
    table_frames.render_table(table_id, first, "", 0)
    before = table_frames._tables.find((table_id, 0))
    heard: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(tables, "send_to_group", lambda group, message: heard.append((group, message)))
    record = Table.objects.get(pk=table_id).record
    seat = get_engine(record.game).current_player(current_state(record))
    mover = first if seat == 0 else Seat.objects.get(table_id=table_id, number=seat).user
    table_frames.play(table_id, mover, "check", record.version)
    (group, announcement), *_ = [
        (group, message) for group, message in heard if message["type"] == "table.changed"
    ]
    table_frames.add_public_part(group, announcement)
    assert announcement["public"] is not None
    version = announcement["version"]
    expected = {
        table_frames.viewer_key(viewer): table_frames.render_table(table_id, viewer, "", version)
        for viewer in (first, None)
    }
    for cache in (table_frames._tables, table_frames._frames, table_presenter._public, table_log._logs):
        cache.clear()
    for cache in (table_log._sections, action_rows._rows, state_cache._states, state_cache._latest):
        cache.clear()
    assert before is not None
    table_frames._tables.keep((table_id, 0), before)
    monkeypatch.undo()
    return announcement, first, expected
