"""The site's two channel layers (web/channel_layer.py), against the real Redis.

The pub/sub layer (the default) delivers at most once: what is published while a process's
subscriber connection is down is lost. LP-2 holds all the same: once the subscriber is back,
every socket of the process in a group is told to draw what stands now. The lists layer's
pool waits for a connection rather than failing when hundreds of sockets leave at once."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.conf import settings
from redis.asyncio import Redis

from config.settings.base import channel_layer_host
from web.channel_layer import GAP, RecoveringPubSubChannelLayer, WaitingRedisChannelLayer

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


CROWD = 300
"""More sockets than redis-py's default pool has connections (100): channels_redis's own
pool raises "Too many connections" here."""


async def test_the_lists_layers_pool_waits_when_a_crowd_leaves_at_once() -> None:
    layer = WaitingRedisChannelLayer(hosts=[channel_layer_host(settings.REDIS_URL)], prefix="test-crowd")
    channels = [await layer.new_channel() for _ in range(CROWD)]
    await asyncio.gather(*(layer.group_add("table.1", channel) for channel in channels))
    await asyncio.gather(*(layer.group_discard("table.1", channel) for channel in channels))
    await layer.flush()


async def test_a_socket_cancelled_again_while_it_leaves_is_still_unsubscribed_without_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A closing socket's receive is cancelled, and channels_redis unsubscribes its channel in
    the cleanup, behind the shard's lock. Daphne may cancel the socket's application again
    meanwhile (a CI run did, as many sockets left at once): the UNSUBSCRIBE was cut short,
    logged as an error, and the channel stayed subscribed in Redis."""
    layer = RecoveringPubSubChannelLayer(hosts=[channel_layer_host(settings.REDIS_URL)], prefix="test-leave")
    channel = await layer.new_channel()
    leaving = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(0.05)
    shard = layer._get_layer()._get_shard(channel)
    redis = Redis.from_url(settings.REDIS_URL)
    assert channel.encode() in await redis.pubsub_channels()
    async with shard._lock:  # another socket's subscription holds it
        leaving.cancel()
        await asyncio.sleep(0.05)  # the cleanup now waits for the lock
        leaving.cancel()
        await asyncio.sleep(0.05)
    with pytest.raises(asyncio.CancelledError):
        await leaving
    for _ in range(50):
        if channel.encode() not in await redis.pubsub_channels():
            break
        await asyncio.sleep(0.02)
    assert channel.encode() not in await redis.pubsub_channels()
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text
    await redis.aclose()
    await layer.flush()
