"""LP-5: time the site is down never counts against a turn clock.

The site is up while both of its parts run: a web process (daphne) that people can reach
and a Celery worker that keeps the clocks. Each writes a heartbeat to the database every
``SITE_HEARTBEAT_S`` from a thread of its own (``Heartbeat``; the web's starts in
``config/asgi.py``, the worker's in ``games/tasks.py``), so the record outlives a Redis
restart and does not depend on Celery beat. A part silent for ``SITE_DOWN_AFTER_S`` is down.

``resume_if_down`` keeps one more row, ``site``: the last moment both parts were seen
running. When both run again after a longer gap than ``SITE_DOWN_AFTER_S``, the gap was an
outage: under that row's lock, every running table game's deadline moves later by the gap,
the seat to act gets at least a full turn clock from now (``tables.postpone_turns``), and
the outage is recorded. Every heartbeat, the overdue-turn sweeper and ``tables.advance``
call it before anything else, so a deadline is never judged before a gap is made good;
while the site is down, ``tables.advance`` takes no clock action for a person (a bot still
moves, and a tie replay is still dealt: no person's time is at stake in those).

A fresh site (no ``site`` row yet) has had no outage: the first time both parts are seen
running only starts the record.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import threading

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from games.models import SiteHeartbeat, SiteOutage

logger = logging.getLogger(__name__)

WEB = SiteHeartbeat.Component.WEB
WORKER = SiteHeartbeat.Component.WORKER
SITE = SiteHeartbeat.Component.SITE


def _down_after() -> dt.timedelta:
    return dt.timedelta(seconds=settings.SITE_DOWN_AFTER_S)


def _beats() -> dict[str, dt.datetime]:
    """Every heartbeat row (three at most), in one primary-key read."""
    rows = SiteHeartbeat.objects.filter(component__in=(WEB, WORKER, SITE))
    return dict(rows.values_list("component", "seen_at"))


def _both_seen(beats: dict[str, dt.datetime], now: dt.datetime) -> dt.datetime | None:
    """The last moment the web and the worker were both seen running, if neither is silent
    for longer than ``SITE_DOWN_AFTER_S`` at ``now``; else ``None`` (the site is down)."""
    web, worker = beats.get(WEB), beats.get(WORKER)
    if web is None or worker is None:
        return None
    last = min(web, worker)
    return last if now - last <= _down_after() else None


# Reads


def site_is_up(*, now: dt.datetime | None = None) -> bool:
    """Whether a web process and a worker are both running (LP-5)."""
    return _both_seen(_beats(), now or timezone.now()) is not None


# Writes


def record_heartbeat(*, component: str, now: dt.datetime | None = None) -> None:
    """``component`` (web or worker) runs at ``now``: one upsert, no lock held after it."""
    SiteHeartbeat.objects.bulk_create(
        [SiteHeartbeat(component=component, seen_at=now or timezone.now())],
        update_conflicts=True,
        unique_fields=["component"],
        update_fields=["seen_at"],
    )


def resume_if_down(*, now: dt.datetime | None = None, keep_alive: bool = False) -> bool:
    """LP-5: if the site is up at ``now`` after an outage, move every running game's clock on
    by the outage first. Returns whether the site is up.

    Costs one read when nothing is wrong; ``keep_alive`` (the heartbeats) also moves the
    ``site`` mark up to the latest beats. The outage itself is judged and made good under
    the ``site`` row's lock, so two callers never move a clock twice; it then locks the
    running games' rows, so a caller must not hold one of those.
    """
    now = now or timezone.now()
    beats = _beats()
    alive = _both_seen(beats, now)
    if alive is None:
        return False
    last_up = beats.get(SITE)
    if last_up is None or now - last_up > _down_after():
        return _resume(now=now)
    if keep_alive and alive > last_up:
        # Only a mark that is still fresh moves up: a stale one is an outage, and that is
        # judged under the lock. Whoever moved the mark first wins; this may then change nothing.
        fresh_mark = SiteHeartbeat.objects.filter(component=SITE, seen_at__gte=now - _down_after())
        fresh_mark.filter(seen_at__lt=alive).update(seen_at=alive)
    return True


def _resume(*, now: dt.datetime) -> bool:
    from games.live import tables

    with transaction.atomic():
        SiteHeartbeat.objects.bulk_create([SiteHeartbeat(component=SITE, seen_at=now)], ignore_conflicts=True)
        mark = SiteHeartbeat.objects.select_for_update().get(component=SITE)
        if _both_seen(_beats(), now) is None:
            return False
        gap = now - mark.seen_at
        if gap > _down_after():
            moved = tables.postpone_turns(by=gap, now=now)
            SiteOutage.objects.create(down_since=mark.seen_at, resumed_at=now, games_moved=moved)
            logger.warning(
                "LP-5: the site was down for %.1f s (last seen running at %s); "
                "the clocks of %d running games moved on by that",
                gap.total_seconds(),
                mark.seen_at.isoformat(),
                moved,
            )
        # From now: the outage is accounted for up to this moment, so no later call counts it again.
        if now > mark.seen_at:
            mark.seen_at = now
            mark.save(update_fields=["seen_at"])
    return True


def beat(*, component: str, now: dt.datetime | None = None) -> bool:
    """One heartbeat of ``component``: record it, then make good an outage that just ended."""
    now = now or timezone.now()
    record_heartbeat(component=component, now=now)
    return resume_if_down(now=now, keep_alive=True)


class Heartbeat:
    """``component``'s heartbeat, every ``SITE_HEARTBEAT_S`` from a daemon thread.

    The database may be away for a while (a restart, a failover): a beat that fails is
    logged and retried on a fresh connection at the next tick. The thread ends only when
    stopped, and nothing it raises reaches the server or worker it runs in.
    """

    def __init__(self, component: str) -> None:
        self.component = component
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"heartbeat-{component}", daemon=True)

    def start(self) -> Heartbeat:
        self._thread.start()
        return self

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def stop(self, timeout: float = 10.0) -> None:
        self._stopping.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        try:
            while True:
                try:
                    beat(component=self.component)
                except DatabaseError as exc:
                    # Expected while the database restarts: one line a beat, not a traceback.
                    logger.warning(
                        "LP-5: the %s heartbeat could not reach the database (%s); retrying in %.0f s",
                        self.component,
                        str(exc).strip() or type(exc).__name__,
                        settings.SITE_HEARTBEAT_S,
                    )
                    _drop_connection()
                except Exception:
                    logger.exception("LP-5: the %s heartbeat failed; retrying", self.component)
                    _drop_connection()
                if self._stopping.wait(settings.SITE_HEARTBEAT_S):
                    return
        finally:
            _drop_connection()


def _drop_connection() -> None:
    """This thread's connection, which may be broken: the next beat opens a new one."""
    with contextlib.suppress(Exception):
        connection.close()
