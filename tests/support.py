"""Helpers for tests that start processes: free ports, waiting for a server, stopping a
group, and reading what the servers logged."""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parent.parent
# Two runs at once (two engineers, or CI beside a developer) each name their own folder,
# so that one run's servers never write into the logs the other is reading.
ARTIFACTS = BASE_DIR / os.environ.get("CAPSTONE_ARTIFACTS", "test-artifacts")
BIN = Path(sys.executable).parent
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def child_env(**overrides: str) -> dict[str, str]:
    """The environment for a process the tests start, without this process's test-only switches."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(overrides)
    return env


def artifacts_dir() -> Path:
    """Where logs and screenshots go (``$CAPSTONE_ARTIFACTS``, by default test-artifacts/);
    CI keeps this folder."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


SIZES: dict[str, Any] = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
"""The two screens every page is looked at on (Playwright ``ViewportSize``s)."""


OVERLAPPING_CAPTIONS = """() => {
  const boxes = [...document.querySelectorAll('.hex-caption')]
    .map((caption) => caption.getBoundingClientRect()).filter((box) => box.width && box.height);
  const overlaps = (a, b) =>
    a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  return boxes.filter((box, i) => boxes.some((other, j) => j > i && overlaps(box, other))).length;
}"""
"""How many cards' captions run over another's (a long word in a narrow card, as Italian's
"Capostipite" did on a phone)."""


def shoot(page: Any, name: str) -> None:
    """A full-page screenshot of ``page`` at each of ``SIZES`` (``<name>-<size>.png``), and
    nothing wider than the viewport at either, nor any card's caption over another's; the
    page is left at the desktop size."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.screenshot(path=str(artifacts_dir() / f"{name}-{size}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], (name, size)
        assert page.evaluate(OVERLAPPING_CAPTIONS) == 0, (name, size, "captions overlap")
    page.set_viewport_size(SIZES["desktop"])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_http(url: str, timeout: float, process: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode} before answering {url}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status < 500:
                    return
        except Exception as exc:  # not up yet: keep polling until the deadline
            last = exc
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer in {timeout} s: {last}")


def start_redis(folder: Path, timeout: float = 10) -> tuple[subprocess.Popen[bytes], str]:
    """A throwaway redis-server on a free port, logging to ``folder``/redis.log; with its URL.
    Nothing saved to disk, and it dies with this process however this one ends (Linux)."""
    import redis

    from tests.stack import redis_binary

    port = free_port()
    argv = [redis_binary(), "--bind", "127.0.0.1", "--port", str(port), "--dir", str(folder)]
    libc = ctypes.CDLL(None, use_errno=True)  # loaded here: the child only calls it
    with open(folder / "redis.log", "wb") as log:
        process = subprocess.Popen(
            [*argv, "--save", "", "--appendonly", "no", "--loglevel", "warning"],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=lambda: libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM),
        )
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + timeout
    while True:
        try:
            with redis.Redis.from_url(url, socket_connect_timeout=0.5) as client:
                client.ping()
                return process, url
        except redis.ConnectionError:
            if process.poll() is not None or time.monotonic() > deadline:
                stop_process(process)
                raise RuntimeError(f"redis-server did not start; see {folder / 'redis.log'}") from None
            time.sleep(0.05)


def stop_process(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM, timeout: float = 15) -> None:
    if process.poll() is None:
        os.killpg(process.pid, sig)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def service_env() -> dict[str, str]:
    """The environment of a server or worker that shares the test database."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    return child_env(
        DJANGO_SETTINGS_MODULE="config.settings.test",
        DATABASE_URL=f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        PYTHONUNBUFFERED="1",
    )


# Server logs

ERROR_MARK = re.compile(r"Exception inside application|Traceback \(most recent call last\)")
"""What daphne, Django and Celery write when an exception escaped the code that ran."""
RECORD_START = re.compile(
    r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"  # the site's log format (config/settings/base.py)
    r"|\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"  # Celery's
    r"|\S+:\d+ - - \["  # daphne's access log
)
QUOTED_HEAD, QUOTED_TAIL = 6, 14
"""A long record is quoted by its first lines (what logged it) and its last (what was raised)."""


