"""The per-process state cache: an entry is the state of exactly the version it is filed under."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import state_cache, tables
from games.engine import get_engine
from games.models import GameRecord
from tests.games.table_moments import dealt_heads_up_triad

pytestmark = pytest.mark.django_db(transaction=True)  # the cache fills only outside transactions
User = get_user_model()


def test_a_record_read_before_a_move_rebuilds_the_state_it_was_read_at() -> None:
    """Found by `make faults`: a frame for version v showed the next seat's turn when a move
    committed between reading the game and rebuilding it, and that player's move was then
    refused as stale."""
    table, alice, bob = dealt_heads_up_triad()
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


def moves_of_a_table() -> tuple[int, list[User]]:
    """A started two-seat Triad table, its game id and its people by seat."""
    table, alice, bob = dealt_heads_up_triad()
    by_seat = {seat.number: alice if seat.user_id == alice.pk else bob for seat in table.seats.all()}
    return table.pk, [by_seat[0], by_seat[1]]


def test_a_version_this_process_did_not_see_goes_on_from_the_state_it_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A live table's other process: the state of each new version is the kept one and the
    moves since, not a replay of the whole game, and it is the state a replay gives."""
    table_id, people = moves_of_a_table()
    engine = get_engine("triad")
    state_cache.current_state(GameRecord.objects.get(table__pk=table_id))
    seen = state_cache._latest.find(GameRecord.objects.get(table__pk=table_id).pk)
    assert seen is not None
    for _ in range(3):
        record = GameRecord.objects.get(table__pk=table_id)
        state = state_cache.current_state(record)
        move = next(str(a) for a in engine.legal_actions(state) if str(a) != "fold")
        seat = engine.current_player(state)
        tables.act(table_id=table_id, user=people[seat], move=move, expected_version=record.version)
    # Another process made those three moves: this one saw the game last before them.
    state_cache._states.clear()
    state_cache._latest.keep(record.pk, seen)
    replays: list[int] = []
    replay = engine.replay
    monkeypatch.setattr(type(engine), "replay", lambda self, *a, **k: replays.append(1) or replay(*a, **k))
    record = GameRecord.objects.get(table__pk=table_id)
    state = state_cache.current_state(record)
    assert replays == []
    monkeypatch.undo()
    texts = list(record.actions.order_by("seq").values_list("text", flat=True))
    assert state == engine.replay(record.config, record.seed, texts, deck=record.deck)[-1]


def test_after_an_undo_the_game_is_replayed_from_its_start() -> None:
    """An undone move's place may hold another move now: a state kept from before the undo
    is not built on, even where the count of moves is the same again."""
    from games import services
    from games.players import Player

    engine = get_engine("pyramid")
    player = Player(user=User.objects.create_user("carol", "c@example.com", "pw-long-enough-1"), token="")
    record = services.start_solitaire(game="pyramid", player=player, seed=7)
    services.submit_action(game_id=record.pk, player=player, move="draw", expected_version=0)
    services.submit_action(game_id=record.pk, player=player, move="draw", expected_version=1)
    before_undo = state_cache._latest.find(record.pk)
    assert before_undo is not None and before_undo.action_count == 2
    undone = services.undo(game_id=record.pk, player=player, expected_version=2)
    other = next(str(a) for a in engine.legal_actions(undone.state) if str(a) not in ("draw", "resign"))
    services.submit_action(game_id=record.pk, player=player, move=other, expected_version=3)
    # A process that last saw the game before the undo:
    state_cache._states.clear()
    state_cache._latest.keep(record.pk, before_undo)

    state = state_cache.current_state(GameRecord.objects.get(pk=record.pk))

    assert state == engine.replay(record.config, 7, ["draw", other])[-1]


def test_another_processs_move_is_read_once_for_the_state_and_the_log() -> None:
    """The process that did not make a move reads its action once, and does not look again
    at the game's version: a live table's moves are never undone."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import action_rows, table_log

    table_id, people = moves_of_a_table()
    engine = get_engine("triad")
    record = GameRecord.objects.get(table__pk=table_id)
    state = state_cache.current_state(record)
    table_log.table_log(record, ["alice", "bob"])
    seen = state_cache._latest.find(record.pk)
    move = next(str(a) for a in engine.legal_actions(state) if str(a) != "fold")
    tables.act(table_id=table_id, user=people[engine.current_player(state)], move=move, expected_version=0)
    # What this process knows of the move: nothing (another one made it).
    state_cache._states.clear()
    state_cache._latest.keep(record.pk, seen)
    action_rows._rows.clear()
    record = GameRecord.objects.get(table__pk=table_id)
    with CaptureQueriesContext(connection) as queries:
        state = state_cache.current_state(record)
        log = table_log.table_log(record, ["alice", "bob"])
    assert [q["sql"].split(" FROM ")[1].split()[0] for q in queries] == ['"games_action"']
    assert log[-1]["seq"] == 0 and engine.current_player(state) != engine.current_player(seen.state)


def test_a_moves_spectators_frame_and_its_words_share_one_view_of_each_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The log's sentence for a move looks at the state before and after it, as the
    spectators' frames of the two versions do: one spectator's view of each a process."""
    from games import spectator_views, table_frames, table_log

    table_id, people = moves_of_a_table()
    engine = get_engine("triad")
    made: list[object] = []
    view = engine.view
    monkeypatch.setattr(engine, "view", lambda state, seat: made.append(state) or view(state, seat))
    table_frames.render_table(table_id, None)
    record = GameRecord.objects.get(table__pk=table_id)
    state = state_cache.current_state(record)
    move = next(str(a) for a in engine.legal_actions(state) if str(a) != "fold")
    table_frames.play(table_id, people[engine.current_player(state)], move, record.version)
    record = GameRecord.objects.get(table__pk=table_id)
    del made[:]
    table_frames.render_table(table_id, None, version=record.version)
    after = state_cache.current_state(record)
    assert table_log._windows.find((record.pk, record.seed))[1][-1] is after  # type: ignore[index]
    assert made == [after]  # the frame's; the words found it, and the state before it, kept
    assert spectator_views.spectator_view(engine, after) is spectator_views.spectator_view(engine, after)
    assert spectator_views.spectator_view(engine, after) == view(after, None)
