"""Idle sockets stay open (LP-2: a player who is thinking is still at the table).

With the lists channel layer every consumer waits in Redis's BZPOPMIN, up to 5 s; with a
Redis read timeout no longer than that, an idle socket died with 1011 "Timeout reading
from ...". One socket of each kind, against the real daphne and Redis (and the site's
default layer), idles well past it (all of them at once, so the test waits once), then
must still answer.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from accounts.notices import notify
from tests.games.test_table_servers import heads_up, mover_and_move, session_cookie, version_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]

IDLE_S = 12
"""More than twice the channel layer's 5 s wait, so a socket that dies of it dies twice over."""


def open_socket(live_site: str, path: str, cookie: str | None = None) -> ClientConnection:
    headers = {"Cookie": cookie} if cookie else {}
    # No keepalive pings from this side: idle means no frame at all in either direction
    # (daphne's own pings come every 20 s, after the idle spell).
    return connect(
        live_site.replace("http://", "ws://") + path,
        origin=live_site,
        additional_headers=headers,
        ping_interval=None,
    )


def exchange(sock: ClientConnection, name: str, frame: str) -> str:
    """Sends ``frame`` and returns the answer; fails the test, saying how, if the socket died."""
    try:
        sock.send(frame)
        return str(sock.recv(timeout=15))
    except ConnectionClosed as closed:
        code, reason = (closed.rcvd.code, closed.rcvd.reason) if closed.rcvd else (None, "")
        pytest.fail(f"the idle {name} socket was closed: {code} {reason!r}")


def test_idle_sockets_of_every_consumer_stay_open(live_site: str) -> None:
    table, alice, bob = heads_up()
    mover, move = mover_and_move(table, alice, bob)
    notify(user=alice, kind="test", text="A notice to read after the wait", url="/play/", key="idle")
    with (
        open_socket(live_site, "/ws/ping/") as ping,
        open_socket(live_site, "/ws/lobby/") as lobby,
        open_socket(live_site, f"/ws/tables/{table.pk}/", session_cookie(mover)) as seat,
        open_socket(live_site, "/ws/notices/", session_cookie(alice)) as notices,
    ):
        assert version_of(str(seat.recv(timeout=15))) == 0
        assert json.loads(str(notices.recv(timeout=15)))["unread"] == 1  # the sync on connecting
        time.sleep(IDLE_S)

        pong = exchange(ping, "ping", json.dumps({"type": "ping", "echo": "still there?"}))
        assert json.loads(pong) == {"type": "pong", "user": None, "echo": "still there?"}
        assert 'id="lobby-tables"' in exchange(lobby, "lobby", "refresh")
        # The move's frame comes back through the table's group on Redis, like everyone's.
        frame = exchange(seat, "table", json.dumps({"action": move, "version": "0"}))
        assert version_of(frame) == 1
        read = exchange(notices, "notices", json.dumps({"type": "read", "ids": "all"}))
        assert json.loads(read) == {"type": "read", "ids": "all", "unread": 0}


CROWD = 300
"""More sockets than redis-py's default pool has connections (100), all leaving at once."""
ARRIVING = 25


def test_a_crowd_of_sockets_leaving_at_once_costs_no_server_error(live_site: str) -> None:
    """Every socket that closes leaves its group (group_discard). Hundreds at once (a deploy,
    a network blip) outran the lists layer's pool, which raised "Too many connections" for
    each socket past its 100th (tests/site/test_channel_layers.py); whatever the layer, the
    server-log check fails this test on any error."""
    table, _, _ = heads_up()

    async def crowd() -> int:
        url = live_site.replace("http://", "ws://") + f"/ws/tables/{table.pk}/"
        # They arrive in waves (the test is about leaving at once): 300 connects at once
        # outran the listening socket's backlog on a busy machine, and the handshake was cut
        # (and waves of 50 did at a load of 8, in CI).
        sockets = []
        for _ in range(0, CROWD, ARRIVING):
            sockets += await asyncio.gather(*(ws_connect(url, origin=live_site) for _ in range(ARRIVING)))
        firsts = await asyncio.gather(*(sock.recv() for sock in sockets))
        await asyncio.gather(*(sock.close() for sock in sockets))
        return sum(version_of(str(frame)) == 0 for frame in firsts)

    assert asyncio.run(crowd()) == CROWD
    time.sleep(2)  # the server finishes each disconnect before the log is read
    with open_socket(live_site, f"/ws/tables/{table.pk}/") as watcher:
        assert version_of(str(watcher.recv(timeout=15))) == 0
