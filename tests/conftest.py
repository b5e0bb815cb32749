"""Fixtures that start the real parts: a Celery worker, a daphne server and Chromium.

They all point at the database pytest-django creates, so a test that uses them must
use ``transactional_db`` (the server and the worker see only committed rows).
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support import BIN, artifacts_dir, free_port, service_env, stop_process, wait_for_http

BASE_DIR = Path(__file__).resolve().parent.parent
ARTIFACTS = BASE_DIR / "test-artifacts"


@pytest.fixture(scope="session")
def celery_worker(django_db_setup: None, django_db_blocker: Any) -> Iterator[subprocess.Popen[bytes]]:
    """A real Celery worker process on the test database and the test Redis."""
    from django.conf import settings

    from config.celery import app

    log = open(artifacts_dir() / "celery-worker.log", "wb")  # noqa: SIM115 - closed at teardown
    process = subprocess.Popen(
        [
            str(BIN / "celery"),
            "-A",
            "config",
            "worker",
            "--pool",
            "solo",
            "--loglevel",
            "INFO",
            "--without-gossip",
            "--without-mingle",
            "--queues",
            settings.CELERY_TASK_DEFAULT_QUEUE,
            "--hostname",
            f"test-{os.getpid()}@%h",
        ],
        cwd=BASE_DIR,
        env=service_env(),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while not app.control.ping(timeout=0.5):
        if process.poll() is not None or time.monotonic() > deadline:
            stop_process(process)
            raise RuntimeError("the Celery worker did not start; see test-artifacts/celery-worker.log")
    yield process
    stop_process(process)
    log.close()


@pytest.fixture(scope="session")
def live_site(django_db_setup: None, celery_worker: subprocess.Popen[bytes]) -> Iterator[str]:
    """A daphne server (HTTP and WebSockets) on the test database; yields its base URL."""
    port = free_port()
    log = open(artifacts_dir() / "daphne.log", "wb")  # noqa: SIM115 - closed at teardown
    process = subprocess.Popen(
        [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=BASE_DIR,
        env=service_env(),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(url + "/", timeout=60, process=process)
        yield url
    finally:
        stop_process(process)
        log.close()


CHROMIUM_ARGS = [
    # As root Chromium needs --no-sandbox; the rest keep it off the network it cannot reach.
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, for one test module at a time.

    Playwright's sync API keeps an event loop running in this thread while it is open,
    which would stop pytest-asyncio tests (and Django's async-safety check) elsewhere in
    the run; so it is opened per module and closed after.
    """
    from playwright.sync_api import sync_playwright

    executable = os.environ.get("CAPSTONE_CHROMIUM", "/usr/bin/chromium")
    if not Path(executable).exists():
        raise RuntimeError(f"Chromium is needed at {executable} (Debian: apt-get install chromium)")
    # With that loop running, Django refuses the database work of test set-up and
    # teardown. Safe here: this process serves no requests (daphne does, in its own).
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(
                executable_path=executable, args=CHROMIUM_ARGS, headless=True
            )
            yield chromium
            chromium.close()
    finally:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture
def new_context(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """Makes fresh browser contexts (separate cookies: separate people); screenshots each page at the end."""
    contexts: list[Any] = []

    def make(**kwargs: Any) -> Any:
        context = browser.new_context(**kwargs)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context

    yield make
    name = request.node.name.replace("/", "_")
    for i, context in enumerate(contexts):
        for j, page in enumerate(context.pages):
            page.screenshot(path=str(artifacts_dir() / f"{name}-{i}-{j}.png"), full_page=True)
        context.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser journeys last: the slowest tests, and the only ones that hold Chromium."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)
