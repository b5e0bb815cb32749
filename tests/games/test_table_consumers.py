"""The table WebSocket through the real ASGI stack, session auth and the Redis channel layer."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from config.asgi import application
from games.core import move_path
from games.core.snapshots import state_of
from games.engine import get_engine
from games.live import tables
from games.models import Action, Table
from tests.games.table_moments import dealt_heads_up_triad

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://127.0.0.1:8000")


def version_of(frame: str) -> int | None:
    match = re.search(r'id="table-live"[^>]*data-version="(\d*)"', frame)
    return int(match.group(1)) if match and match.group(1) else None


async def socket(table_id: int, client: Any = None, query: str = "") -> WebsocketCommunicator:
    headers = [ORIGIN]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table_id}/{query}", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


heads_up_table = sync_to_async(dealt_heads_up_triad)


@sync_to_async
def seat_to_act(table: Table) -> int:
    table.record.refresh_from_db()
    return get_engine("triad").current_player(state_of(table.record))


async def logged_in(async_client: Any, user: Any) -> Any:
    await async_client.aforce_login(user)
    return async_client


async def test_every_socket_hears_a_move_each_with_its_own_view(async_client: Any, client: Any) -> None:
    table, alice, bob = await heads_up_table()
    mover, other = (alice, bob) if await seat_to_act(table) == 0 else (bob, alice)
    await async_client.aforce_login(mover)
    await sync_to_async(client.force_login)(other)
    mine, theirs, spectator = (
        await socket(table.pk, async_client),
        await socket(table.pk, client),
        await socket(table.pk),
    )
    for communicator in (mine, theirs, spectator):
        assert version_of(await communicator.receive_from()) == 0

    await mine.send_to(text_data=json.dumps({"action": "check", "version": "0"}))
    frames = [await communicator.receive_from(timeout=5) for communicator in (mine, theirs, spectator)]
    assert [version_of(frame) for frame in frames] == [1, 1, 1]
    assert "Your turn" in frames[1] and "Your turn" not in frames[0]
    assert await sync_to_async(Action.objects.count)() == 1
    for communicator in (mine, theirs, spectator):
        await communicator.disconnect()


@pytest.mark.parametrize(
    ("frame", "words"),
    [
        ("not json", "could not be read"),
        ("[1, 2]", "could not be read"),
        (json.dumps({"action": 5, "version": "0"}), "could not be read"),
        (json.dumps({"action": "check"}), "could not be read"),
        (json.dumps({"action": "check", "version": "zero"}), "could not be read"),
        (json.dumps({"action": "bet", "amount": "lots", "version": "0"}), "needs a whole number of chips"),
        ("x" * 5000, "could not be read"),
        (json.dumps({"action": "raise 500", "version": "0"}), "no bet to raise"),
        (json.dumps({"action": "check", "version": "7"}), "moved on"),
    ],
)
async def test_bad_frames_get_an_error_and_change_nothing(async_client: Any, frame: str, words: str) -> None:
    table, alice, bob = await heads_up_table()
    mover = alice if await seat_to_act(table) == 0 else bob
    mine = await socket(table.pk, await logged_in(async_client, mover))
    await mine.receive_from()
    await mine.send_to(text_data=frame)
    reply = await mine.receive_from(timeout=5)
    assert 'data-testid="table-error"' in reply and words in reply
    assert await sync_to_async(Action.objects.count)() == 0
    await mine.disconnect()


async def test_out_of_turn_and_spectator_moves_are_refused(async_client: Any) -> None:
    table, alice, bob = await heads_up_table()
    waiting = bob if await seat_to_act(table) == 0 else alice
    theirs = await socket(table.pk, await logged_in(async_client, waiting))
    await theirs.receive_from()
    await theirs.send_to(text_data=json.dumps({"action": "check", "version": "0"}))
    assert "not your turn" in await theirs.receive_from(timeout=5)
    spectator = await socket(table.pk)
    await spectator.receive_from()
    await spectator.send_to(text_data=json.dumps({"action": "check", "version": "0"}))
    assert "You are watching" in await spectator.receive_from(timeout=5)
    assert await sync_to_async(Action.objects.count)() == 0
    await theirs.disconnect()
    await spectator.disconnect()


async def test_an_unknown_table_closes_the_socket() -> None:
    communicator = WebsocketCommunicator(application, "/ws/tables/999999/", headers=[ORIGIN])
    await communicator.connect()
    assert (await communicator.receive_output(timeout=5))["type"] == "websocket.close"


async def test_the_lobby_hears_a_new_table(async_client: Any) -> None:
    lobby = WebsocketCommunicator(application, "/ws/lobby/", headers=[ORIGIN])
    assert (await lobby.connect())[0]
    await heads_up_table()
    frame = await lobby.receive_from(timeout=5)
    assert 'id="lobby-tables"' in frame
    await lobby.disconnect()


async def test_a_move_does_not_disturb_the_lobby(async_client: Any) -> None:
    table, alice, bob = await heads_up_table()
    lobby = WebsocketCommunicator(application, "/ws/lobby/", headers=[ORIGIN])
    assert (await lobby.connect())[0]
    mover = alice if await seat_to_act(table) == 0 else bob
    await sync_to_async(move_path.play_at_table)(
        table_id=table.pk, user=mover, move="check", expected_version=0
    )
    assert await lobby.receive_nothing(timeout=0.5)  # a move changes nothing the lobby shows
    await lobby.disconnect()


async def test_a_hidden_page_is_drawn_nothing_until_it_is_shown_then_the_table_as_it_stands(
    async_client: Any,
) -> None:
    table, alice, bob = await heads_up_table()
    mover = alice if await seat_to_act(table) == 0 else bob
    spectator, player = await socket(table.pk), await socket(table.pk, await logged_in(async_client, mover))
    for communicator in (spectator, player):
        assert version_of(await communicator.receive_from()) == 0
        await communicator.send_to(text_data='{"page":"hidden"}')
        assert await communicator.receive_nothing(timeout=0.3)  # a spectator's word is no move
    act = sync_to_async(move_path.play_at_table)
    await act(table_id=table.pk, user=mover, move="check", expected_version=0)
    second = alice if await seat_to_act(table) == 0 else bob
    await act(table_id=table.pk, user=second, move="check", expected_version=1)
    for communicator in (spectator, player):
        assert await communicator.receive_nothing(timeout=0.5)
    from games.live import stale_sockets

    assert await stale_sockets.check_once() == 0  # they know they are behind: not told again
    await spectator.send_to(text_data='{"page":"shown"}')
    assert version_of(await spectator.receive_from(timeout=5)) == 2  # one frame, the latest
    assert await spectator.receive_nothing(timeout=0.3)
    await spectator.send_to(text_data='{"page":"shown"}')
    assert await spectator.receive_nothing(timeout=0.3)  # nothing missed: nothing drawn
    await player.send_to(text_data='{"page":"shown"}')
    assert version_of(await player.receive_from(timeout=5)) == 2
    assert await sync_to_async(Action.objects.count)() == 2
    for communicator in (spectator, player):
        await communicator.disconnect()


async def test_a_socket_that_missed_an_announcement_catches_up(
    async_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """LP-2: a lost announcement (the layer dropped it) leaves no page stale for long."""
    from games.live import stale_sockets

    monkeypatch.setattr(stale_sockets, "CHECK_S", 0.5)
    table, alice, bob = await heads_up_table()
    mover = alice if await seat_to_act(table) == 0 else bob
    spectator = await socket(table.pk)
    assert version_of(await spectator.receive_from()) == 0
    monkeypatch.setattr(tables, "_announce", lambda *args, **kwargs: None)  # the layer loses it
    await sync_to_async(move_path.play_at_table)(
        table_id=table.pk, user=mover, move="check", expected_version=0
    )
    assert version_of(await spectator.receive_from(timeout=5)) == 1
    assert await spectator.receive_nothing(timeout=1.2)  # caught up: not told again
    await spectator.disconnect()
    assert stale_sockets._sockets == {}


async def test_a_page_that_shows_the_table_as_it_stands_is_not_sent_it_again(async_client: Any) -> None:
    """table.js names the version and seat its page shows in the socket's address: a socket
    whose page is current gets no frame on connecting (nothing to swap under a click), and the
    next move as any other socket does."""
    table, alice, bob = await heads_up_table()
    mover = alice if await seat_to_act(table) == 0 else bob
    seat = 0 if mover == alice else 1
    current = await socket(table.pk, await logged_in(async_client, mover), f"?seen=0&me={seat}")
    watching = await socket(table.pk, query="?seen=0&me=")
    assert await current.receive_nothing(timeout=0.5)
    assert await watching.receive_nothing(timeout=0.1)
    await current.send_to(text_data=json.dumps({"action": "check", "version": "0"}))
    assert version_of(await current.receive_from(timeout=5)) == 1
    assert version_of(await watching.receive_from(timeout=5)) == 1
    for communicator in (current, watching):
        await communicator.disconnect()


@pytest.mark.parametrize(
    "query",
    [
        "?seen=1&me=",  # a version the game has not reached
        "?seen=0&me=0",  # a spectator's page that says it is a seat's
        "?seen=0",  # no seat said: not even a spectator's
        "?seen=zero&me=",
        "?seen=0&me=&seen=0&me=&x=1",
        "?seen=%ff&me=",
        "?me=",
    ],
)
async def test_a_page_that_may_not_be_current_is_sent_the_table(query: str) -> None:
    table, _, _ = await heads_up_table()
    spectator = await socket(table.pk, query=query)
    assert version_of(await spectator.receive_from(timeout=5)) == 0
    await spectator.disconnect()


async def test_an_open_table_is_sent_on_connecting_whatever_the_page_says(async_client: Any) -> None:
    """An open table's seats change without a version: its page is always sent the table."""
    user = await sync_to_async(get_user_model().objects.create_user)("opener", password="pw-12345678")
    table = await sync_to_async(tables.create_table)(game="triad", creator=user, config={"players": 2})
    opener = await socket(table.pk, await logged_in(async_client, user), "?seen=0&me=0")
    assert 'data-version=""' in await opener.receive_from(timeout=5)
    await opener.disconnect()
