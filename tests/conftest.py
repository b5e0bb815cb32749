"""Fixtures that start the real parts: a Celery worker, a daphne server and Chromium.

They all point at the database pytest-django creates, so a test that uses them must
use ``transactional_db`` (the server and the worker see only committed rows).

Whatever those servers log goes to the artifacts folder, and no test passes while a
server it talked to logs an exception it did not expect (``server_logs_stay_clean``).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import socket
import subprocess
import time
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from tests.support import (
    BIN,
    COUNT_SOCKET_FRAMES,
    ServerLogs,
    artifacts_dir,
    describe_errors,
    running_daphne,
    service_env,
    start_redis,
    stop_process,
)

BASE_DIR = Path(__file__).resolve().parent.parent
SERVER_LOGS = pytest.StashKey[ServerLogs]()
LAST_TEST = pytest.StashKey[tuple[str, list[re.Pattern[str]]]]()
WORKER_REDIS = pytest.StashKey[list[subprocess.Popen[bytes]]]()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config: pytest.Config, specs: list[Any]) -> None:
    """Under ``pytest -n N`` (``make test``), each worker process runs as a whole test run of
    its own: its own test database, Celery queue (config.settings.test names both after
    ``CAPSTONE_TEST_DB``), artifacts folder (its server logs are the ones it checks) and Redis.

    A Redis server each, not a database number each: pub/sub channels are one namespace for
    the whole server, and two workers' tables of the same id would hear each other's frames
    through the channel layer. Started here, in the one process that outlives every worker
    (a worker that crashes is replaced with the same spec, so the same names)."""
    base_db = os.environ.get("CAPSTONE_TEST_DB", "test_capstone")
    base_artifacts = os.environ.get("CAPSTONE_ARTIFACTS", "test-artifacts")
    servers: list[subprocess.Popen[bytes]] = []
    config.stash[WORKER_REDIS] = servers
    for n, spec in enumerate(specs):
        worker = f"gw{n}"
        artifacts = artifacts_dir() / worker
        artifacts.mkdir(parents=True, exist_ok=True)
        server, url = start_redis(artifacts)
        servers.append(server)
        spec.env.update(
            CAPSTONE_TEST_DB=f"{base_db}_{worker}",
            CAPSTONE_ARTIFACTS=str(Path(base_artifacts) / worker),
            REDIS_URL=url,
        )


@pytest.fixture(scope="session")
def django_db_modify_db_settings_xdist_suffix() -> None:
    """pytest-django would add the worker's id to the test database's name: it has it already
    (``pytest_xdist_setupnodes``), and so does the Celery queue named after it."""


def pytest_unconfigure(config: pytest.Config) -> None:
    for server in config.stash.get(WORKER_REDIS, []):
        stop_process(server)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "server_errors_expected(regex, ...): the test makes a server log an exception on purpose;"
        " log records that match one of the regexes do not fail it",
    )
    logs = ServerLogs(artifacts_dir())
    logs.skip_to_end()  # what earlier runs logged is theirs
    config.stash[SERVER_LOGS] = logs


def expected_errors(item: pytest.Item) -> list[re.Pattern[str]]:
    return [re.compile(arg) for marker in item.iter_markers("server_errors_expected") for arg in marker.args]


@pytest.fixture(autouse=True)
def server_logs_stay_clean(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fails a test when a server log under the artifacts folder reports an exception
    during it. Autouse, so it is set up before and torn down after the test's own
    fixtures: a server a test starts has stopped (its log complete) when this reads."""
    logs = request.config.stash[SERVER_LOGS]
    previous = request.config.stash.get(LAST_TEST, None)
    # A server may log a moment after the test that caused it ended: blame that test by
    # name. Before the first test, this is what the session's servers said as they started.
    late = logs.errors(previous[1] if previous else ())
    if late:
        when = f"after {previous[0]} ended (found as the next test began)" if previous else "as it started"
        pytest.fail(describe_errors(late, when), pytrace=False)
    expected = expected_errors(request.node)
    request.config.stash[LAST_TEST] = (request.node.nodeid, expected)
    yield
    errors = logs.errors(expected)
    if errors:
        pytest.fail(describe_errors(errors, "during this test"), pytrace=False)


