"""LP-8's "your turn": the header's count, the page of games waiting for a person's move, and the
notice that a turn-based game reached them (accounts.waiting, accounts.turn_notices)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.utils import timezone

from accounts import waiting
from accounts.models import Notice, Presence, User
from games.core import move_path
from games.engine import get_engine
from games.live import tables
from games.models import Table, Turn
from tests.accounts.turn_support import game_waiting_for, person, play_one

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def waited(table: Table, *, since: dt.timedelta, left: dt.timedelta) -> None:
    """The turn at ``table`` reached its person ``since`` ago and has ``left`` to run."""
    now = timezone.now()
    Turn.objects.filter(table=table).update(since=now - since, deadline=now + left)


def rows(html: str) -> list[str]:
    return re.findall(r'data-testid="your-turn">(.*?)</li>', html, re.S)


def test_the_page_lists_my_waiting_games_oldest_first_and_nobody_elses() -> None:
    alice, bob, carol, dave = person("alice"), person("bob"), person("carol"), person("dave")
    newest = game_waiting_for(alice, bob)
    oldest = game_waiting_for(alice, carol, private=True)  # her own game: shown, private or not
    middle = game_waiting_for(alice, bob)
    not_hers = game_waiting_for(carol, dave)
    waited(newest, since=dt.timedelta(minutes=5), left=dt.timedelta(hours=23, minutes=55, seconds=30))
    waited(oldest, since=dt.timedelta(days=2), left=dt.timedelta(days=1, hours=4, minutes=30))
    waited(middle, since=dt.timedelta(hours=3), left=dt.timedelta(minutes=12, seconds=30))

    assert waiting.count(alice.pk) == 3
    assert waiting.count(carol.pk) == 1
    html = signed_in(alice).get("/turns/").content.decode()
    found = rows(html)
    assert [re.search(r'href="(/tables/\d+/)"', row)[1] for row in found] == [  # type: ignore[index]
        oldest.get_absolute_url(),
        middle.get_absolute_url(),
        newest.get_absolute_url(),
    ]
    assert not_hers.get_absolute_url() not in html
    assert 'href="/u/carol/"' in found[0] and "Triad" in found[0]
    assert "1 day per move; 1 day 4 h left" in found[0]
    assert re.search(r"1 day per move; 1[12] min left", found[1])  # whole minutes, never more than is left
    assert "1 day per move; 23 h 55 min left" in found[2]
    assert "3 turn-based games wait for your move" in html


def test_someone_with_no_waiting_game_is_told_how_to_start_one() -> None:
    alice, bob = person("alice"), person("bob")
    game_waiting_for(bob, alice)  # bob's turn, not hers
    response = signed_in(alice).get("/turns/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-testid="your-turns-empty"' in html and "No game is waiting for you." in html
    assert 'href="/tables/">Open a turn-based table' in html
    # The header says nothing of turns for her: the link is there, hidden, for the socket to show.
    assert re.search(r'data-testid="your-turn-link" hidden>Your turn \(<span data-your-turn-count>0<', html)


def test_a_visitor_is_sent_to_log_in() -> None:
    response = Client().get("/turns/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=/turns/")


def test_the_games_are_paged_oldest_first() -> None:
    alice, bob = person("alice"), person("bob")
    games = [game_waiting_for(alice, bob) for _ in range(3)]
    for hours, table in zip((3, 2, 1), games, strict=True):
        waited(table, since=dt.timedelta(hours=hours), left=dt.timedelta(hours=20))
    first, second = waiting.page(alice.pk, 1, per_page=2), waiting.page(alice.pk, 2, per_page=2)
    assert [w.url for w in first.games] == [games[0].get_absolute_url(), games[1].get_absolute_url()]
    assert [w.url for w in second.games] == [games[2].get_absolute_url()]
    assert waiting.page(alice.pk, "junk", per_page=2).page.number == 1
    assert waiting.PER_PAGE == 50


def test_the_header_counts_the_games_waiting() -> None:
    alice, bob = person("alice"), person("bob")
    game_waiting_for(alice, bob)
    game_waiting_for(alice, bob)
    html = signed_in(alice).get("/").content.decode()
    assert re.search(
        r'<a class="your-turn-link" href="/turns/" data-your-turn data-testid="your-turn-link">'
        r"Your turn \(<span data-your-turn-count>2</span>\)</a>",
        html,
    )
    assert 'data-testid="your-turn-link" hidden' in signed_in(bob).get("/").content.decode()


def test_a_turn_reaching_someone_tells_them_once_per_game_and_settles_when_it_passes() -> None:
    alice, bob = person("alice"), person("bob")
    table = game_waiting_for(alice, bob)
    mine = Notice.objects.get(user=alice)
    assert (mine.kind, mine.text, mine.url, mine.key, mine.read_at) == (
        Notice.Kind.YOUR_TURN,
        "Your move against bob in Triad",
        table.get_absolute_url(),
        f"your-turn:{table.record_id}",
        None,
    )
    play_one(table, alice)  # bob's turn: his notice, and hers is done
    mine.refresh_from_db()
    assert mine.read_at is not None
    assert Notice.objects.get(user=bob, kind=Notice.Kind.YOUR_TURN, read_at__isnull=True).text == (
        "Your move against alice in Triad"
    )
    play_one(table, bob)  # hers again: one notice for this game, unread, not a second one
    assert Notice.objects.filter(user=alice, kind=Notice.Kind.YOUR_TURN).count() == 1
    again = Notice.objects.get(user=alice, kind=Notice.Kind.YOUR_TURN)
    assert again.read_at is None and again.pk != mine.pk
    assert Notice.objects.filter(user=bob, kind=Notice.Kind.YOUR_TURN, read_at__isnull=True).count() == 0


def test_a_person_looking_at_the_table_gets_no_notice_of_their_turn() -> None:
    alice, bob = person("alice"), person("bob")
    table = game_waiting_for(alice, bob)
    Notice.objects.all().delete()
    Presence.objects.create(channel_name="alice.table", user=alice, table_id=table.pk)
    play_one(table, alice)
    play_one(table, bob)
    assert Turn.objects.get(table=table).user == alice
    assert not Notice.objects.filter(user=alice).exists()
    assert Notice.objects.filter(user=bob, kind=Notice.Kind.YOUR_TURN).exists()


def test_a_live_table_sends_no_turn_notice() -> None:
    alice, bob = person("alice"), person("bob")
    table = tables.create_table(game="triad", creator=bob, config={"players": 2}, clock_seconds=60)
    tables.sit(table_id=table.pk, user=alice)
    tables.start(table_id=table.pk, user=bob)
    table.refresh_from_db()
    for _ in range(3):
        now = move_path.table_now(table.pk)
        to_act = get_engine("triad").current_player(now.state)
        play_one(table, alice if move_path.seat_of(now.seats, alice) == to_act else bob)
    assert not Turn.objects.exists()
    assert not Notice.objects.filter(kind=Notice.Kind.YOUR_TURN).exists()
    assert waiting.count(alice.pk) == waiting.count(bob.pk) == 0
