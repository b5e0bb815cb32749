"""LP-3 on the wire: every frame an opponent and a spectator receive during whole games.

The bot's moves are made by a real Celery worker and announced through Redis; a person's
moves go through the same service the socket uses. Each frame is checked against the
game state at the version it shows: a seat's cards appear only if that viewer may see
them, and a spectator sees no card of any hand before it is shown.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from config.asgi import application
from games.core import move_path
from games.core.errors import StaleVersion
from games.engine import get_engine
from games.live import tables
from games.models import GameRecord

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]
ORIGIN = (b"origin", b"http://127.0.0.1:8000")
FRAME_TIMEOUT_S = 20


def frame_version(frame: str) -> int:
    return int(re.search(r'id="table-live"[^>]*data-version="(\d+)"', frame).group(1))


def seat_blocks(frame: str, marker: str) -> dict[int, list[str]]:
    """The non-empty ``data-card`` values inside each seat's block of a Triad frame."""
    parts = re.split(rf'data-testid="{marker}-(\d+)"', frame)
    blocks = {}
    for number, body in zip(parts[1::2], parts[2::2], strict=True):
        body = body.split('class="last-result"')[0].split('data-testid="actions"')[0]
        blocks[int(number)] = [c for c in re.findall(r'data-card="([^"]*)"', body) if c]
    return blocks


@sync_to_async
def setup(game: str, config: dict[str, Any]) -> tuple[int, int, Any]:
    alice = get_user_model().objects.create_user("alice", "a@example.com", "pw-long-enough-1")
    table = tables.create_table(game=game, creator=alice, config=config)
    tables.add_bot(table_id=table.pk, user=alice)
    tables.start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    return table.pk, table.record_id, alice


@sync_to_async
def state_at(record_id: int, version: int) -> tuple[Any, Any]:
    record = GameRecord.objects.get(pk=record_id)
    engine = get_engine(record.game)
    texts = list(record.actions.order_by("seq").values_list("text", flat=True))
    # Versions and action counts agree at tables (no undo there).
    return engine, engine.replay(record.config, record.seed, texts[:version])[-1]


@sync_to_async
def play_first_legal(table_id: int, user: Any, version: int, legal: list[str]) -> None:
    choice = next((a for a in legal if a in ("check", "call", "show", "discard -")), legal[0])
    with contextlib.suppress(StaleVersion):  # a newer frame is on its way
        move_path.play_at_table(table_id=table_id, user=user, move=choice, expected_version=version)


async def check(
    communicator: WebsocketCommunicator, game: str, record_id: int, viewer: int | None
) -> tuple[str, Any, Any]:
    frame = await communicator.receive_from(timeout=FRAME_TIMEOUT_S)
    while 'id="table-live"' not in frame:  # the chat's panel (LP-10), sent as seats change: no card
        assert 'id="table-chat"' in frame and "data-card" not in frame, frame
        frame = await communicator.receive_from(timeout=FRAME_TIMEOUT_S)
    engine, state = await state_at(record_id, frame_version(frame))
    check_frame(game, frame, engine.view(state, viewer), viewer)
    return frame, engine, state


async def watch_whole_game(game: str, config: dict[str, Any], async_client: Any) -> int:
    """Plays seat 0 by the socket's service while the worker plays the bot; checks every frame."""
    table_id, record_id, alice = await setup(game, config)
    await async_client.aforce_login(alice)
    cookie = (b"cookie", f"sessionid={async_client.cookies['sessionid'].value}".encode())
    player = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=[ORIGIN, cookie])
    spectator = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=[ORIGIN])
    assert (await player.connect())[0] and (await spectator.connect())[0]
    frames, over = 0, False
    while not over:
        frame, engine, state = await check(player, game, record_id, 0)
        frames += 1
        over = "Game over" in frame
        while not await spectator.receive_nothing(timeout=0.01):
            await check(spectator, game, record_id, None)
            frames += 1
        if not over and engine.current_player(state) == 0:
            await play_first_legal(table_id, alice, frame_version(frame), list(engine.view(state, 0).legal))
    while not await spectator.receive_nothing(timeout=0.5):
        await check(spectator, game, record_id, None)
        frames += 1
    await player.disconnect()
    await spectator.disconnect()
    return frames


def check_frame(game: str, frame: str, view: Any, viewer: int | None) -> None:
    """The frame shows exactly the cards of ``view`` (the engine's, property-tested for leaks),
    and, checked on its own, a spectator sees no hand before the showdown and no pyramid face."""
    if game == "tauron":
        shown = seat_blocks(frame, "tauron-seat")
        for entry in view.seats:
            assert shown.get(entry.seat, []) == list(entry.hole or ()), (viewer, entry.seat)
            if viewer is None and view.phase == "bet":
                assert shown.get(entry.seat, []) == []
        board = re.search(r'data-testid="board">(.*?)</div>', frame, re.S)
        assert board is not None
        assert re.findall(r'data-card="([^"]+)"', board.group(1)) == list(view.board)
    elif game == "triad":
        shown = seat_blocks(frame, "triad-seat")
        for entry in view.seats:
            assert shown.get(entry.seat, []) == list(entry.cards or ()), (viewer, entry.seat)
            if viewer is None and view.phase in ("bet", "draw") and not view.config["face_up"]:
                assert shown.get(entry.seat, []) == []
    else:
        places = dict(re.findall(r'data-place="(\d+,\d+)" data-card="([^"]*)"', frame))
        for place in view.pyramid:
            if place.filled:
                assert places[f"{place.row},{place.index}"] == (place.face or ""), (viewer, place)
        if viewer is None:
            assert not any(places.values())  # every pyramid face is its placer's alone


@pytest.mark.parametrize(
    ("game", "config"),
    [("triad", {"players": 2, "hands": 2}), ("blocks", {"scoring": "basic"}), ("tauron", {"hands": 2})],
)
async def test_no_frame_shows_a_card_its_viewer_may_not_see(
    celery_worker: subprocess.Popen[bytes], async_client: Any, game: str, config: dict[str, Any]
) -> None:
    frames = await watch_whole_game(game, config, async_client)
    assert frames > 20
