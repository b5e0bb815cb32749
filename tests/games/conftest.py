"""A site that is up, as LP-5 judges it: a web process and a worker both beating (a person's
turn clock acts only while the site is up, games/live/outages.py, so a test that runs one out needs
one of these); and the site's SQLite beside the tests' PostgreSQL, for what a move writes.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

from config.settings.base import database_from_env
from games.live import outages
from games.models import Action, GameRecord


def wait_until_up(timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not outages.site_is_up():
        assert time.monotonic() < deadline, "the site was never seen up (no web or no worker heartbeat)"
        time.sleep(0.1)


@pytest.fixture
def site_up(live_site: str, celery_worker: object, transactional_db: None) -> Iterator[str]:
    """The real site: daphne and the Celery worker running, each seen by its own heartbeat.
    Waits for both beats, which a flush between tests wipes; yields the site's URL."""
    wait_until_up()
    yield live_site


@pytest.fixture
def site_heartbeats(transactional_db: None) -> Iterator[None]:
    """This process stands in for a web process and a worker: it runs the very heartbeats
    that daphne (config/asgi.py) and the Celery worker (games/tasks.py) run, for a test that
    calls ``tables.advance`` itself. Stopped before the database is flushed."""
    beats = [outages.Heartbeat(outages.WEB).start(), outages.Heartbeat(outages.WORKER).start()]
    try:
        wait_until_up()
        yield
    finally:
        for heartbeat in beats:
            heartbeat.stop()


_sqlite_aliases = itertools.count()


@pytest.fixture
def sqlite_games(
    tmp_path: Path, django_db_blocker: Any, monkeypatch: pytest.MonkeyPatch
) -> Iterator[BaseDatabaseWrapper]:
    """The site's SQLite (its URL, its options) beside the tests' PostgreSQL, with a game's and
    its actions' tables; under an alias of its own (a thread that ran a test's queries keeps its
    connection to the alias: another test's file must not be found under the same one)."""
    alias = f"games_sqlite_{next(_sqlite_aliases)}"
    monkeypatch.delenv("DATABASE_URL", raising=False)
    config = database_from_env(default=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    # Every connection to it without foreign keys (Django's of each thread, the loop's own):
    # only the two tables a move writes are here, not the other tables theirs point to.
    options = config["OPTIONS"]
    config["OPTIONS"] = {
        **options,
        "timeout": 2.0,
        "init_command": f"{options['init_command']} PRAGMA foreign_keys = OFF;",
    }
    settings = {"default": connections.settings["default"], alias: config}
    configured = connections.configure_settings(settings)
    monkeypatch.setitem(connections.settings, alias, configured[alias])
    with django_db_blocker.unblock():
        db: BaseDatabaseWrapper = connections[alias]
        # Their indexes are the migrations' to make per database (one has NULLS LAST).
        monkeypatch.setattr(GameRecord._meta, "indexes", [])
        with db.schema_editor() as editor:
            editor.create_model(GameRecord)
            editor.create_model(Action)
        with db.cursor() as cursor:  # the schema editor turned them on again on its way out
            cursor.execute("PRAGMA foreign_keys = OFF")
        try:
            yield db
        finally:
            db.close()
            del connections[alias]
