"""Old games must replay the same for ever (issue: engine versions).

``golden/stored_games.json`` holds whole games of every kind, recorded once with the
engine version they were played under. Each must still replay, action for action, to
the outcome that was stored. A rule change that would alter one of them must bump that
engine's ``version`` and keep the old behaviour behind it; this test is what notices.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.engine import get_engine

STORED = json.loads((Path(__file__).parent / "golden" / "stored_games.json").read_text())


@pytest.mark.parametrize("stored", STORED, ids=[f"{g['game']}-{g['seed']}" for g in STORED])
def test_a_stored_game_replays_to_its_stored_outcome(stored: dict[str, Any]) -> None:
    engine = get_engine(stored["game"])
    assert stored["engine_version"] == engine.version
    final = engine.replay(stored["config"], stored["seed"], stored["actions"])[-1]
    assert engine.outcome(final) == stored["outcome"]


def test_every_game_kind_is_covered() -> None:
    assert {g["game"] for g in STORED} == {"pyramid", "tripeaks", "triad", "blocks"}
    assert any(g["outcome"].get("won") for g in STORED if g["game"] == "pyramid")
