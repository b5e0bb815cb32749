"""Table chat in browsers (issue 45, LP-10): two players chat and use a preset phrase; a
spectator's message is seen by spectators only until the game ends, then by the players too.
Screenshots of the table with its chat at 1366x900 and 390x844 (nothing wider than the phone)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from games.core import move_path
from games.core.snapshots import state_of
from games.engine import get_engine
from games.live import tables
from games.models import GameRecord, Table
from tests import support
from tests.e2e.test_replay_journey import logged_in_context
from tests.e2e.test_tournament_journey import in_thread
from tests.support import SIZES, artifacts_dir

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
LIVE_MS = 15_000
"""What arrives over a socket may take this long on a loaded machine (2 cores, many servers)."""


def shoot(page: Page, name: str) -> None:
    support.shoot(page, f"chat-{name}")


def deal() -> tuple[Table, Any, Any, Any]:
    """A two-seat Triad table of one hand (a fold ends it), dealt; and a spectator."""
    User = get_user_model()
    ann, ben, cat = (
        User.objects.create_user(n, f"{n}@example.com", "pw-long-enough-1") for n in ("ann", "ben", "cat")
    )
    table = tables.create_table(
        game="triad", creator=ann, config={"players": 2, "hands": 1}, clock_seconds=600
    )
    tables.sit(table_id=table.pk, user=ben)
    tables.start(table_id=table.pk, user=ann)
    table.refresh_from_db()
    return table, ann, ben, cat


def fold(table: Table, ann: Any, ben: Any) -> None:
    record = GameRecord.objects.get(pk=table.record_id)
    seat = get_engine("triad").current_player(state_of(record))
    move_path.play_at_table(
        table_id=table.pk, user=ann if seat == 0 else ben, move="fold", expected_version=record.version
    )


def say(page: Page, words: str) -> None:
    page.get_by_test_id("chat-input").fill(words)
    page.get_by_test_id("chat-send").click()


def test_players_chat_and_a_spectators_words_wait_for_the_end(
    live_site: str, new_context: Any, celery_worker: Any
) -> None:
    table, ann, ben, cat = in_thread(deal)
    url = f"{live_site}/tables/{table.pk}/"
    pages = {}
    for name, user in (("ann", ann), ("ben", ben), ("cat", cat)):
        page = logged_in_context(new_context, live_site, user).new_page()
        page.goto(url)
        expect(page.get_by_test_id("table-chat")).to_be_visible()
        pages[name] = page
    # No waiting for the sockets: what is said before one has joined its rooms comes to it on
    # joining (the page names the newest message it shows, games.live.consumers.chat_since).
    ann_page, ben_page, cat_page = pages["ann"], pages["ben"], pages["cat"]

    say(ann_page, "Good evening, <b>ben</b>")
    for page in pages.values():
        expect(page.get_by_test_id("chat-log-players")).to_contain_text(
            "Good evening, <b>ben</b>", timeout=LIVE_MS
        )
    expect(ann_page.get_by_test_id("chat-input")).to_have_value("")  # sent: the box is empty again
    ben_page.get_by_test_id("preset-gl").click()
    for page in pages.values():
        expect(page.get_by_test_id("chat-log-players")).to_contain_text("Good luck", timeout=LIVE_MS)

    # The spectator writes in the spectators' chat: spectators only while the game runs.
    expect(cat_page.get_by_text("Write in the Spectators' chat")).to_be_visible()
    say(cat_page, "ben holds a pair")
    expect(cat_page.get_by_test_id("chat-log-spectators")).to_contain_text(
        "ben holds a pair", timeout=LIVE_MS
    )
    expect(ann_page.get_by_test_id("chat-log-spectators")).to_have_count(0)
    ben_page.get_by_test_id("preset-gg").click()  # a later message has arrived: the earlier did not
    expect(ann_page.get_by_test_id("chat-log-players")).to_contain_text("Good game", timeout=LIVE_MS)
    for page in (ann_page, ben_page):
        expect(page.get_by_text("ben holds a pair")).to_have_count(0)
    shoot(ann_page, "player")
    shoot(cat_page, "spectator")

    in_thread(fold, table, ann, ben)
    for page in (ann_page, ben_page):
        expect(page.get_by_test_id("table-result")).to_be_visible(timeout=LIVE_MS)
        expect(page.get_by_test_id("chat-log-spectators")).to_contain_text(
            "ben holds a pair", timeout=LIVE_MS
        )
    say(cat_page, "well played")
    expect(ann_page.get_by_test_id("chat-log-spectators")).to_contain_text("well played", timeout=LIVE_MS)
    shoot(ann_page, "after-the-game")

    # The finished game's chat, both rooms, beside its replay.
    ann_page.goto(f"{live_site}/games/{table.record_id}/replay/")
    expect(ann_page.get_by_test_id("replay-chat")).to_contain_text("ben holds a pair")
    expect(ann_page.get_by_test_id("replay-chat")).to_contain_text("Good evening")
    replay, said = ann_page.locator("#replay"), ann_page.get_by_test_id("replay-chat")
    for size, viewport in SIZES.items():
        ann_page.set_viewport_size(viewport)
        moves, words = replay.bounding_box(), said.bounding_box()
        assert moves is not None and words is not None
        if size == "desktop":  # side by side, tops level
            assert words["x"] >= moves["x"] + moves["width"] and abs(words["y"] - moves["y"]) < 40
        else:  # one above the other, nothing wider than the phone
            assert words["y"] >= moves["y"] + moves["height"]
            assert ann_page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        ann_page.screenshot(path=str(artifacts_dir() / f"chat-replay-{size}.png"), full_page=True)


def entered_cup() -> tuple[Any, Any, Any]:
    """A Triad tournament tomorrow, with two entrants."""
    from django.utils import timezone

    from tournaments.models import Entry, Tournament

    User = get_user_model()
    ann, ben = (User.objects.create_user(n, f"{n}@example.com", "pw-long-enough-1") for n in ("ann", "ben"))
    cup = Tournament.objects.create(
        name="Sunday Cup", game="triad", created_by=ann, starts_at=timezone.now() + dt.timedelta(days=1)
    )
    for entrant in (ann, ben):
        Entry.objects.create(tournament=cup, user=entrant)
    return cup, ann, ben


def test_tournament_chat_its_entrants_write_and_anyone_reads_as_it_is_said(
    live_site: str, new_context: Any
) -> None:
    cup, ann, ben = in_thread(entered_cup)
    url = f"{live_site}/tournaments/{cup.pk}/"
    ann_page = logged_in_context(new_context, live_site, ann).new_page()
    ben_page = logged_in_context(new_context, live_site, ben).new_page()
    visitor = new_context().new_page()
    for page in (ann_page, ben_page, visitor):
        page.goto(url)
        expect(page.get_by_test_id("tournament-chat")).to_be_visible()
    expect(visitor.get_by_test_id("chat-form")).to_have_count(0)  # reads, may not write
    expect(visitor.get_by_test_id("tournament-chat")).to_contain_text("enter the tournament to chat")

    say(ann_page, "See you at the tables <i>tomorrow</i>")
    expect(ann_page.get_by_test_id("chat-log-tournament")).to_contain_text("<i>tomorrow</i>")
    expect(ann_page.get_by_test_id("chat-input")).to_have_value("")
    for page in (ben_page, visitor):  # no reload: the log is read again every few seconds
        expect(page.get_by_test_id("chat-log-tournament")).to_contain_text("<i>tomorrow</i>", timeout=LIVE_MS)
    ben_page.get_by_test_id("preset-gl").click()
    for page in (ann_page, visitor):
        expect(page.get_by_test_id("chat-log-tournament")).to_contain_text("Good luck", timeout=LIVE_MS)
    for size, viewport in SIZES.items():
        for name, page in (("entrant", ben_page), ("visitor", visitor)):
            page.set_viewport_size(viewport)
            page.get_by_test_id("tournament-chat").scroll_into_view_if_needed()
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            page.screenshot(path=str(artifacts_dir() / f"chat-tournament-{name}-{size}.png"), full_page=True)
