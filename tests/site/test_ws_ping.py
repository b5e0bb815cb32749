"""The /ws/ping/ socket through the real ASGI stack (origin check and session auth included)."""

from __future__ import annotations

from typing import Any

import pytest
from autobahn.exception import Disconnected
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from accounts.consumers import NoticeConsumer
from config.asgi import application
from web.consumers import PingConsumer

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = [(b"origin", b"http://127.0.0.1:8000")]


async def test_answers_ping() -> None:
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=ORIGIN)
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"type": "ping", "echo": 7})
    assert await communicator.receive_json_from() == {"type": "pong", "user": None, "echo": 7}
    await communicator.disconnect()


@pytest.mark.parametrize(
    ("frame", "error"),
    [
        ("not json", "frames must be JSON objects"),
        ("[1, 2]", 'expected {"type": "ping"}'),
        ('{"type": "shout"}', 'expected {"type": "ping"}'),
    ],
)
async def test_malformed_frames_get_an_error_and_the_socket_stays_open(frame: str, error: str) -> None:
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=ORIGIN)
    await communicator.connect()
    await communicator.send_to(text_data=frame)
    assert await communicator.receive_json_from() == {"type": "error", "error": error}
    await communicator.send_json_to({"type": "ping"})
    assert (await communicator.receive_json_from())["type"] == "pong"
    await communicator.disconnect()


async def test_foreign_origin_is_refused() -> None:
    communicator = WebsocketCommunicator(
        application, "/ws/ping/", headers=[(b"origin", b"https://evil.example")]
    )
    connected, _ = await communicator.connect()
    assert not connected


async def test_knows_the_signed_in_user(async_client: object) -> None:
    from asgiref.sync import sync_to_async

    user = await sync_to_async(get_user_model().objects.create_user)(
        "carol", "c@example.com", "x-long-pass-1"
    )
    await async_client.aforce_login(user)
    cookie = async_client.cookies["sessionid"].value
    headers = [*ORIGIN, (b"cookie", f"sessionid={cookie}".encode())]
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=headers)
    await communicator.connect()
    await communicator.send_json_to({"type": "ping"})
    assert (await communicator.receive_json_from())["user"] == "carol"
    await communicator.disconnect()


async def test_a_frame_makes_no_trip_of_its_own_to_the_database_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """channels' own dispatch sends Django's close_old_connections to the database thread for
    every message; the site's sockets do not (each database call runs it itself), so pings,
    and the socket's connect, cost that thread nothing."""
    trips: list[str] = []

    async def trip() -> None:
        trips.append("close_old_connections")

    # The name channels' dispatch calls (its test communicator stubs the function it wraps).
    monkeypatch.setattr("channels.consumer.aclose_old_connections", trip)
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=ORIGIN)
    assert (await communicator.connect())[0]
    for _ in range(3):
        await communicator.send_json_to({"type": "ping"})
        assert (await communicator.receive_json_from())["type"] == "pong"
    await communicator.disconnect()
    assert trips == []


@pytest.mark.parametrize("consumer", [PingConsumer, NoticeConsumer])
async def test_a_json_reply_to_a_client_that_has_just_left_is_dropped(consumer: type[Any]) -> None:
    """daphne raises ``Disconnected`` for a send on a closed socket; the JSON sockets' replies
    go through the send that drops it, as the other sockets' frames do (found by the fuzzer)."""
    socket = consumer()

    async def closed(message: dict[str, Any]) -> None:
        raise Disconnected("Attempt to send on a closed protocol")

    socket.base_send = closed
    await socket.send_json({"type": "error", "error": 'expected {"type": "ping"}'})
