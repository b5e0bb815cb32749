"""Django's PostgreSQL backend, for the test suite only: a flush empties tables with DELETE.

A test that commits (``transaction=True``: a daphne or a worker must see its rows) is
followed by Django's flush, which TRUNCATEs every table at once. On these nearly empty tables
PostgreSQL's TRUNCATE costs about 30 times a DELETE: it gives each table and index new files
and drops the old ones at commit (one flush of the 44 tables: 186 ms, 126 ms of the server's
CPU, against 6 ms and 3 ms with DELETE). Some 300 tests of the suite commit.

The foreign keys Django makes on PostgreSQL are DEFERRABLE INITIALLY DEFERRED, and the
flush runs in one transaction, so the order of the DELETEs does not matter. It first locks
every table, as TRUNCATE does: a task a test left running in the worker then waits for the
flush, or the flush for it, instead of the two locking rows in turn across tables (DELETEs
alone deadlocked with a bot's move committing). Taking the locks one table after another can
still deadlock with a transaction that holds one of them and wants another (a worker's commit
checking a foreign key, a daphne's join; TRUNCATE did the same): PostgreSQL then aborts one of
the two, and an aborted flush, which changed nothing, is run again. A flush that must reset
sequences is left to TRUNCATE.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import OperationalError
from django.db.backends.postgresql import base, operations
from psycopg import errors

FLUSH_ATTEMPTS = 5


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(
        self, style: Any, tables: Sequence[str], *, reset_sequences: bool = False, allow_cascade: bool = False
    ) -> list[str]:
        if reset_sequences or not tables:
            return super().sql_flush(
                style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        names = [style.SQL_FIELD(self.quote_name(table)) for table in tables]
        mode = style.SQL_KEYWORD("IN ACCESS EXCLUSIVE MODE")
        lock = f"{style.SQL_KEYWORD('LOCK TABLE')} {', '.join(names)} {mode};"
        return [lock, *(f"{style.SQL_KEYWORD('DELETE FROM')} {name};" for name in names)]

    def execute_sql_flush(self, sql_list: Iterable[str]) -> None:
        statements = list(sql_list)
        for attempt in range(1, FLUSH_ATTEMPTS + 1):
            try:
                super().execute_sql_flush(statements)
                return
            except OperationalError as error:
                if attempt == FLUSH_ATTEMPTS or not isinstance(error.__cause__, errors.DeadlockDetected):
                    raise


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
