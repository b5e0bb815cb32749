"""Helpers for tests that start processes: free ports, waiting for a server, stopping a group."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
ARTIFACTS = BASE_DIR / "test-artifacts"
BIN = Path(sys.executable).parent


def child_env(**overrides: str) -> dict[str, str]:
    """The environment for a process the tests start, without this process's test-only switches."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(overrides)
    return env


def artifacts_dir() -> Path:
    """Where logs and screenshots go; CI keeps this folder."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


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
