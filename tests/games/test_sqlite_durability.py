"""The embedded default's SQLite syncs its write-ahead log at every commit (issue 43): with
``synchronous=NORMAL``, a power cut may undo moves that players had already seen acknowledged."""

from __future__ import annotations

from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper

FULL = 2
"""``PRAGMA synchronous``'s answer for FULL."""


def test_a_commit_survives_a_power_cut(sqlite_games: BaseDatabaseWrapper) -> None:
    with sqlite_games.cursor() as cursor:
        cursor.execute("PRAGMA synchronous")
        synchronous: Any = cursor.fetchone()[0]
        cursor.execute("PRAGMA journal_mode")
        journal: Any = cursor.fetchone()[0]
    assert (int(synchronous), journal) == (FULL, "wal")
