"""The checks behind /healthz: each dependency answers, or says why not, with its latency."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import redis
from django.conf import settings
from django.db import connection

CELERY_TIMEOUT_S = 5.0


@dataclass(frozen=True)
class CheckResult:
    name: str
    ok: bool
    ms: float
    detail: str

    def as_dict(self) -> dict[str, object]:
        return {"ok": self.ok, "ms": round(self.ms, 1), "detail": self.detail}


def _timed(name: str, check: Callable[[], str]) -> CheckResult:
    start = time.perf_counter()
    try:
        detail = check()
        ok = True
    except Exception as exc:  # a health page reports every failure instead of raising it
        detail = f"{type(exc).__name__}: {exc}"
        ok = False
    return CheckResult(name, ok, (time.perf_counter() - start) * 1000, detail)


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return connection.vendor


def _redis() -> str:
    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
    try:
        client.ping()
        return "redis " + str(client.info("server").get("redis_version", "?"))
    finally:
        client.close()


def _celery() -> str:
    from config.celery import ping

    answer = ping.apply_async(expires=CELERY_TIMEOUT_S).get(timeout=CELERY_TIMEOUT_S)
    if answer != "pong":
        raise RuntimeError(f"worker answered {answer!r}")
    return "worker answered"


def run_checks() -> list[CheckResult]:
    return [_timed("database", _database), _timed("redis", _redis), _timed("celery", _celery)]