@pytest.fixture(autouse=True)
def site_language() -> Iterator[None]:
    """Each test leaves this thread in the site's language: a request through Django's test
    client activates its reader's language here (LocaleMiddleware never deactivates it), and an
    Italian one made a later test's gettext answer in Italian (CI at b3de3b0)."""
    yield
    translation.deactivate()


_tests_begun = itertools.count()


@pytest.fixture(autouse=True)
def rate_limits_of_its_own(settings: Any) -> None:
    """Each test counts django-ratelimit's limits from zero (a prefix of its own for their keys).
    The counts live in Redis, beyond the test's database, and every test's client comes from one
    address: the games tests that read /api/ to compare a person's figures used up the API's 60
    a minute, and the next test to read /api/ in that minute got 429s it did not cause."""
    settings.RATELIMIT_CACHE_PREFIX = f"rl:{os.getpid()}:{next(_tests_begun)}:"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """What the servers logged after the last test's own check (their shutdown included)."""
    _close_chromium()
    logs = session.config.stash.get(SERVER_LOGS, None)
    if logs is None:
        return
    previous = session.config.stash.get(LAST_TEST, None)
    errors = logs.errors(previous[1] if previous else ())
    if not errors:
        return
    ended = f"after {previous[0]} ended" if previous else "outside any test"
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_sep("=", "server errors", red=True)
        reporter.write_line(describe_errors(errors, ended))
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


def worker_name(role: str) -> str:
    """A suite worker of this test process, as Celery's remote control names it."""
    return f"{role}-{os.getpid()}@{socket.gethostname()}"


