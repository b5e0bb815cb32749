"""What every viewer of a table's version sees alike (the log, the result, the game's public
words) is worked out once a version for them all (``games.live.table_presenter``); the rest of
each frame stays its viewer's own (LP-3)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from accounts.models import User
from games.core import snapshots
from games.core.snapshots import state_of
from games.engine import get_engine
from games.kinds.blocks import BlocksSpec
from games.live import table_presenter
from tests.games.table_moments import build_table, dealt_heads_up_triad, find_game, frames_for

pytestmark = pytest.mark.django_db(transaction=True)


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

    frames = frames_for(table.pk, [alice, bob, None])

    assert len(worked) == 1 and len(logs) == 1
    state = state_of(record)
    engine = get_engine("triad")
    for seat, person in enumerate((alice, bob)):
        # A Triad deck repeats faces: a seat is shown exactly its own cards, the others' backs.
        assert faces(frames[person.pk][0]) == list(engine.view(state, seat).cards)
    assert faces(frames[None][0]) == []
    assert frames[alice.pk][0] != frames[bob.pk][0] != frames[None][0]
    assert "You are watching" in frames[None][0] and "You are watching" not in frames[alice.pk][0]
    # Said plainly (issue 41 read "you see what every player sees, no hidden card").
    assert "You are watching: you see only the cards every player sees." in frames[None][0]
    assert "no hidden card" not in frames[None][0]


def faces(frame: str) -> list[str]:
    return [card for card in re.findall(r'data-card="([^"]*)"', frame) if card]


@pytest.mark.parametrize("after_a_showdown", [False, True])
def test_pyramid_pokers_figures_and_showdown_are_drawn_once_a_version_and_alike_in_each_process(
    monkeypatch: pytest.MonkeyPatch, after_a_showdown: bool
) -> None:
    """The line of the phase, the blocks placed and the scores, and the last showdown, are the
    same for every viewer: drawn once for them all; another process (its snapshots empty) draws
    the same from the database."""
    alice = User.objects.create_user("alice", "a@example.com", "pw-long-enough-1")
    bob = User.objects.create_user("bob", "b@example.com", "pw-long-enough-1")
    config = {"scoring": "advanced", "target": 7}
    seed, actions = find_game("blocks", config, lambda _e, state, _a: bool(state.results) == after_a_showdown)
    table = build_table("blocks", config, {0: alice, 1: bob}, seed, actions)
    record = table.record
    assert record is not None
    drawn: list[Any] = []
    public_html = BlocksSpec.public_html
    monkeypatch.setattr(BlocksSpec, "public_html", lambda *a: drawn.append(a) or public_html(*a))

    frames = frames_for(table.pk, [alice, bob, None])

    assert len(drawn) == 1
    placed = state_of(record).placed
    for frame, _ in frames.values():
        assert f'<span class="chip-stat">Placed <strong>{placed}</strong> / 30</span>' in frame
        assert re.search(r'<span class="player-name">bob</span> <strong>\d+</strong> of 7', frame)
        assert frame.count('data-testid="showdown-hand-') == (3 if after_a_showdown else 0)
    snapshots.clear()
    assert frames_for(table.pk, [alice, bob, None]) == frames
    assert len(drawn) == 2
