"""The SQLite backend (config/sqlite/base.py): a transaction that finds the write lock taken
tries again in short steps, and statements outside a transaction keep SQLite's own wait.

The other process is a plain sqlite3 connection to the same file holding the lock, and the
backend's sleep is replaced by one that records each wait: the holder lets go after a few
of them, so no test depends on how fast the machine is.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import OperationalError, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper

from config.settings.base import database_from_env
from config.sqlite import base

TIMEOUT_S = 2.0
ALIAS = "sqlite_begin"


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "db.sqlite3"


@pytest.fixture
def site_db(
    path: Path, django_db_blocker: Any, monkeypatch: pytest.MonkeyPatch
) -> Iterator[BaseDatabaseWrapper]:
    """A connection as the site opens one (its URL, its options), to ``path``, beside the
    tests' own database."""
    monkeypatch.delenv("DATABASE_URL", raising=False)  # the tests' own, PostgreSQL
    config = database_from_env(default=f"sqlite:///{path}")
    config["OPTIONS"] = {"timeout": TIMEOUT_S, "transaction_mode": "IMMEDIATE"}
    configured = connections.configure_settings({"default": connections.settings["default"], ALIAS: config})
    monkeypatch.setitem(connections.settings, ALIAS, configured[ALIAS])
    with django_db_blocker.unblock():
        db = connections[ALIAS]
        with db.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("CREATE TABLE moves (n INTEGER)")
        try:
            yield db
        finally:
            db.close()
            del connections[ALIAS]


@pytest.fixture
def other_process(path: Path) -> Iterator[sqlite3.Connection]:
    """Another process's connection, holding the write lock until it commits."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO moves VALUES (1)")
    yield other
    other.close()


def _busy_timeout_ms(db: BaseDatabaseWrapper) -> int:
    with db.cursor() as cursor:
        cursor.execute("PRAGMA busy_timeout")
        return cursor.fetchone()[0]


def test_the_site_s_sqlite_is_this_backend(site_db: BaseDatabaseWrapper) -> None:
    assert isinstance(site_db, base.DatabaseWrapper) and site_db.vendor == "sqlite"


def test_a_transaction_tries_again_in_short_steps_until_the_lock_is_free(
    monkeypatch: pytest.MonkeyPatch, site_db: BaseDatabaseWrapper, other_process: sqlite3.Connection
) -> None:
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 6:
            other_process.execute("COMMIT")

    monkeypatch.setattr(base.time, "sleep", sleep)
    with transaction.atomic(using=ALIAS), site_db.cursor() as cursor:
        cursor.execute("INSERT INTO moves VALUES (2)")
    # 50 µs, doubling, at most 1 ms: SQLite's own handler would have slept 1, 2, 5, 10 ... ms.
    assert waits == [0.00005, 0.0001, 0.0002, 0.0004, 0.0008, 0.001]
    with site_db.cursor() as cursor:
        cursor.execute("SELECT n FROM moves ORDER BY n")
        assert cursor.fetchall() == [(1,), (2,)]


def test_outside_a_transaction_sqlite_s_own_wait_is_kept(
    monkeypatch: pytest.MonkeyPatch, site_db: BaseDatabaseWrapper, other_process: sqlite3.Connection
) -> None:
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        other_process.execute("COMMIT")

    monkeypatch.setattr(base.time, "sleep", sleep)
    with transaction.atomic(using=ALIAS):
        assert waits == [base.FIRST_WAIT_S]
        assert _busy_timeout_ms(site_db) == TIMEOUT_S * 1000
    assert _busy_timeout_ms(site_db) == TIMEOUT_S * 1000


def test_a_lock_held_past_the_timeout_fails_as_sqlite_would_and_leaves_no_transaction(
    monkeypatch: pytest.MonkeyPatch, site_db: BaseDatabaseWrapper, other_process: sqlite3.Connection
) -> None:
    clock = [0.0]

    def sleep(seconds: float) -> None:
        clock[0] += seconds

    monkeypatch.setattr(base.time, "sleep", sleep)
    monkeypatch.setattr(base.time, "monotonic", lambda: clock[0])
    with pytest.raises(OperationalError, match="locked"), transaction.atomic(using=ALIAS):
        pytest.fail("the transaction began while another held the lock")
    assert TIMEOUT_S - base.LONGEST_WAIT_S <= clock[0] <= TIMEOUT_S
    assert not site_db.in_atomic_block and site_db.get_autocommit()
    assert _busy_timeout_ms(site_db) == TIMEOUT_S * 1000
    other_process.execute("COMMIT")
    with transaction.atomic(using=ALIAS), site_db.cursor() as cursor:
        cursor.execute("INSERT INTO moves VALUES (3)")
