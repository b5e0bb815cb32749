"""Two people play a rated Triad match of one hand; the table shows each rating's change,
and both profiles show the rating moved (RT-1 .. RT-4)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.models import Table
from tests.e2e.test_daily_journey import sign_up
from tests.e2e.test_table_journey import take_turn
from tests.games.table_moments import build_table, play_until
from tests.support import artifacts_dir

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
GAME_TIMEOUT_S = 90


def test_a_rated_heads_up_game_moves_both_ratings_on_their_profiles(
    live_site: str, new_context: Any, celery_worker: Any
) -> None:
    anna = new_context().new_page()
    sign_up(anna, live_site, "anna")
    anna.goto(live_site + "/tables/")
    expect(anna.get_by_label("Rated")).to_be_checked()  # rated unless one says casual
    anna.get_by_label("Hands in the match (Triad)").fill("1")
    anna.get_by_role("button", name="Open the table").click()
    expect(anna.locator("#table-live")).to_be_visible()
    expect(anna.get_by_text("Rated ·", exact=False)).to_be_visible()

    ben = new_context().new_page()
    sign_up(ben, live_site, "ben")
    ben.goto(anna.url)
    ben.get_by_role("button", name="Sit here").first.click()
    expect(anna.get_by_test_id("seat-1")).to_contain_text("ben")
    anna.get_by_role("button", name="Start the game").click()

    deadline = time.monotonic() + GAME_TIMEOUT_S
    while "Game over" not in (anna.locator("#table-live").text_content() or ""):
        assert time.monotonic() < deadline, "the match did not end in time"
        for page in (anna, ben):
            take_turn(page)
        time.sleep(0.2)

    ratings = anna.get_by_test_id("ratings")
    expect(ratings).to_contain_text("anna")
    changes = ratings.locator(".gain, .loss").all_text_contents()
    assert len(changes) == 2 and {change[0] for change in changes} == {"+", "\N{MINUS SIGN}"}
    assert all(change.endswith(" rating") for change in changes)  # RT-5: what the result did
    anna.set_viewport_size({"width": 1366, "height": 900})
    anna.screenshot(path=str(artifacts_dir() / "rated-table-over.png"), full_page=True)
    ben.set_viewport_size({"width": 390, "height": 844})
    expect(ben.get_by_test_id("ratings")).to_contain_text(" rating")
    assert ben.evaluate("document.documentElement.scrollWidth") <= 390  # no page wider than the phone
    ben.screenshot(path=str(artifacts_dir() / "rated-table-over-phone.png"), full_page=True)
    for page, name in ((anna, "anna"), (ben, "ben")):
        page.goto(f"{live_site}/u/{name}/")
        card = page.get_by_test_id("rating-triad")
        expect(card.get_by_test_id("rating-games")).to_have_text("1")
        shown = card.get_by_test_id("rating-shown").text_content() or ""
        assert shown.endswith("?") and shown != "1500?"  # provisional, and moved
        expect(card.locator("svg")).to_be_visible()
        page.screenshot(path=str(artifacts_dir() / f"rated-profile-{name}.png"), full_page=True)


def test_a_rated_game_the_clocks_played_out_says_it_was_not_rated(live_site: str, new_context: Any) -> None:
    """RT-5: a rated table whose every move was the clock's (a rematch both walked away from)
    ends unrated, and its page says that everyone had left, on a wide screen and a phone."""
    alice = User.objects.create_user("alice", "alice@example.com", "pw-long-enough-1")
    bob = User.objects.create_user("bob", "bob@example.com", "pw-long-enough-1")
    config = {"players": 2, "hands": 1}
    actions = play_until("triad", config, 1, lambda *_: False)
    table = build_table("triad", config, {0: alice, 1: bob}, 1, actions, timed_out=range(len(actions)))
    Table.objects.filter(pk=table.pk).update(rated=True)
    for size, name in (({"width": 1366, "height": 900}, "wide"), ({"width": 390, "height": 844}, "phone")):
        page = new_context(viewport=size).new_page()
        page.goto(f"{live_site}/tables/{table.pk}/")
        expect(page.get_by_test_id("table-result")).to_be_visible()
        said = "Not rated: alice and bob had left, and the clocks played it out."
        expect(page.get_by_test_id("not-rated")).to_have_text(said)
        expect(page.get_by_test_id("ratings")).to_have_count(0)
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        page.screenshot(path=str(artifacts_dir() / f"unrated-table-over-{name}.png"), full_page=True)
