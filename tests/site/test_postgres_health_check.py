"""The PostgreSQL backend checks a kept connection at most once per HEALTH_CHECK_EVERY_S, and
a connection the server dropped is still opened again rather than failing a request."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connections
from django.db.backends.base.base import BaseDatabaseWrapper

from config.postgres import base

pytestmark = pytest.mark.django_db(transaction=True)


def _db() -> BaseDatabaseWrapper:
    return connections["default"]


def _frame() -> int:
    """What channels does around a socket's call to the database thread: close what is old
    or broken, then query."""
    _db().close_if_unusable_or_obsolete()
    with _db().cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone()[0]


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    made: list[bool] = []
    real = _db().is_usable

    def counted() -> bool:
        made.append(real())
        return made[-1]

    monkeypatch.setattr(_db(), "is_usable", counted)
    # The test settings keep no connection open between requests, so they check none: this
    # one is kept, as the site's are (CONN_MAX_AGE), and checked.
    _db().ensure_connection()
    monkeypatch.setattr(_db(), "close_at", None)
    monkeypatch.setattr(_db(), "health_check_enabled", True)
    return made


def test_the_backend_is_ours() -> None:
    assert isinstance(_db(), base.DatabaseWrapper) and _db().vendor == "postgresql"


def test_a_connection_is_checked_at_most_once_per_interval(
    monkeypatch: pytest.MonkeyPatch, checks: list[bool]
) -> None:
    for _ in range(5):
        assert _frame() == 1
    assert checks == []  # just opened: the interval has not passed
    monkeypatch.setattr(base, "HEALTH_CHECK_EVERY_S", 0.0)
    for _ in range(3):
        assert _frame() == 1
    assert checks == [True, True, True]


def test_a_connection_the_server_dropped_is_opened_again(
    monkeypatch: pytest.MonkeyPatch, checks: list[bool]
) -> None:
    old_pid = _db().connection.info.backend_pid
    with pytest.raises(OperationalError), _db().cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
    _db().errors_occurred = False  # as if it had been dropped while idle, unseen
    monkeypatch.setattr(base, "HEALTH_CHECK_EVERY_S", 0.0)
    assert _frame() == 1
    assert checks == [False]
    assert _db().connection.info.backend_pid != old_pid
