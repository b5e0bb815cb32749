"""The Redis channel layer with a connection pool that waits instead of failing.

channels_redis builds redis-py's plain pool, which holds at most 100 connections and raises
``MaxConnectionsError`` at the 101st concurrent command. Hundreds of sockets joining or
leaving groups at once (a busy minute, a deploy that drops every socket) then fail in
``group_add``/``group_discard``: measured with ``bench/tables.py --idle 5000``, 4,738 such
errors as the sockets closed. A blocking pool queues those commands for a free connection.
"""

from __future__ import annotations

from typing import Any

from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool

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
