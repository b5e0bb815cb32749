"""``make fuzz`` in small: 300 frames into each WebSocket consumer, 30 posts to each POST view.

Runs the very harness ``make fuzz`` runs (``python -m tests.fuzz.run``), in a process of
its own: the harness sets up Django on a database it creates, which this test process
(pytest-django's) must not share.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import child_env

pytestmark = pytest.mark.services
BASE_DIR = Path(__file__).resolve().parents[2]


def test_adversarial_frames_and_posts_raise_no_unhandled_exception(tmp_path: Path) -> None:
    figures = tmp_path / "fuzz.json"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.fuzz.run",
            "--frames",
            "300",
            "--requests",
            "30",
            "--seed",
            "15",
            "--json",
            str(figures),
        ],
        cwd=BASE_DIR,
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert figures.exists(), run.stdout[-4000:] + run.stderr[-4000:]
    data = json.loads(figures.read_text())
    for name, tally in data["sockets"].items():
        assert tally["counted"] >= 300, name
    for name, tally in data["http"].items():
        assert tally["sent"] >= 30, name
    assert data["uncovered"] == [], "POST views the fuzzer does not know"
    assert data["problems"] == [], "\n".join(data["problems"])
    assert run.returncode == 0, run.stdout[-4000:]
