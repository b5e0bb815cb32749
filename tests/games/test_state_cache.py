"""The per-process state cache: an entry is the state of exactly the version it is filed under."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import state_cache, tables
from games.engine import get_engine
from games.models import GameRecord

pytestmark = pytest.mark.django_db(transaction=True)  # the cache fills only outside transactions
User = get_user_model()


def test_a_record_read_before_a_move_rebuilds_the_state_it_was_read_at() -> None:
    """Found by `make faults`: a frame for version v showed the next seat's turn when a move
    committed between reading the game and rebuilding it, and that player's move was then
    refused as stale."""
    alice = User.objects.create_user("alice", "a@example.com", "pw-long-enough-1")
    bob = User.objects.create_user("bob", "b@example.com", "pw-long-enough-1")
    table = tables.create_table(game="triad", creator=alice, config={"players": 2})
    tables.sit(table_id=table.pk, user=bob)
    tables.start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    engine = get_engine("triad")
    before = GameRecord.objects.get(pk=table.record_id)  # read at version v ...
    state_cache._states.clear()
    seat = engine.current_player(state_cache.current_state(GameRecord.objects.get(pk=before.pk)))
    state_cache._states.clear()
    mover = alice if table.seats.get(number=seat).user_id == alice.pk else bob
    tables.act(
        table_id=table.pk, user=mover, move="check", expected_version=before.version
    )  # ... v+1 commits
    state_cache._states.clear()

    state = state_cache.current_state(before)

    assert engine.current_player(state) == seat  # the state of version v: still that seat's turn
    cached = state_cache._states.get((before.pk, before.version))
    assert cached is None or engine.current_player(cached) == seat
    later = GameRecord.objects.get(pk=before.pk)
    assert engine.current_player(state_cache.current_state(later)) != seat  # and v+1 its own
