"""Live tables across real server processes: two daphnes sharing Redis, and a restart mid-game."""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from websockets.sync.client import ClientConnection, connect

from games.core.snapshots import state_of
from games.engine import get_engine
from games.live import tables
from games.models import Action, Table
from tests.support import BIN, artifacts_dir, free_port, service_env, stop_process, wait_for_http

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]
BASE_DIR = Path(__file__).resolve().parents[2]


class Daphne:
    """One ASGI server process on the test database, restartable on the same port."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        log = open(artifacts_dir() / f"daphne-{self.name}.log", "ab")  # noqa: SIM115 - the child holds it
        self.process = subprocess.Popen(
            [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(self.port), "config.asgi:application"],
            cwd=BASE_DIR,
            env=service_env(),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_for_http(self.url + "/", timeout=60, process=self.process)

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)


@pytest.fixture
def two_servers(django_db_setup: None, celery_worker: Any) -> Iterator[tuple[Daphne, Daphne]]:
    servers = (Daphne("a"), Daphne("b"))
    for server in servers:
        server.start()
    yield servers
    for server in servers:
        server.stop()


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def open_socket(server: Daphne, table_id: int, cookie: str | None) -> ClientConnection:
    headers = {"Cookie": cookie} if cookie else {}
    return connect(
        f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}/", origin=server.url, additional_headers=headers
    )


def version_of(frame: str) -> int:
    return int(re.search(r'id="table-live"[^>]*data-version="(\d+)"', frame).group(1))


def wait_for_version(socket: ClientConnection, version: int, timeout: float = 15) -> str:
    deadline = time.monotonic() + timeout
    while True:
        frame = socket.recv(timeout=max(0.1, deadline - time.monotonic()))
        if version_of(frame) >= version:
            return frame


def heads_up(game: str = "triad") -> tuple[Table, Any, Any]:
    User = get_user_model()
    alice = User.objects.create_user("alice", "a@example.com", "pw-long-enough-1")
    bob = User.objects.create_user("bob", "b@example.com", "pw-long-enough-1")
    table = tables.create_table(game=game, creator=alice, config={"players": 2} if game == "triad" else {})
    tables.sit(table_id=table.pk, user=bob)
    tables.start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    return table, alice, bob


def mover_and_move(table: Table, alice: Any, bob: Any) -> tuple[Any, str]:
    table.record.refresh_from_db()
    state = state_of(table.record)
    engine = get_engine(table.game)
    seat = engine.current_player(state)
    return (alice if seat == 0 else bob), str(engine.legal_actions(state)[0])


def test_players_on_two_servers_see_each_others_moves(two_servers: tuple[Daphne, Daphne]) -> None:
    server_a, server_b = two_servers
    table, alice, bob = heads_up()
    sockets = {
        alice.pk: open_socket(server_a, table.pk, session_cookie(alice)),
        bob.pk: open_socket(server_b, table.pk, session_cookie(bob)),
    }
    for socket in sockets.values():
        assert version_of(socket.recv(timeout=10)) == 0
    for version in range(4):
        mover, move = mover_and_move(table, alice, bob)
        sockets[mover.pk].send(json.dumps({"action": move, "version": str(version)}))
        for socket in sockets.values():  # the one on the other server hears it through Redis
            wait_for_version(socket, version + 1)
    assert Action.objects.filter(game=table.record).count() == 4
    for socket in sockets.values():
        socket.close()


def test_restarting_the_server_mid_game_loses_nothing(two_servers: tuple[Daphne, Daphne]) -> None:
    server, _ = two_servers
    table, alice, bob = heads_up("blocks")
    cookies = {alice.pk: session_cookie(alice), bob.pk: session_cookie(bob)}
    for version in range(3):
        mover, move = mover_and_move(table, alice, bob)
        with open_socket(server, table.pk, cookies[mover.pk]) as socket:
            socket.recv(timeout=10)
            socket.send(json.dumps({"action": move, "version": str(version)}))
            wait_for_version(socket, version + 1)

    server.stop()  # mid-game: every socket drops
    server.start()

    mover, move = mover_and_move(table, alice, bob)
    with open_socket(server, table.pk, cookies[mover.pk]) as socket:
        frame = socket.recv(timeout=10)
        assert version_of(frame) == 3 and "Your turn" in frame  # as it stood, clock still running
        socket.send(json.dumps({"action": move, "version": "3"}))
        wait_for_version(socket, 4)
    table.record.refresh_from_db()
    texts = list(table.record.actions.order_by("seq").values_list("text", flat=True))
    assert len(texts) == 4 and table.record.version == 4
    assert get_engine("blocks").replay(table.record.config, table.record.seed, texts)
