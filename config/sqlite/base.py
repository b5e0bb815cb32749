"""SQLite whose transactions wait for the write lock in short steps.

Every transaction takes SQLite's write lock when it begins (``BEGIN IMMEDIATE``, set in
config/settings/base.py). While another process holds it, SQLite's own busy handler sleeps
1, 2, 5, 10 ms and longer between tries, while a move's transaction holds the lock for about
a millisecond: the waiting process's database thread, where a daphne runs all of its
database work one call at a time, sat idle for most of each wait. With two daphnes on
SQLite, beginning a transaction was 11.5% of that thread's samples (py-spy, issue 21's fifth
round, docs/benchmarks.md). Here a transaction tries again after 50 µs, doubling up to 1 ms,
until the connection's ``timeout`` is spent, and then fails as SQLite would ("database is
locked"). Statements outside a transaction keep SQLite's own handler.
"""

from __future__ import annotations

import sqlite3
import time

from django.db.backends.sqlite3.base import DatabaseWrapper as SqliteWrapper

FIRST_WAIT_S = 0.00005
LONGEST_WAIT_S = 0.001
DEFAULT_TIMEOUT_S = 5.0
"""sqlite3.connect's own default, for a database configured without a ``timeout``."""


class DatabaseWrapper(SqliteWrapper):
    transaction_mode: str | None  # set by Django's get_connection_params

    def _start_transaction_under_autocommit(self) -> None:
        begin = "BEGIN" if self.transaction_mode is None else f"BEGIN {self.transaction_mode}"
        timeout_s = float(self.settings_dict["OPTIONS"].get("timeout", DEFAULT_TIMEOUT_S))
        raw = self.connection
        raw.execute("PRAGMA busy_timeout = 0")
        try:
            with self.wrap_database_errors:
                begin_in_steps(raw, begin, timeout_s)
        finally:
            raw.execute(f"PRAGMA busy_timeout = {round(timeout_s * 1000)}")


def begin_in_steps(raw: sqlite3.Connection, begin: str, timeout_s: float) -> None:
    """``begin`` on ``raw`` (whose busy handler is off), tried again while the database is
    locked, for at most ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    wait = FIRST_WAIT_S
    while True:
        try:
            raw.execute(begin)
            return
        except sqlite3.OperationalError as exc:
            if not is_locked(exc) or time.monotonic() + wait > deadline:
                raise
        time.sleep(wait)
        wait = min(wait * 2, LONGEST_WAIT_S)


def is_locked(error: sqlite3.OperationalError) -> bool:
    # The extended codes (SQLITE_BUSY_RECOVERY, ...) keep the primary one in their low byte.
    return error.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY
