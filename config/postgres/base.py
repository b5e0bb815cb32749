"""PostgreSQL with ``CONN_HEALTH_CHECKS`` at most once per ``HEALTH_CHECK_EVERY_S`` a connection.

Django checks a persistent connection (``SELECT 1``) before its first query after every
``close_old_connections``: channels calls that around every call to the database thread,
so a busy table server sent one ``SELECT 1`` per frame: 8.6% of one daphne's samples in
issue 21's third-round profile (py-spy; PostgreSQL, two daphnes, 207 saturated moves a
second). The check is there so that a connection the server dropped (a restart, LP-5) is
opened again instead of failing a request; once a second per connection keeps that. A
connection whose query does fail in between is still closed at the next call
(``errors_occurred`` makes Django check it then, whatever this throttle says), so at most
the calls of that one second see the error.
"""

from __future__ import annotations

import time

from django.db.backends.postgresql.base import DatabaseWrapper as PostgresWrapper

HEALTH_CHECK_EVERY_S = 1.0


class DatabaseWrapper(PostgresWrapper):
    checked_at = float("-inf")
    health_check_enabled: bool
    health_check_done: bool

    def connect(self) -> None:
        super().connect()
        self.checked_at = time.monotonic()

    def close_if_health_check_failed(self) -> None:
        if self.connection is None or not self.health_check_enabled or self.health_check_done:
            return
        now = time.monotonic()
        if now - self.checked_at < HEALTH_CHECK_EVERY_S:
            self.health_check_done = True
            return
        self.checked_at = now
        super().close_if_health_check_failed()
