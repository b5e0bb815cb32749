"""The flood of test_socket_limits: a separate process (a thread would fight the measuring
thread for the test process's GIL and slow the measurement itself) writing prebuilt frames, in
batches, on raw sockets: a WebSocket library would spend more of this machine's two cores on
each frame than daphne does, and would answer the server's close, which a flooder need not.

Free of Django: the process is spawned (a fresh interpreter imports this module alone), so that
it inherits none of the test process's sockets or threads.
"""

from __future__ import annotations

import base64
import os
import re
import socket
import threading
import time
from typing import Any

BATCH = 50

FLOODING_CLOSE = re.compile(rb"\x88[\x02-\x7d]\x11\x4d")
"""A server's close frame (unmasked, FIN + opcode 8, a short payload) with code 4429."""


def masked_text_frame(text: str) -> bytes:
    """One client-to-server text frame (RFC 6455 section 5: clients mask their payload)."""
    payload = text.encode()
    assert len(payload) < 126
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def raw_socket(port: int, path: str, cookie: str | None) -> socket.socket:
    """A WebSocket opened by hand: the handshake, then the bare TCP socket."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n"
        + (f"Cookie: {cookie}\r\n" if cookie else "")
        + "\r\n"
    )
    sock.sendall(request.encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(4096)
        if not chunk:
            raise ConnectionError("closed during the handshake")
        answer += chunk
    if b" 101 " not in answer.split(b"\r\n", 1)[0]:
        raise ConnectionError(answer.split(b"\r\n", 1)[0].decode())
    return sock


def drain(sock: socket.socket, dropped: Any) -> None:
    """Reads whatever the server sends (notices, its close) until it hangs up, and counts
    the socket in ``dropped`` if the server closed it for flooding (4429)."""
    tail = b""
    try:
        while chunk := sock.recv(65536):
            tail = tail[-3:] + chunk
            if FLOODING_CLOSE.search(tail):
                with dropped.get_lock():
                    dropped.value += 1
                return
    except OSError:
        pass


def flood(
    port: int,
    targets: list[tuple[str, str | None]],
    frame: str,
    per_s: float,
    on: Any,
    stop: Any,
    idle: Any,
    sent: Any,
    opened: Any,
    dropped: Any,
) -> None:
    """Runs in the flood process: while ``on`` is set, writes ``frame`` to every
    target (a path and a cookie) in batches, ``per_s`` frames a second in all, opening a
    new socket for each one the server hangs up on; paused, it closes them all and sets
    ``idle`` (a batch under way when the flood is switched off may open one socket more)."""
    batch = masked_text_frame(frame) * BATCH
    sockets: dict[int, socket.socket] = {}
    due = time.monotonic()
    while not stop.is_set():
        if not on.wait(0.05):  # paused: hang up
            for sock in sockets.values():
                sock.close()
            sockets.clear()
            idle.set()
            due = time.monotonic()
            continue
        idle.clear()
        due += BATCH * len(targets) / per_s
        time.sleep(max(0.0, due - time.monotonic()))
        for i, (path, cookie) in enumerate(targets):
            try:
                if i not in sockets:
                    sockets[i] = raw_socket(port, path, cookie)
                    threading.Thread(target=drain, args=(sockets[i], dropped), daemon=True).start()
                    with opened.get_lock():
                        opened.value += 1
                sockets[i].sendall(batch)
                with sent.get_lock():
                    sent.value += BATCH
            except OSError:  # the server hung up (its close frame was counted): open anew
                if i in sockets:
                    sockets.pop(i).close()
