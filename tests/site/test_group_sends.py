"""Messages to channel groups: a socket's call hands them back to its event loop (the
database thread never waits on the loop), and they go out even when the call then fails."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from config import group_sends
from config.group_sends import call_then_send, send_to_group


def _not_from_the_thread(*args: Any) -> Any:
    raise AssertionError("sent from the database thread")


async def _listening(group: str) -> str:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    return channel


async def test_a_sockets_call_sends_its_messages_from_the_loop_after_it_returns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    channel = await _listening("sends.returned")
    monkeypatch.setattr(group_sends, "async_to_sync", _not_from_the_thread)

    def move() -> int:
        send_to_group("sends.returned", {"type": "table.changed", "version": 3})
        return 3

    assert await call_then_send(move) == 3
    assert await get_channel_layer().receive(channel) == {"type": "table.changed", "version": 3}


async def test_what_was_sent_before_the_call_failed_still_goes_out() -> None:
    channel = await _listening("sends.raised")

    def move_then_fail() -> None:
        send_to_group("sends.raised", {"type": "table.changed", "version": 4})
        raise ValueError("after the commit")

    with pytest.raises(ValueError, match="after the commit"):
        await call_then_send(move_then_fail)
    assert await get_channel_layer().receive(channel) == {"type": "table.changed", "version": 4}


@pytest.mark.parametrize("breaks", [False, True])
async def test_each_message_is_prepared_on_the_loop_and_goes_out_even_if_that_fails(
    caplog: pytest.LogCaptureFixture, breaks: bool
) -> None:
    channel = await _listening("sends.prepared")
    prepared_in: list[str] = []

    def prepare(group: str, message: dict[str, Any]) -> None:
        prepared_in.append(threading.current_thread().name)
        if breaks:
            raise KeyError("nothing kept")
        message["public"] = f"worked out for {group}"

    def move() -> None:
        send_to_group("sends.prepared", {"type": "table.changed", "version": 6})

    await call_then_send(move, prepare=prepare)
    sent = {"type": "table.changed", "version": 6}
    if not breaks:
        sent["public"] = "worked out for sends.prepared"
    assert await get_channel_layer().receive(channel) == sent
    assert prepared_in == [threading.current_thread().name]
    assert ("a message to sends.prepared went out unprepared" in caplog.text) is breaks


async def test_outside_a_sockets_call_a_message_goes_out_at_once() -> None:
    channel = await _listening("sends.at.once")
    await sync_to_async(send_to_group)("sends.at.once", {"type": "lobby.changed"})
    assert await get_channel_layer().receive(channel) == {"type": "lobby.changed"}


class LayerDown:
    """A channel layer whose Redis went away."""

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        raise ConnectionError("Redis went away")


@pytest.mark.parametrize("fails", [False, True])
async def test_a_message_lost_after_the_call_hides_neither_its_result_nor_its_error(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, fails: bool
) -> None:
    monkeypatch.setattr(group_sends, "get_channel_layer", LayerDown)

    def move() -> int:
        send_to_group("sends.lost", {"type": "table.changed", "version": 5})
        if fails:
            raise ValueError("refused after the commit")
        return 5

    if fails:
        with pytest.raises(ValueError, match="refused after the commit"):
            await call_then_send(move)
    else:
        assert await call_then_send(move) == 5
    assert "a message to sends.lost was lost (ConnectionError: Redis went away)" in caplog.text
