"""The pub/sub channel layer delivers at most once: what is published while a process's
subscriber connection is down is lost. LP-2 holds all the same (config/channel_layer.py):
once the subscriber is back, every socket of the process in a group is told to draw what
stands now. Against the real Redis, whose connection is cut from outside."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.conf import settings
from redis.asyncio import Redis

from config.channel_layer import GAP, RecoveringPubSubChannelLayer
from config.settings.base import channel_layer_host

NAME = "capstone-test-gap"


async def subscriber_ids(redis: Redis) -> list[str]:
    clients: list[dict[str, Any]] = await redis.client_list()
    return [str(c["id"]) for c in clients if c.get("name") == NAME and "P" in c.get("flags", "")]


async def test_a_cut_subscriber_tells_every_grouped_socket_to_draw_again() -> None:
    layer = RecoveringPubSubChannelLayer(
        hosts=[{**channel_layer_host(settings.REDIS_URL), "client_name": NAME}], prefix="test-gap"
    )
    seated, watching, alone = [await layer.new_channel() for _ in range(3)]
    await layer.group_add("table.1", seated)
    await layer.group_add("table.1", watching)
    await layer.group_send("table.1", {"type": "table.changed", "version": 1})
    for channel in (seated, watching):
        assert await asyncio.wait_for(layer.receive(channel), 5) == {"type": "table.changed", "version": 1}

    redis = Redis.from_url(settings.REDIS_URL)
    ids = await subscriber_ids(redis)
    assert len(ids) == 1
    await redis.execute_command("CLIENT", "KILL", "ID", ids[0])
    for channel in (seated, watching):
        assert await asyncio.wait_for(layer.receive(channel), 10) == GAP

    # Subscribed again: the group hears announcements as before; a socket in no group heard nothing.
    await layer.group_send("table.1", {"type": "table.changed", "version": 2})
    for channel in (seated, watching):
        assert await asyncio.wait_for(layer.receive(channel), 5) == {"type": "table.changed", "version": 2}
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(alone), 0.5)
    assert len(await subscriber_ids(redis)) == 1
    await redis.aclose()
    await layer.flush()
