"""A live table says what happened (issue 20, "Tables"): discards counted in cards, ties
and their replays explained, the turn clock's moves in the log and as a notice, a rematch
made once, Pyramid Poker's showdown hand by hand, and names a screen reader can use."""

from __future__ import annotations

import datetime as dt
import re
from functools import partial
from html import unescape
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone, translation

from accounts.models import Notice, User
from games.core.errors import GameError
from games.engine import TABLE_SEAT
from games.live import tables
from games.live.table_frames import render_table
from games.models import Action, GameRecord, Table
from tests.at_once import at_once
from tests.games.table_moments import build_table, dealt_heads_up_triad, find_game
from tests.tournaments.support import person

pytestmark = pytest.mark.django_db
TRIAD, BLOCKS = "triad", "blocks"


@pytest.fixture
def alice() -> User:
    return person("alice")


@pytest.fixture
def bob() -> User:
    return person("bob")


def page(table: Table, user: User | None) -> str:
    html, _ = render_table(table.pk, user)
    return html


def text(html: str) -> str:
    """What the page says, tags and runs of space removed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def seat_note(html: str, seat: int) -> str:
    match = re.search(rf'data-testid="seat-note-{seat}">(.*?)</div>', html, re.S)
    assert match, f"no note for seat {seat}"
    return text(match.group(1))


def public(engine: Any, state: Any) -> Any:
    return engine.view(state, None)


class TestDiscards:
    def test_the_seat_note_counts_cards_discarded_not_draws(self, alice: User) -> None:
        def after_draw(engine: Any, state: Any, actions: list[str]) -> bool:
            view = public(engine, state)
            counts = [sum(seat.discarded) for seat in view.seats]
            drew = [len(seat.discarded) for seat in view.seats]
            return view.phase == "bet" and all(drew) and 0 in counts and max(counts) >= 2

        config = {"players": 4, "hands": 3}
        seed, actions = find_game(TRIAD, config, after_draw)
        table = build_table(TRIAD, config, {0: alice}, seed, actions)
        html = page(table, alice)
        view = public(table_engine(table), table_state(table))
        for seat in view.seats:
            thrown = sum(seat.discarded)
            note = seat_note(html, seat.seat)
            if thrown:
                assert f"discarded {thrown}" in note
            else:
                assert "discarded" not in note  # stood pat: nothing to say


def table_engine(table: Table) -> Any:
    from games import kinds

    return kinds.get_table_game(table.game).engine


def table_state(table: Table) -> Any:
    from games.core.snapshots import state_of

    record = GameRecord.objects.get(pk=table.record_id)
    return state_of(record)


def names_in(html: str, table: Table) -> dict[int, str]:
    return {seat.number: seat.name for seat in table.seats.select_related("user")}


class TestTies:
    def test_a_tie_for_the_pot_says_who_tied_and_for_what(self, alice: User) -> None:
        def tie(engine: Any, state: Any, actions: list[str]) -> bool:
            return engine.current_player(state) == TABLE_SEAT and public(engine, state).phase == "tie-replay"

        config = {"players": 3, "hands": 3}
        seed, actions = find_game(TRIAD, config, tie)
        table = build_table(TRIAD, config, {0: alice}, seed, actions)
        html = page(table, alice)
        view = public(table_engine(table), table_state(table))
        names = names_in(html, table)
        said = text(html)
        tied = [names[seat] for seat in view.tied]
        assert re.search(rf"Tie: {re.escape(tied[0])}.* are level for the held pot of {view.held_pot}", said)
        assert "replay hand" in said
        assert "Phase Tie replay next" in said
        assert f"tied, so the pot of {view.held_pot} is held for a replay hand" in said
        assert "tie-replay" not in re.sub(r"<[^>]*>", "", html.split('id="table-log-heading"')[0])

    def test_the_replay_hand_is_named_while_played_and_its_result_after(self, alice: User) -> None:
        def replaying(engine: Any, state: Any, actions: list[str]) -> bool:
            view = public(engine, state)
            return view.deal == "tie-replay" and engine.current_player(state) not in (None, TABLE_SEAT)

        def replayed(engine: Any, state: Any, actions: list[str]) -> bool:
            view = public(engine, state)
            last = view.last_result
            return last is not None and last.deal == "tie-replay" and not last.tie and view.phase == "bet"

        config = {"players": 3, "hands": 3}
        seed, actions = find_game(TRIAD, config, replaying)
        during = text(page(build_table(TRIAD, config, {0: alice}, seed, actions), alice))
        assert re.search(r"Replay hand: .+ and .+ play for the held pot of \d+", during)
        assert "Hand 1 of 3 (tie replay)" in during or "(tie replay)" in during

        seed, actions = find_game(TRIAD, config, replayed)
        table = build_table(TRIAD, config, {0: alice}, seed, actions)
        view = public(table_engine(table), table_state(table))
        winner = names_in("", table)[view.last_result.winners[0]]
        after = text(page(table, alice))
        assert (
            f"Last hand (the tie replay): {winner} won the held pot of {view.last_result.pot} chips" in after
        )
        assert "won 0" not in after

    def test_a_place_tie_names_the_place_and_the_phase_in_words(self, alice: User) -> None:
        def place_tie(engine: Any, state: Any, actions: list[str]) -> bool:
            return engine.current_player(state) == TABLE_SEAT and public(engine, state).phase == "place-tie"

        config = {"players": 4, "hands": 3}
        seed, actions = find_game(TRIAD, config, place_tie)
        table = build_table(TRIAD, config, {0: alice}, seed, actions)
        said = text(page(table, alice))
        assert re.search(
            r"Tie: .+ are level for \d+(st|nd|rd|th) place\. They play a replay hand for it", said
        )
        assert "Phase Place tie replay next" in said
        assert "Phase place-tie" not in said

    def test_a_winner_level_on_chips_is_explained(self, alice: User) -> None:
        def over_level(engine: Any, state: Any, actions: list[str]) -> bool:
            outcome = engine.outcome(state)
            if outcome is None:
                return False
            chips = outcome["chips"]
            return sum(c == chips[outcome["winner"]] for c in chips) > 1

        config = {"players": 4, "hands": 3}
        seed, actions = find_game(TRIAD, config, over_level)
        table = build_table(TRIAD, config, {0: alice}, seed, actions)
        said = text(page(table, alice))
        assert re.search(r"wins \(level on chips with .+ won the tie-replay for first place\)", said)
        assert "1st: " in said and "2nd: " in said


class TestTimeouts:
    def test_the_log_says_what_the_clock_did(self, alice: User) -> None:
        def some_moves(engine: Any, state: Any, actions: list[str]) -> bool:
            return len(actions) >= 3 and engine.current_player(state) == 1

        config = {"players": 3, "hands": 3}
        seed, actions = find_game(TRIAD, config, some_moves)
        engine = table_engine_for(TRIAD)
        states = engine.replay(engine.normalize_config(config), seed, actions)
        mine = max(i for i in range(len(actions)) if engine.current_player(states[i]) == 0)
        table = build_table(TRIAD, config, {0: alice}, seed, actions, timed_out={mine})
        log = re.search(r'data-testid="table-log">(.*?)</section>', page(table, alice), re.S)
        assert log
        verb = {"check": "checks", "fold": "folds", "call": "calls"}.get(actions[mine].split()[0], "")
        assert re.search(rf"Time ran out: alice {verb}", text(log.group(1))), text(log.group(1))

    @pytest.mark.django_db(transaction=True)
    def test_the_player_whose_clock_ran_out_gets_a_notice(
        self, alice: User, bob: User, site_heartbeats: None
    ) -> None:
        table = tables.create_table(game=TRIAD, creator=alice)
        tables.sit(table_id=table.pk, user=bob)
        tables.start(table_id=table.pk, user=alice)
        table.refresh_from_db()
        record = table.record
        assert record is not None
        seat = table_engine(table).current_player(table_state(table))
        sitter = alice if seat == 0 else bob
        GameRecord.objects.filter(pk=record.pk).update(turn_deadline=timezone.now() - dt.timedelta(seconds=1))
        assert tables.advance(game_id=record.pk, version=0) is True
        assert Action.objects.get(game=record).timed_out
        notice = Notice.objects.get(user=sitter)
        assert notice.text == f"Time ran out at Triad table {table.pk}: {sitter.username} checks"
        assert notice.url == table.get_absolute_url()
        assert not Notice.objects.exclude(user=sitter).exists()
        assert f"Time ran out: {sitter.username} checks" in text(page(table, sitter))


def table_engine_for(game: str) -> Any:
    from games import kinds

    return kinds.get_table_game(game).engine


def finished(alice: User, bob: User | None = None, game: str = TRIAD, **config: Any) -> Table:
    people = {0: alice} if bob is None else {0: alice, 1: bob}
    seed, actions = find_game(game, config, lambda e, s, a: e.current_player(s) is None)
    return build_table(game, config, people, seed, actions)


class TestRematch:
    def test_a_rematch_has_the_same_seats_bots_and_options_and_is_made_once(
        self, alice: User, bob: User
    ) -> None:
        old = finished(alice, bob, players=4, hands=3)
        Table.objects.filter(pk=old.pk).update(clock_seconds=45, rated=True)
        new = tables.rematch(table_id=old.pk, user=alice)
        assert new.pk != old.pk and new.status == Table.Status.OPEN
        assert (new.game, new.config, new.clock_seconds, new.rated) == (old.game, old.config, 45, True)
        seats = {s.number: s for s in new.seats.all()}
        assert seats[0].user_id == alice.pk and seats[1].user_id is None
        assert [n for n, s in seats.items() if s.is_bot] == [2, 3]
        assert Notice.objects.get(user=bob).url == new.get_absolute_url()
        assert not Notice.objects.filter(user=alice).exists()
        # A second click, then the other player's: the same table, and bob in his own seat.
        assert tables.rematch(table_id=old.pk, user=alice).pk == new.pk
        assert tables.rematch(table_id=old.pk, user=bob).pk == new.pk
        assert new.seats.get(number=1).user_id == bob.pk
        assert Table.objects.count() == 2
        assert Notice.objects.count() == 1

    def test_only_a_finished_tables_players_may_ask(self, alice: User, bob: User) -> None:
        old = finished(alice, players=3, hands=3)
        with pytest.raises(GameError, match="Only the players"):
            tables.rematch(table_id=old.pk, user=bob)
        running = tables.create_table(game=TRIAD, creator=alice)
        with pytest.raises(GameError, match="once the game is over"):
            tables.rematch(table_id=running.pk, user=alice)
        with pytest.raises(GameError, match="no such table"):
            tables.rematch(table_id=999_999, user=alice)
        assert Table.objects.count() == 2

    @pytest.mark.django_db(transaction=True)
    def test_two_players_asking_at_once_make_one_table(self, alice: User, bob: User) -> None:
        old = finished(alice, bob, players=2, hands=3)
        made: list[int] = []

        def ask(user: User) -> None:
            made.append(tables.rematch(table_id=old.pk, user=user).pk)

        at_once(partial(ask, alice), partial(ask, bob))
        assert len(made) == 2 and made[0] == made[1]
        assert Table.objects.count() == 2
        new = Table.objects.get(pk=made[0])
        assert {s.user_id for s in new.seats.all()} == {alice.pk, bob.pk}

    def test_the_page_offers_rematch_and_the_lobby_and_the_post_goes_to_the_new_table(
        self, alice: User
    ) -> None:
        old = finished(alice, players=3, hands=3)
        html = page(old, alice)
        assert 'data-testid="rematch"' in html and 'data-testid="back-to-lobby"' in html
        assert 'data-testid="rematch"' not in page(old, None)  # a spectator has no rematch
        client = Client()
        client.force_login(alice)
        response = client.post(f"/tables/{old.pk}/rematch/")
        new = Table.objects.exclude(pk=old.pk).get()
        assert response.status_code == 302 and response["Location"] == new.get_absolute_url()
        response = client.post(f"/tables/{old.pk}/rematch/")
        assert response["Location"] == new.get_absolute_url() and Table.objects.count() == 2
        response = client.post(f"/tables/{new.pk}/rematch/", follow=True)
        assert "once the game is over" in response.content.decode()
        # From the live part (htmx): the browser is sent to the table as a whole page.
        response = client.post(f"/tables/{old.pk}/rematch/", HTTP_HX_REQUEST="true")
        assert response.status_code == 204 and response["HX-Redirect"] == new.get_absolute_url()
        response = client.post("/tables/999999/rematch/", HTTP_HX_REQUEST="true")
        assert response["HX-Redirect"] == "/tables/" and Table.objects.count() == 2


class TestTurnLine:
    def test_a_bots_turn_has_no_clock_to_alarm(self, alice: User) -> None:
        def bot_turn(engine: Any, state: Any, actions: list[str]) -> bool:
            return len(actions) > 2 and engine.current_player(state) == 1

        config = {"players": 3, "hands": 3}
        seed, actions = find_game(TRIAD, config, bot_turn)
        html = page(build_table(TRIAD, config, {0: alice}, seed, actions), alice)
        turn = re.search(r'data-testid="turn">(.*?)</p>', html, re.S)
        assert turn and text(turn.group(1)) == "Bot 2 is playing…"
        assert "data-clock" not in turn.group(1)


class TestNames:
    def test_dealer_heading_live_region_and_log(self, alice: User) -> None:
        config = {"players": 3, "hands": 3}
        seed, actions = find_game(TRIAD, config, lambda e, s, a: len(a) > 3 and e.current_player(s) == 0)
        html = page(build_table(TRIAD, config, {0: alice}, seed, actions), alice)
        assert '<span class="visually-hidden">(dealer)</span>' in html
        assert re.search(r'<h2 id="table-live-heading"[^>]*>The game</h2>', html)
        assert 'data-announce="Your turn."' in html
        assert 'id="action-bar"' in html

    def test_pyramid_poker_places_have_names_and_the_end_says_who_won_each_hand(self, alice: User) -> None:
        seed, actions = find_game(BLOCKS, {}, lambda e, s, a: len(a) > 2 and e.current_player(s) == 0)
        html = page(build_table(BLOCKS, {}, {0: alice}, seed, actions), alice)
        assert "Place on" not in html
        assert re.search(r'aria-label="Place your block in row \d+ from the bottom, place \d+"', html)
        headings = re.findall(r"<h([1-6])", html)
        assert headings[0] == "2"  # the live part opens with its own heading, before any h3

        old = finished(alice, game=BLOCKS)
        html = page(old, alice)
        assert "block-pyramid" not in html  # no empty felt at the end
        rows = re.findall(r'data-testid="showdown-hand-(\d)">(.*?)</tr>', html, re.S)
        assert [n for n, _ in rows] == ["1", "2", "3"]
        for _, row in rows:
            assert re.search(r"(alice|Bot 2) wins|Drawn", text(row))
        assert "Phase Over" in text(html)


@pytest.mark.django_db(transaction=True)
class TestLog:
    def test_the_log_goes_on_from_the_last_version_as_a_full_replay_says_it(
        self, alice: User, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from games.core import narration, snapshots

        config = {"players": 3, "hands": 3}
        seed, actions = find_game(TRIAD, config, lambda e, s, a: len(a) >= 30)
        table = build_table(TRIAD, config, {0: alice}, seed, actions[:-5])
        early = snapshots.of_table(snapshots.read_table(table.pk)).log
        engine = table_engine(table)
        states = engine.replay(engine.normalize_config(config), seed, actions)
        for seq in range(len(actions) - 5, len(actions)):
            seat = engine.current_player(states[seq])
            Action.objects.create(game_id=table.record_id, seq=seq, seat=seat, text=actions[seq])
        GameRecord.objects.filter(pk=table.record_id).update(action_count=len(actions), version=len(actions))
        said: list[str] = []
        narrate = narration.narrate
        monkeypatch.setattr(narration, "narrate", lambda *a, **k: said.append(a[2]) or narrate(*a, **k))
        later = snapshots.of_table(snapshots.read_table(table.pk)).log
        assert said == []  # no move is put into words before someone reads it
        words = [str(line.said) for line in later]
        assert said == actions[-8:] and [str(line.said) for line in later] == words  # once a language
        with translation.override("it"):
            assert [str(line.said) for line in later] != words
        assert said == actions[-8:] * 2
        snapshots.clear()  # a process that never drew the table
        assert later == snapshots.of_table(snapshots.read_table(table.pk)).log
        assert [line.seq for line in later] == list(range(len(actions) - 8, len(actions)))
        assert early[-1] in later

    def test_the_process_that_stored_a_move_draws_it_without_a_read(self) -> None:
        from django.test.utils import CaptureQueriesContext

        from games.core import move_path, snapshots
        from games.live import table_frames

        table, alice, bob = dealt_heads_up_triad()
        before = snapshots.of_table(snapshots.read_table(table.pk))
        mover = (
            alice
            if move_path.seat_of(before.seats, alice) == table_engine(table).current_player(before.state)
            else bob
        )
        move = str(table_engine(table).legal_actions(before.state)[0])
        moved = move_path.play_at_table(table_id=table.pk, user=mover, move=move, expected_version=0)
        kept = snapshots.find(moved.record.pk, 1)
        assert kept is not None and [line.seq for line in kept.log] == [0]
        with CaptureQueriesContext(connection) as queries:
            table_frames.frame(kept, None)
            table_frames.frame(kept, alice)
        assert queries.captured_queries == []

    def test_a_snapshot_read_in_a_transaction_is_not_kept(self, alice: User) -> None:
        from django.db import transaction

        from games.core import snapshots

        table = build_table(TRIAD, {"players": 2, "hands": 2}, {0: alice}, 5, [])
        with transaction.atomic():  # what it read might yet be rolled back
            snapshots.of_table(snapshots.read_table(table.pk))
        assert snapshots.find(table.record_id, 0) is None
        snapshots.of_table(snapshots.read_table(table.pk))
        assert snapshots.find(table.record_id, 0) is not None