@contextlib.contextmanager
def suite_worker(role: str, queue: str) -> Iterator[subprocess.Popen[bytes]]:
    """A real Celery worker process (solo: one task at a time) on the test database and the
    test Redis, taking tasks from ``queue``; its log is ``celery-<role>.log``."""
    from config.celery import app

    name = worker_name(role)
    path = artifacts_dir() / f"celery-{role}.log"
    argv = [str(BIN / "celery"), "-A", "config", "worker", "--pool", "solo", "--loglevel", "INFO"]
    argv += ["--without-gossip", "--without-mingle", "--queues", queue, "--hostname", name]
    with open(path, "ab") as log:  # appended: the analysis queue's worker starts once per test
        process = subprocess.Popen(
            argv,
            cwd=BASE_DIR,
            env=service_env(),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while not app.control.ping(destination=[name], timeout=0.5):
            if process.poll() is not None or time.monotonic() > deadline:
                stop_process(process)
                raise RuntimeError(f"the Celery {role} did not start; see {path}")
        try:
            yield process
        finally:
            stop_process(process)


@pytest.fixture(scope="session")
def celery_worker(django_db_setup: None, django_db_blocker: Any) -> Iterator[subprocess.Popen[bytes]]:
    """The suite's Celery worker: tables' clocks and bots, tournaments, notices."""
    from django.conf import settings

    with suite_worker("worker", settings.CELERY_TASK_DEFAULT_QUEUE) as process:
        yield process


@pytest.fixture
def analysis_worker(django_db_setup: None) -> Iterator[subprocess.Popen[bytes]]:
    """A worker of the analysis queue (seconds of solving a game), as the site runs one apart,
    for one test: kept running, it would work out every game other tests finish, on cores
    they need. What they asked for meanwhile is purged first (their games are gone)."""
    from django.conf import settings

    from config.celery import app

    with app.connection_for_write() as connection:
        connection.default_channel.queue_purge(settings.ANALYSIS_QUEUE)
    with suite_worker("analysis-worker", settings.ANALYSIS_QUEUE) as process:
        yield process


@pytest.fixture
def worker_runs_nothing(celery_worker: subprocess.Popen[bytes]) -> Iterator[None]:
    """The suite's Celery worker takes no task during the test, for tests that migrate the
    test database back: a task an earlier test left waiting (a table's clock) would read
    columns the old schema lacks. Those waiting are revoked: their rows are flushed already.
    (The analysis queue's worker runs only for the tests that ask for it.)"""
    from django.conf import settings

    from config.celery import app

    queue, name = settings.CELERY_TASK_DEFAULT_QUEUE, [worker_name("worker")]
    # A solo worker answers between tasks only, so this reply also waits out the running one.
    app.control.cancel_consumer(queue, destination=name, reply=True, timeout=30)
    inspect = app.control.inspect(destination=name, timeout=30)
    scheduled, reserved = (inspect.scheduled() or {}).values(), (inspect.reserved() or {}).values()
    waiting = [entry["request"]["id"] for entries in scheduled for entry in entries]
    waiting += [request["id"] for requests in reserved for request in requests]
    if waiting:
        app.control.revoke(waiting, destination=name, reply=True, timeout=30)
    yield
    app.control.add_consumer(queue, destination=name, reply=True, timeout=30)


@pytest.fixture(scope="session")
def live_site(django_db_setup: None, celery_worker: subprocess.Popen[bytes]) -> Iterator[str]:
    """A daphne server (HTTP and WebSockets) on the test database; yields its base URL."""
    with running_daphne("daphne.log", service_env()) as url:
        yield url


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


_CHROMIUM: dict[str, Any] = {}
"""The open Chromium (``browser``) and its Playwright (``playwright``), while browser tests run."""


def _close_chromium() -> None:
    browser, playwright = _CHROMIUM.pop("browser", None), _CHROMIUM.pop("playwright", None)
    try:
        if browser is not None:
            browser.close()
    finally:
        if playwright is not None:
            playwright.stop()
            del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture
def browser() -> Any:
    """Chromium, one for every browser test in a row: the browser tests run last (see
    ``pytest_collection_modifyitems``), and a launch and close is about 0.65 s of CPU and 2 s of
    waiting (once a module: 51 of them). Closed before any other test.

    Playwright's sync API keeps an event loop running in this thread while it is open,
    which would stop pytest-asyncio tests (and Django's async-safety check) elsewhere in
    the run; so the next test that is not a browser test closes it first
    (``pytest_runtest_setup``). Each test's people have browser contexts of their own
    (``new_context``), closed after it.
    """
    from playwright.sync_api import sync_playwright

    known = _CHROMIUM.get("browser")
    if known is not None and known.is_connected():
        return known
    _close_chromium()
    # Chromium's headless shell (Debian's chromium-headless-shell): the same Blink and V8 as
    # the browser, without the browser's own layers, which headless Chromium still runs. Two
    # groups of the axe tour, A/B in one run on an idle machine: 44.4 and 44.2 s of CPU with
    # the browser, 37.4 and 34.1 s with the shell (most of the rest is the servers).
    executable = os.environ.get("CAPSTONE_CHROMIUM", "/usr/bin/chromium-headless-shell")
    if not Path(executable).exists():
        raise RuntimeError(
            f"Chromium is needed at {executable} (Debian: apt-get install chromium-headless-shell)"
        )
    playwright = _CHROMIUM["playwright"] = sync_playwright().start()
    # With that loop running, Django refuses the database work of test set-up and
    # teardown. Safe here: this process serves no requests (daphne does, in its own).
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    _CHROMIUM["browser"] = playwright.chromium.launch(
        executable_path=executable, args=CHROMIUM_ARGS, headless=True
    )
    return _CHROMIUM["browser"]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("e2e") is None:
        _close_chromium()


FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.failed:
        item.stash[FAILED] = True
    return report


@pytest.fixture
def new_context(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """Makes fresh browser contexts (separate cookies: separate people). When the test fails,
    screenshots each of their pages as it was left. Not after every test: the journeys take the
    screenshots a person looks at themselves, and one of every page left open took about a
    twentieth of the browser tests' time."""
    contexts: list[Any] = []

    def make(**kwargs: Any) -> Any:
        context = browser.new_context(**kwargs)
        context.set_default_timeout(15_000)
        context.add_init_script(COUNT_SOCKET_FRAMES)
        contexts.append(context)
        return context

    yield make
    name = request.node.name.replace("/", "_")
    for i, context in enumerate(contexts):
        if request.node.stash.get(FAILED, False):
            for j, page in enumerate(context.pages):
                page.screenshot(path=str(artifacts_dir() / f"{name}-{i}-{j}.png"), full_page=True)
        context.close()


SERVER_FIXTURES = {"celery_worker", "analysis_worker", "live_site"}


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by the markers added here
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test served by the suite's Celery worker or daphne is a ``services`` test whatever its
    module says (``make check`` leaves them out). Browser journeys last: the slowest tests, and
    the only ones that hold Chromium."""
    for item in items:
        if SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.services)
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)