def log_records(text: str) -> list[str]:
    """``text`` cut into log records: a line that starts one, with the lines that follow it
    (a traceback's). Lines before the first such line make a record of their own."""
    records: list[list[str]] = []
    for line in text.splitlines():
        if not records or RECORD_START.match(line):
            records.append([])
        records[-1].append(line)
    return ["\n".join(lines) for lines in records]


def unexpected_errors(text: str, expected: Iterable[re.Pattern[str]] = ()) -> list[str]:
    """The records of ``text`` that report an escaped exception none of ``expected`` matches."""
    patterns = list(expected)
    return [
        record
        for record in log_records(text)
        if ERROR_MARK.search(record) and not any(p.search(record) for p in patterns)
    ]


def quote(record: str) -> str:
    lines = record.splitlines()
    if len(lines) > QUOTED_HEAD + QUOTED_TAIL + 1:
        skipped = len(lines) - QUOTED_HEAD - QUOTED_TAIL
        lines = [*lines[:QUOTED_HEAD], f"... ({skipped} lines)", *lines[-QUOTED_TAIL:]]
    return "\n".join(f"    {line}" for line in lines)


@dataclass
class ServerLogs:
    """Every ``*.log`` in one folder, read a piece at a time: each ``read_new`` returns what
    was appended since the last one, in whole lines (a line still being written waits)."""

    folder: Path
    offsets: dict[Path, int] = field(default_factory=dict)

    def skip_to_end(self) -> None:
        for path in self.folder.glob("*.log"):
            self.offsets[path] = path.stat().st_size

    def read_new(self) -> dict[str, str]:
        """The new text of each log that has some, by file name."""
        appended: dict[str, str] = {}
        for path in sorted(self.folder.glob("*.log")):
            start = self.offsets.get(path, 0)
            if path.stat().st_size < start:
                start = 0  # the file was started afresh
            with path.open("rb") as log:
                log.seek(start)
                data = log.read()
            end = data.rfind(b"\n") + 1
            if end:
                self.offsets[path] = start + end
                appended[path.name] = data[:end].decode("utf-8", errors="replace")
        return appended

    def errors(self, expected: Iterable[re.Pattern[str]] = ()) -> dict[str, list[str]]:
        """The unexpected error records in what was appended since the last read, by log."""
        patterns = list(expected)
        found = {name: unexpected_errors(text, patterns) for name, text in self.read_new().items()}
        return {name: records for name, records in found.items() if records}


def describe_errors(errors: dict[str, list[str]], when: str) -> str:
    """A failure message that names each log and quotes what it said."""
    parts = [f"A server logged an exception {when}:"]
    for name, records in errors.items():
        for record in records:
            parts.append(f"  {artifacts_dir() / name}:\n{quote(record)}")
    parts.append('If the test provokes it on purpose, mark it @pytest.mark.server_errors_expected("regex").')
    return "\n".join(parts)


@contextlib.contextmanager
def running_daphne(log_name: str, env: dict[str, str]) -> Iterator[str]:
    """A daphne (HTTP and WebSockets) on a free port with ``env``, logging to the artifacts
    folder; yields its base URL and stops it after."""
    port = free_port()
    with open(artifacts_dir() / log_name, "wb") as log:
        process = subprocess.Popen(
            [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=BASE_DIR,
            env=env,
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


COUNT_SOCKET_FRAMES = (
    "document.addEventListener('htmx:wsAfterMessage', function () {"
    " window.socketFrames = (window.socketFrames || 0) + 1; });"
)
"""Each page counts the frames its sockets have swapped in (``wait_for_first_frame``)."""


def wait_for_first_frame(page: Any) -> None:
    """Until the page's socket has swapped in its first frame (the table as the socket found
    it on connecting). A click that lands while that frame replaces the part under the pointer
    can be lost between the button's press and its release, so a journey that clicks at once
    after opening a table waits for it first. Only an open table's page is sure of that frame:
    a started table's page that is current is sent none (games.live.consumers), and would wait here
    in vain."""
    page.wait_for_function("() => (window.socketFrames || 0) > 0")
