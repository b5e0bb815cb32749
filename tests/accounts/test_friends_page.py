"""The friends page: the people one follows, online ones first, each with the live public
table they are at (a Watch link), and when the others were last seen."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts import follows, presence
from accounts.models import Follow, Presence, User
from games.models import Table

pytestmark = pytest.mark.django_db


def person(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", "pw-long-enough-1")


def table(owner: User, status: str) -> Table:
    return Table.objects.create(game="triad", config={"players": 2}, created_by=owner, status=status)


def at(user: User, table_id: int | None, seen_ago: dt.timedelta = dt.timedelta(seconds=20)) -> None:
    Presence.objects.create(
        channel_name=f"test.{user.username}.{table_id}",
        user=user,
        table_id=table_id,
        seen_at=timezone.now() - seen_ago,
    )


def friends_page(user: User, query: str = "") -> str:
    client = Client()
    client.force_login(user)
    response = client.get("/friends/" + query)
    assert response.status_code == 200
    return response.content.decode()


def listed(html: str) -> list[str]:
    return re.findall(r'<li data-testid="friend">\s*<a href="/u/([^/]+)/"', html)


def test_online_first_with_the_table_they_watch_or_play_at(client: Client) -> None:
    me = person("me")
    dee, eve, fay, gus, hal = (person(n) for n in ("dee", "eve", "fay", "gus", "hal"))
    for other in (dee, eve, fay, gus):
        follows.follow(follower=me, followed=other)
    follows.follow(follower=hal, followed=me)  # follows me; I do not follow him
    playing = table(dee, Table.Status.PLAYING)
    at(eve, playing.pk)
    at(fay, None)
    at(gus, None, seen_ago=presence.STALE + dt.timedelta(minutes=5))  # his process died
    User.objects.filter(pk=dee.pk).update(last_seen=timezone.now() - dt.timedelta(hours=3))

    html = friends_page(me)
    assert listed(html) == ["eve", "fay", "gus", "dee"]  # online, then the most recently seen
    assert "hal" not in listed(html)
    assert html.count('data-testid="friend-online"') == 2
    assert f'href="/tables/{playing.pk}/" data-testid="friend-watch"' in html
    assert "at a Triad table" in html
    assert "last seen 8\xa0minutes ago" in html and "last seen 3\xa0hours ago" in html
    assert "You follow 4 people." in html


def test_a_finished_waiting_or_missing_table_is_not_shown(client: Client) -> None:
    me, eve = person("me"), person("eve")
    follows.follow(follower=me, followed=eve)
    at(eve, table(eve, Table.Status.FINISHED).pk)
    at(eve, table(eve, Table.Status.OPEN).pk)
    at(eve, 987654321)  # forged in the socket's address: no such table
    html = friends_page(me)
    assert 'data-testid="friend-online"' in html
    assert "friend-watch" not in html and "/tables/" not in html.split('data-testid="friends"')[1]


def test_shown_table_is_the_one_rule_for_which_tables_are_shown() -> None:
    owner = person("owner")
    assert presence.shown_table(table(owner, Table.Status.PLAYING))
    assert not presence.shown_table(table(owner, Table.Status.FINISHED))
    assert not presence.shown_table(table(owner, Table.Status.OPEN))


def test_a_friend_at_a_private_table_is_online_but_the_table_is_not_named() -> None:
    """LP-9: a private table's link is not to be learnt from anyone's friends page."""
    me, eve = person("me"), person("eve")
    follows.follow(follower=me, followed=eve)
    private = table(eve, Table.Status.PLAYING)
    Table.objects.filter(pk=private.pk).update(private_key="k" * 43)
    at(eve, private.pk)
    html = friends_page(me)
    assert 'data-testid="friend-online"' in html
    assert "friend-watch" not in html and f"/tables/{private.pk}/" not in html


def test_a_newcomer_is_told_how_to_follow_someone_and_visitors_are_asked_to_log_in(client: Client) -> None:
    html = friends_page(person("new"))
    assert 'data-testid="friends-empty"' in html and "press Follow" in html
    response = client.get("/friends/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    assert client.post("/friends/").status_code in (302, 405)


def test_a_thousand_follows_come_a_page_at_a_time() -> None:
    me = person("me")
    many = User.objects.bulk_create(User(username=f"f{n:04}") for n in range(presence.FRIENDS_PER_PAGE + 3))
    follows_rows = [Follow(follower=me, followed=other) for other in many]
    Follow.objects.bulk_create(follows_rows)
    first = friends_page(me)
    assert len(listed(first)) == presence.FRIENDS_PER_PAGE and "Page 1 of 2" in first
    second = friends_page(me, "?page=2")
    assert len(listed(second)) == 3
    assert len(listed(friends_page(me, "?page=junk"))) == presence.FRIENDS_PER_PAGE


def test_the_page_costs_the_same_queries_for_many_friends_at_tables(
    django_assert_max_num_queries: Any,
) -> None:
    """A page of 50 friends, each at a table, took 7 queries (counted): none per friend."""
    me = person("me")
    many = User.objects.bulk_create(User(username=f"f{n:04}") for n in range(presence.FRIENDS_PER_PAGE))
    Follow.objects.bulk_create(Follow(follower=me, followed=other) for other in many)
    for other in many:
        at(other, table(other, Table.Status.PLAYING).pk)
    client = Client()
    client.force_login(me)
    with django_assert_max_num_queries(8):
        html = client.get("/friends/").content.decode()
    assert html.count('data-testid="friend-watch"') == presence.FRIENDS_PER_PAGE
