"""The suite's own flush (config/test_postgres/base.py): after a test that commits, every table is
emptied even when the flush deadlocks with a transaction a worker or a daphne left running."""

from __future__ import annotations

import threading
import time
from typing import Any

import psycopg
import pytest
from django.core.management.color import no_style
from django.db import connection, connections
from django.db.backends.postgresql import operations

from accounts.models import User

pytestmark = pytest.mark.django_db(transaction=True)


def waiting_for_a_lock(dsn: dict[str, Any], statement: str) -> bool:
    with psycopg.connect(**dsn, autocommit=True) as watcher:
        row = watcher.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE %s",
            (statement[:40] + "%",),
        ).fetchone()
    return bool(row and row[0])


def test_a_flush_that_deadlocks_is_aborted_and_run_again(monkeypatch: pytest.MonkeyPatch) -> None:
    User.objects.create_user("left-behind", "left@example.com", "pw-long-enough-1")
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    statements = connection.ops.sql_flush(no_style(), tables)
    first, last = tables[0], tables[-1]
    assert statements[0].startswith("LOCK TABLE") and f'"{last}"' in statements[0]
    runs: list[str] = []
    run = operations.DatabaseOperations.execute_sql_flush

    def counted(self: Any, sql_list: list[str]) -> None:
        runs.append("run")
        run(self, sql_list)

    monkeypatch.setattr(operations.DatabaseOperations, "execute_sql_flush", counted)
    failures: list[BaseException] = []

    def flush() -> None:
        try:
            connections["default"].ops.execute_sql_flush(statements)
        except Exception as error:  # the test reports it
            failures.append(error)
        finally:
            connections["default"].close()

    dsn = connection.get_connection_params()
    with psycopg.connect(**dsn) as other:
        # A transaction holding the flush's last table, as a worker's insert does...
        other.execute(f'LOCK TABLE "{last}" IN ROW EXCLUSIVE MODE')
        flusher = threading.Thread(target=flush)
        flusher.start()
        deadline = time.monotonic() + 10
        while not waiting_for_a_lock(dsn, statements[0]):
            assert time.monotonic() < deadline, "the flush never waited for the last table"
            time.sleep(0.01)
        # ...then wanting its first, which the flush holds: PostgreSQL aborts the flush,
        # whose wait began first (deadlock_timeout after it, the cycle is there).
        other.execute(f'LOCK TABLE "{first}" IN ACCESS SHARE MODE')
        other.commit()
    flusher.join(timeout=20)
    assert not flusher.is_alive() and not failures, failures
    assert len(runs) >= 2, runs  # aborted once, then run again
    assert not User.objects.exists()
