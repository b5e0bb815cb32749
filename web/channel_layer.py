"""The site's channel layers: channels_redis's two, each made good where it fell short.

Why private parts of channels_redis are used here (issue 43 allows it only with a reason,
written where the code is). The pub/sub layer is the default because it is the fast one: bare
fan-out 1,464 moves/s against the lists layer's 653 (docs/benchmarks.md, "Live tables"), far
past the 20% rule. Its two faults below are not about speed but about LP-2 and leaks, and
channels_redis 4.3 offers no public hook for either (its ``on_reconnect`` is never called):
``RecoveringPubSubChannelLayer._get_layer`` swaps in ``RecoveringShard``, which overrides
``RedisSingleShardConnection.unsubscribe`` and ``_ensure_redis``. channels_redis is locked
(requirements.lock); tests/site/test_channel_layers.py runs both fixes against a real Redis,
so an upgrade that changes these internals fails there, not in production.

``WaitingRedisChannelLayer`` (``CAPSTONE_CHANNEL_LAYER=lists``): the Redis channel layer with
a connection pool that waits instead of failing.

channels_redis builds redis-py's plain pool, which holds at most 100 connections and raises
``MaxConnectionsError`` at the 101st concurrent command. Hundreds of sockets joining or
leaving groups at once (a busy minute, a deploy that drops every socket) then fail in
``group_add``/``group_discard``: measured with ``bench/tables.py --idle 5000``, 4,738 such
errors as the sockets closed. A blocking pool queues those commands for a free connection.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, cast

from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from redis.asyncio import BlockingConnectionPool, ConnectionPool, Redis
from redis.asyncio.client import PubSub
from redis.asyncio.connection import Connection

logger = logging.getLogger(__name__)

POOL_CONNECTIONS = 200
"""Per server process; Redis serves 10,000 clients by default."""
POOL_WAIT_S = 20
"""How long a command waits for a free connection before it fails."""


class WaitingRedisChannelLayer(RedisChannelLayer):
    def create_pool(self, index: int) -> Any:
        host = dict(self.hosts[index])
        address = host.pop("address")
        return BlockingConnectionPool.from_url(
            address, max_connections=POOL_CONNECTIONS, timeout=POOL_WAIT_S, **host
        )


GAP = {"type": "layer.gap"}
"""Said to every socket in a group of this process when announcements may have been lost:
each consumer that joins a group has a ``layer_gap`` handler that shows what stands now."""


class RecoveringPubSubChannelLayer(RedisPubSubChannelLayer):
    """channels_redis's pub/sub layer (``CAPSTONE_CHANNEL_LAYER=pubsub``): one PUBLISH per
    announcement, fanned out to the process's own sockets, instead of a Redis list per socket.

    Pub/sub delivers at most once: what is published while a process's subscriber connection
    is down is lost, and channels_redis 4.3 neither says so nor calls its ``on_reconnect``.
    LP-2 still holds: when redis-py reconnects the subscriber (and subscribes it again to
    every channel and group), each grouped socket of the process is told ``GAP``, and draws
    the table (the lobby, the notices) as it stands.
    """

    def _get_layer(self) -> RedisPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        layer: RedisPubSubLoopLayer | None = self._layers.get(loop)
        if layer is None:
            layer = super()._get_layer()
            layer._shards = [RecoveringShard(shard.host, layer) for shard in layer._shards]
        return layer


_leaving: set[asyncio.Future[None]] = set()
"""Unsubscribes finishing on their own (``RecoveringShard.unsubscribe``): asyncio keeps only a
weak reference to a task."""


def _log_failure(leaving: asyncio.Future[None]) -> None:
    if not leaving.cancelled() and leaving.exception() is not None:
        logger.error("A closed socket's channel could not be unsubscribed", exc_info=leaving.exception())


class RecoveringShard(RedisSingleShardConnection):
    async def unsubscribe(self, channel: str) -> None:
        """A closing socket's receive is cancelled, and channels_redis unsubscribes its channel
        in that cleanup, behind this shard's lock. Daphne may cancel the socket's application
        again meanwhile (many sockets leaving at once): the UNSUBSCRIBE was cut short, the
        channel left subscribed and an error logged. In a cleanup (the task already being
        cancelled), it now finishes in a task of its own, and the first cancellation goes on
        up as before."""
        task = asyncio.current_task()
        if task is None or not task.cancelling():
            await super().unsubscribe(channel)
            return
        leaving = asyncio.ensure_future(super().unsubscribe(channel))
        _leaving.add(leaving)
        leaving.add_done_callback(_leaving.discard)
        try:
            await asyncio.shield(leaving)
        except asyncio.CancelledError:
            # Cancelled again: the task was already ending cancelled, and its cleanup raises
            # that; a failure of the unsubscribe is logged when it is done.
            leaving.add_done_callback(_log_failure)

    def _ensure_redis(self) -> None:
        if self._redis is not None:
            return
        super()._ensure_redis()
        client: Redis = cast(Redis, self._redis)  # channels_redis declares it None until now
        self._pubsub = Subscriber(client.connection_pool, self)

    def tell_gap(self) -> None:
        layer = self.channel_layer
        gap = layer.channel_layer.serialize(GAP)
        told = {name for members in layer.groups.values() for name in members}
        for name in told:
            queue = layer.channels.get(name)
            if queue is not None:
                queue.put_nowait(gap)


class Subscriber(PubSub):
    """redis-py calls ``on_connect`` on every connect of a subscriber after its first: a reconnect."""

    def __init__(self, pool: ConnectionPool, shard: RecoveringShard) -> None:
        super().__init__(pool)
        self.shard = shard

    async def on_connect(self, connection: Connection) -> None:
        await super().on_connect(connection)  # subscribes again to every channel and group
        logger.warning("the channel layer's subscriber reconnected: every grouped socket draws again")
        self.shard.tell_gap()
