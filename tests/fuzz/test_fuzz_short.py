"""``make fuzz`` in small: 200 frames into each WebSocket consumer, 20 posts to each POST view
(35 of them now: fewer each, so the suite stays under ten minutes; ``make fuzz`` sends 10,000
and 1,000).

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
        "tests.fuzz.run", ["--frames", "200", "--requests", "20", "--seed", "15"], tmp_path / "fuzz.json", 300
    )
    for name, tally in data["sockets"].items():
        assert tally["counted"] >= 200, name
    for name, tally in data["http"].items():
        assert tally["sent"] >= 20, name
    assert data["uncovered"] == [], "POST views the fuzzer does not know"
    assert data["sockets_uncovered"] == [], "sockets the fuzzer does not know"
    assert data["problems"] == [], "\n".join(data["problems"])
    assert run.returncode == 0, run.stdout[-4000:]
