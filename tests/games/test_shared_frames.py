"""The sockets of one process at a table share one call to the database thread per
announced version, and each still gets only its own seat's frame (LP-3)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from accounts.models import User
from games import shared_frames, stale_sockets, table_frames
from tests.games.table_moments import dealt_heads_up_triad

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
        seen["own"].append(args)
        return table_frames.render_table(*args)

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


async def test_a_hidden_page_is_drawn_nothing_and_a_socket_after_the_call_makes_another(
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
        html, version = await shared_frames.frame_at(late, 0)  # the call for version 0 has ended
    finally:
        stale_sockets._sockets.clear()
    assert version == 0 and 'data-version="0"' in html
    assert calls["shared"] == [{alice.pk}, {alice.pk, None}] and calls["own"] == []
