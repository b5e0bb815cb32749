"""Rated means rated (RT-2, RT-5): a table says "Rated" only when its result will move ratings,
a game that every person had left to the clocks is played out but not rated (one person who
leaves while another plays on loses by timeout, rated), and a rated game's table says what it
did to each person's rating."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Rating, RatingChange, User
from games.core import move_path
from games.core.snapshots import state_of
from games.engine import get_engine
from games.live import outages, tables
from games.models import GameRecord, SiteHeartbeat, Table
from tests.games.table_moments import frames_for

pytestmark = pytest.mark.django_db

ClockAfter = dict[str, int]
"""How many of each person's moves they make by hand before the clock plays the rest (LP-1)."""


def person(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", "pw-long-enough-1")


def lobby_list(client: Client) -> str:
    """The lobby's lists of tables, without its form (whose "Rated" box is always there)."""
    page = client.get("/tables/").content.decode()
    return page.split('id="lobby-tables"')[1].split("Open a table")[0]


def rated_heads_up(alice: User, bob: User) -> Table:
    table = tables.create_table(game="triad", creator=alice, config={"players": 2, "hands": 1}, rated=True)
    tables.sit(table_id=table.pk, user=bob)
    tables.start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    return table


def play_out(table: Table, by_hand: ClockAfter, prefer: tuple[str, ...] = ("bet", "raise")) -> GameRecord:
    """The game to its end: a person bets (or plays what ``prefer`` names) whenever they may
    while they still play by hand; after that their turns run out and ``tables.advance``
    makes the clock's move (LP-1, as the worker does), the deadline moved into the past
    rather than waited for."""
    record = table.record
    assert record is not None
    engine = get_engine(table.game)
    seats = {seat.number: seat.user for seat in table.seats.select_related("user")}
    made: Counter[str] = Counter()
    for component in (outages.WEB, outages.WORKER, outages.SITE):  # the site is up (LP-5)
        SiteHeartbeat.objects.update_or_create(component=component, defaults={"seen_at": timezone.now()})
    for _ in range(500):
        record.refresh_from_db()
        if record.is_over:
            return record
        state = state_of(record)
        seat = engine.current_player(state)
        user = seats.get(seat) if seat is not None else None
        if user is not None and made[user.username] < by_hand.get(user.username, 0):
            legal = engine.view(state, seat).legal
            move = next((m for m in legal if m.startswith(prefer)), legal[0])
            move_path.play_at_table(table_id=table.pk, user=user, move=move, expected_version=record.version)
            made[user.username] += 1
        else:
            past = timezone.now() - dt.timedelta(seconds=1)
            GameRecord.objects.filter(pk=record.pk).update(turn_deadline=past)
            assert tables.advance(game_id=record.pk, version=record.version)
    raise AssertionError("the game did not end")


def test_rt5_a_person_who_moved_and_then_left_loses_by_the_clock_and_is_rated() -> None:
    alice, bob = person("alice"), person("bob")
    table = rated_heads_up(alice, bob)
    record = play_out(table, {"alice": 99, "bob": 1})  # bob moves once, then leaves
    assert record.actions.filter(timed_out=True).exists()
    changes = {change.user.username: change.delta for change in record.rating_changes.select_related("user")}
    assert changes["alice"] > 0 > changes["bob"]
    assert Rating.objects.get(user=bob, game="triad").games == 1


def test_rt5_a_rematch_the_clock_played_out_after_both_left_is_not_rated(client: Client) -> None:
    """The issue's report: a rematch both had walked away from was rated (by 183)."""
    alice, bob = person("alice"), person("bob")
    first = rated_heads_up(alice, bob)
    play_out(first, {"alice": 99, "bob": 99})
    rematch = tables.rematch(table_id=first.pk, user=alice)
    tables.rematch(table_id=first.pk, user=bob)
    tables.start(table_id=rematch.pk, user=alice)
    rematch.refresh_from_db()
    record = play_out(rematch, {})
    by_hand = record.actions.filter(timed_out=False, seat__gte=0)  # a tie replay is the table's
    assert record.is_over and not by_hand.exists()
    assert not RatingChange.objects.filter(record=record).exists()
    assert Rating.objects.get(user=alice, game="triad").games == 1  # the first game's only
    frames = frames_for(rematch.pk, [alice, bob, None])
    for frame, _ in frames.values():
        assert "Not rated: alice and bob had left, and the clocks played it out." in frame
    page = client.get(f"/tables/{rematch.pk}/").content.decode()
    assert "Not rated: alice and bob had left, and the clocks played it out." in page
    assert 'data-testid="rating-mode">Casual<' in page


def test_rt5_a_person_who_never_came_loses_by_the_clock_to_one_who_played_on_rated() -> None:
    alice, bob = person("alice"), person("bob")
    table = rated_heads_up(alice, bob)
    record = play_out(table, {"alice": 99})
    assert not record.actions.filter(seat=seat_of(table, bob), timed_out=False).exists()
    changes = {change.user.username: change.delta for change in record.rating_changes.select_related("user")}
    assert changes["alice"] > 0 > changes["bob"]
    for frame, _ in frames_for(table.pk, [alice, None]).values():
        assert "Not rated" not in frame


def test_rt5_a_game_both_left_halfway_is_played_out_unrated_and_says_so() -> None:
    alice, bob = person("alice"), person("bob")
    table = rated_heads_up(alice, bob)
    record = play_out(table, {"alice": 1, "bob": 1}, prefer=("check",))  # each checks once, then is gone
    last_by_hand = record.actions.filter(timed_out=False).order_by("seq").last()
    assert last_by_hand is not None
    after = set(record.actions.filter(seq__gt=last_by_hand.seq).values_list("seat", "timed_out"))
    assert after == {(0, True), (1, True)}  # both clocks moved after the last move by hand
    assert not RatingChange.objects.filter(record=record).exists()
    assert not Rating.objects.exists()
    for frame, _ in frames_for(table.pk, [alice, bob, None]).values():
        assert "Not rated: alice and bob had left, and the clocks played it out." in frame
        assert " rating</span>" not in frame


def seat_of(table: Table, user: User) -> int:
    return table.seats.get(user=user).number


def test_rt5_a_rated_result_is_said_on_each_persons_frame_and_the_page() -> None:
    alice, bob = person("alice"), person("bob")
    table = rated_heads_up(alice, bob)
    record = play_out(table, {"alice": 99, "bob": 99})
    deltas = [change.delta for change in record.rating_changes.all()]
    assert len(deltas) == 2
    said = [f"+{delta} rating" if delta >= 0 else f"\N{MINUS SIGN}{-delta} rating" for delta in deltas]
    for frame, _ in frames_for(table.pk, [alice, bob, None]).values():
        assert all(words in frame for words in said)
        assert "Not rated" not in frame


def test_rt5_a_rated_table_with_a_bot_never_says_rated(client: Client) -> None:
    alice = person("alice")
    client.force_login(alice)
    table = tables.create_table(game="triad", creator=alice, config={"players": 2}, rated=True)
    assert 'data-testid="rating-mode">Rated<' in client.get(f"/tables/{table.pk}/").content.decode()
    assert "· rated" in lobby_list(client)  # its open seat is a person's to take
    tables.add_bot(table_id=table.pk, user=alice)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "Rated" not in page and "Casual" in page
    assert "rated" not in lobby_list(client)
    tables.start(table_id=table.pk, user=alice)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "Rated" not in page and "Casual" in page
