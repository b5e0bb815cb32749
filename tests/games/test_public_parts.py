"""What every viewer of a table's version sees alike (the log, the result, the game's public
words) is worked out once a version for them all (``games.table_presenter``); the rest of
each frame stays its viewer's own (LP-3)."""

from __future__ import annotations

import re
from typing import Any

import msgpack
import pytest

from accounts.models import User
from games import table_frames, table_presenter, tables
from games.engine import get_engine
from games.kinds.blocks import BlocksSpec
from games.models import Table
from games.started_seats import seats_of
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


def test_pyramid_pokers_figures_are_drawn_once_a_version_and_carried_as_html(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The line of the phase, the blocks placed and the scores is the same for every viewer:
    drawn once for them all, and carried to another process as the HTML it is, not as text
    to escape."""
    alice = User.objects.create_user("alice", "a@example.com", "pw-long-enough-1")
    bob = User.objects.create_user("bob", "b@example.com", "pw-long-enough-1")
    table = tables.create_table(game="blocks", creator=alice, config={"scoring": "advanced", "target": 7})
    tables.sit(table_id=table.pk, user=bob)
    tables.start(table_id=table.pk, user=alice)
    record = Table.objects.select_related("record").get(pk=table.pk).record
    assert record is not None
    bars: list[Any] = []
    info_bar = BlocksSpec.info_bar
    monkeypatch.setattr(BlocksSpec, "info_bar", lambda *a: bars.append(a) or info_bar(*a))

    frames = table_frames.render_for_viewers(table.pk, [alice, bob, None], record.version)

    assert len(bars) == 1
    for frame, _ in frames.values():
        assert '<span class="chip-stat">Placed <strong>0</strong> / 30</span>' in frame
        assert re.search(r'<span class="player-name">bob</span> <strong>0</strong> of 7', frame)
    started = Table.objects.select_related("record").get(pk=table.pk)
    part = table_presenter.public_part_to_carry(started, seats_of(started), record, current_state(record))
    carried = msgpack.unpackb(msgpack.packb(part), raw=False)  # as the channel layer carries it
    table_presenter._public.clear()
    table_frames._frames.clear()
    table_presenter.keep_carried_public_part(record.pk, record.version, carried)
    assert table_frames.render_for_viewers(table.pk, [alice, bob, None], record.version) == frames
    assert len(bars) == 1
