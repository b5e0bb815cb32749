"""Alice follows Bob from his profile (the button swaps in place); Bob opens his live
table's page; Alice's friends page shows him online at that table, and its Watch link opens
the table. Screenshots of the profile and the friends page at desktop and phone sizes."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from accounts.models import Follow, Presence, User
from games.live import tables, turn_clocks
from games.models import Table
from tests import support
from tests.e2e.test_replay_journey import logged_in_context
from tests.e2e.test_tournament_journey import in_thread
from tests.tournaments.support import person

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PRESENCE_WAIT_S = 15


def bobs_table(bob: User) -> Table:
    """A Triad table Bob plays against a bot, with a turn clock that outlasts the test."""
    table = tables.create_table(
        game="triad", creator=bob, config={"players": 2}, clock_seconds=turn_clocks.LIVE_CLOCKS[1]
    )
    tables.add_bot(table_id=table.pk, user=bob)
    return tables.start(table_id=table.pk, user=bob)


def present_at(user: User, table_id: int) -> bool:
    return Presence.objects.filter(user=user, table_id=table_id).exists()


def shoot(page: Page, name: str) -> None:
    support.shoot(page, f"friends-{name}")


def test_alice_follows_bob_and_sees_him_online_at_his_table_then_watches(
    live_site: str, new_context: Any
) -> None:
    alice, bob = in_thread(person, "alice"), in_thread(person, "bob")
    table = in_thread(bobs_table, bob)

    her = logged_in_context(new_context, live_site, alice).new_page()
    her.goto(live_site + "/friends/")
    expect(her.get_by_test_id("friends-empty")).to_be_visible()
    her.goto(live_site + "/u/bob/")
    expect(her.get_by_test_id("followers-count")).to_have_text("Followers 0")
    her.get_by_test_id("follow-button").click()
    # htmx swapped the button alone: the same page, now saying Unfollow.
    expect(her.get_by_test_id("follow-button")).to_contain_text("Unfollow")
    expect(her.get_by_test_id("followers-count")).to_have_text("Followers 1")
    assert her.url == live_site + "/u/bob/"
    assert in_thread(lambda: Follow.objects.filter(follower=alice, followed=bob).count()) == 1
    shoot(her, "profile")

    his = logged_in_context(new_context, live_site, bob).new_page()
    his.goto(live_site + table.get_absolute_url())
    expect(his.locator("#table-live")).to_be_visible()
    deadline = time.monotonic() + PRESENCE_WAIT_S
    while not in_thread(present_at, bob, table.pk):  # his page's notice socket has said so
        assert time.monotonic() < deadline, "bob's table page did not report where he is"
        his.wait_for_timeout(100)

    her.get_by_test_id("friends-link").click()
    friend = her.get_by_test_id("friend")
    expect(friend).to_have_count(1)
    expect(friend).to_contain_text("bob")
    expect(friend.get_by_test_id("friend-online")).to_have_text("online")
    expect(friend).to_contain_text("at a Triad table")
    shoot(her, "page")
    friend.get_by_test_id("friend-watch").click()
    expect(her).to_have_url(live_site + table.get_absolute_url())
    expect(her.locator("#table-live")).to_be_visible()
    expect(her.locator("text=You are watching")).to_be_visible()
