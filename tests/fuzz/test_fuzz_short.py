"""``make fuzz`` in small: 300 frames into each WebSocket consumer, 30 posts to each POST view.

Runs the very harness ``make fuzz`` runs (``python -m tests.fuzz.run``), in a process of
its own: the harness sets up Django on a database it creates, which this test process
(pytest-django's) must not share.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.stack import run_suite

pytestmark = pytest.mark.services


def test_adversarial_frames_and_posts_raise_no_unhandled_exception(tmp_path: Path) -> None:
    data, run = run_suite(
        "tests.fuzz.run", ["--frames", "300", "--requests", "30", "--seed", "15"], tmp_path / "fuzz.json", 300
    )
    for name, tally in data["sockets"].items():
        assert tally["counted"] >= 300, name
    for name, tally in data["http"].items():
        assert tally["sent"] >= 30, name
    assert data["uncovered"] == [], "POST views the fuzzer does not know"
    assert data["sockets_uncovered"] == [], "sockets the fuzzer does not know"
    assert data["problems"] == [], "\n".join(data["problems"])
    assert run.returncode == 0, run.stdout[-4000:]
