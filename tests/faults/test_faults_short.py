"""``make faults`` in small: one SIGKILL of daphne, the worker and Redis each during play.

Runs the very harness ``make faults`` runs (``python -m tests.faults.run``), in a process
of its own: the harness sets up Django on a database it creates, which this test process
(pytest-django's) must not share.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.stack import run_suite

pytestmark = pytest.mark.services


def test_killing_each_component_loses_and_duplicates_no_move(tmp_path: Path) -> None:
    data, run = run_suite(
        "tests.faults.run", ["--kills", "1", "--tables", "3", "--seed", "15"], tmp_path / "faults.json", 240
    )
    rows = {row["name"]: row for row in data["rows"]}
    for component in ("daphne", "worker", "redis"):
        assert rows[component]["kills"] == 1
    total = rows["total"]
    assert total["acknowledged"] > 50, run.stdout[-4000:]
    assert (total["lost"], total["duplicated"]) == (0, 0), data["details"] + data["duplicated"]
    assert data["out_of_turn"] == [], data["details"]
    assert data["gaps"] == [] and data["bad_replays"] == [] and data["stalled"] == []
    assert run.returncode == 0, run.stdout[-4000:]
    # The harness's own tasks go to the stack's Redis from every thread, not to Celery's default AMQP.
    assert "No hostname was supplied" not in run.stdout + run.stderr, run.stderr[-4000:]
