"""What every viewer of a table's version sees alike (the log, the result, the game's public
words) is worked out once a version for them all (``games.table_presenter``); the rest of
each frame stays its viewer's own (LP-3)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import table_frames, table_presenter
from games.engine import get_engine
from games.state_cache import current_state
from tests.games.table_moments import dealt_heads_up_triad

pytestmark = pytest.mark.django_db


def test_a_versions_public_part_is_worked_out_once_and_each_seat_still_sees_only_its_own_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, alice, bob = dealt_heads_up_triad()
    record = table.record
    assert record is not None
    worked: list[Any] = []
    logs: list[Any] = []
    public_area, log_section = table_presenter.public_area, table_presenter.log_section
    monkeypatch.setattr(table_presenter, "public_area", lambda *a: worked.append(a) or public_area(*a))
    monkeypatch.setattr(table_presenter, "log_section", lambda *a: logs.append(a) or log_section(*a))

    frames = table_frames.render_for_viewers(table.pk, [alice, bob, None], record.version)

    assert len(worked) == 1 and len(logs) == 1
    state = current_state(record)
    engine = get_engine("triad")
    for seat, person in enumerate((alice, bob)):
        # A Triad deck repeats faces: a seat is shown exactly its own cards, the others' backs.
        assert faces(frames[person.pk][0]) == list(engine.view(state, seat).cards)
    assert faces(frames[None][0]) == []
    assert frames[alice.pk][0] != frames[bob.pk][0] != frames[None][0]
    assert "You are watching" in frames[None][0] and "You are watching" not in frames[alice.pk][0]


def faces(frame: str) -> list[str]:
    return [card for card in re.findall(r'data-card="([^"]*)"', frame) if card]
