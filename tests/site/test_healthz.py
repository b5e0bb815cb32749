"""/healthz against the real PostgreSQL, Redis and a real Celery worker."""

from __future__ import annotations

import subprocess

import pytest
from django.test import Client, override_settings

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def test_all_green_with_real_services(client: Client, celery_worker: subprocess.Popen[bytes]) -> None:
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "ok"
    assert body["database"] == {**body["database"], "ok": True, "detail": "postgresql"}
    assert body["redis"]["ok"] and body["redis"]["detail"].startswith("redis ")
    assert body["celery"] == {**body["celery"], "ok": True, "detail": "worker answered"}
    assert response["Cache-Control"].startswith("max-age=0")


def test_a_dead_redis_is_reported_as_503(client: Client, celery_worker: subprocess.Popen[bytes]) -> None:
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):
        response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 503
    assert body["status"] == "failing"
    assert body["redis"]["ok"] is False and "ConnectionError" in body["redis"]["detail"]
    assert body["database"]["ok"] is True


def test_only_get_and_head(client: Client) -> None:
    assert client.post("/healthz").status_code == 405
