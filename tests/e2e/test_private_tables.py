"""LP-9 in two browsers: alice opens a private Triad table and copies its link; bob cannot
find it in the lobby nor open its address, opens the link, sits, and the game starts."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests import support
from tests.e2e.test_daily_journey import sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
LIVE_MS = 15_000
"""What arrives over a socket may take this long on a loaded machine (2 cores, many servers)."""


def shoot(page: Page, name: str) -> None:
    support.shoot(page, f"private-table-{name}")


def test_a_private_table_is_reached_by_its_copied_link_only(
    live_site: str, new_context: Any, celery_worker: Any
) -> None:
    alice = new_context(permissions=["clipboard-read", "clipboard-write"]).new_page()
    sign_up(alice, live_site, "alice")
    alice.goto(live_site + "/tables/")
    alice.get_by_label("Seats (Triad)").select_option("2")
    alice.get_by_label("Private table").check()
    expect(alice.get_by_text("only people you send its link to can watch or sit")).to_be_visible()
    shoot(alice, "form")
    alice.get_by_role("button", name="Open the table").click()
    expect(alice.locator("#table-live")).to_be_visible()
    table_url = alice.url
    assert re.fullmatch(re.escape(live_site) + r"/tables/\d+/", table_url)

    field = alice.get_by_label("Link to this table")
    link = field.input_value()
    assert re.fullmatch(re.escape(live_site) + r"/tables/join/[A-Za-z0-9_-]{22,}/", link)
    copy, status = alice.get_by_role("button", name="Copy"), alice.get_by_test_id("private-link-status")
    for _ in range(10):  # on a busy machine the page's script may bind the button after it shows
        copy.click()
        try:
            expect(status).to_have_text("Copied", timeout=1000)
            break
        except AssertionError:
            continue
    expect(status).to_have_text("Copied")
    assert alice.evaluate("navigator.clipboard.readText()") == link
    shoot(alice, "page")

    bob = new_context().new_page()
    sign_up(bob, live_site, "bob")
    bob.goto(live_site + "/tables/")
    expect(bob.get_by_role("heading", name="Tables", exact=True)).to_be_visible()
    path = table_url.removeprefix(live_site)
    expect(bob.locator(f'a[href="{path}"]')).to_have_count(0)
    response = bob.goto(table_url)
    assert response is not None and response.status == 404
    expect(bob.get_by_test_id("not-found")).to_be_visible()

    bob.goto(link)
    assert bob.url == table_url  # the key left the address bar
    expect(bob.get_by_test_id("private-link")).to_have_count(0)  # watching: no link to pass on
    bob.get_by_role("button", name="Sit here").first.click()
    expect(alice.get_by_test_id("seat-1")).to_contain_text("bob", timeout=LIVE_MS)  # heard live
    bob.reload()  # the session remembers the link
    expect(bob.get_by_test_id("private-link")).to_be_visible()
    alice.get_by_role("button", name="Start the game").click()
    for page, seat in ((alice, 0), (bob, 1)):
        expect(
            page.locator(f'[data-testid="triad-seat-{seat}"] img[data-card]:not([data-card=""])')
        ).to_have_count(6, timeout=LIVE_MS)
    expect(bob.get_by_test_id("turn")).to_be_visible()
