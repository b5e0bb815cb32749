"""A site that is up, as LP-5 judges it: a web process and a worker both beating.

A person's turn clock acts only while the site is up (games/outages.py), so a test that
runs one out needs one of these.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from games import outages


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
