"""A person opens a Tauron Hold-Em table against the bot and plays until the shared cards
come out; a spectator sees the board but no hole card (TH-2, LP-3)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_daily_journey import sign_up
from tests.e2e.test_table_journey import take_turn
from tests.support import artifacts_dir, wait_for_first_frame

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
BOARD_TIMEOUT_S = 60
KNOWN = 'img[data-card]:not([data-card=""])'


def test_a_tauron_table_against_the_bot_turns_up_the_shared_cards(
    live_site: str, new_context: Any, celery_worker: Any
) -> None:
    anna = new_context().new_page()
    sign_up(anna, live_site, "anna")
    anna.goto(live_site + "/tables/")
    anna.screenshot(path=str(artifacts_dir() / "tables-lobby.png"), full_page=True)
    anna.get_by_label("Game", exact=True).select_option("tauron")
    anna.get_by_label("Seats (Tauron)").select_option("2")
    anna.get_by_role("button", name="Open the table").click()
    expect(anna.locator("#table-live")).to_be_visible()
    wait_for_first_frame(anna)
    anna.get_by_role("button", name="Add a bot").click()
    expect(anna.get_by_test_id("seat-1")).to_contain_text("Bot")
    anna.get_by_role("button", name="Start the game").click()
    expect(anna.locator(f'[data-testid="tauron-seat-0"] {KNOWN}')).to_have_count(2)
    expect(anna.locator(f'[data-testid="tauron-seat-1"] {KNOWN}')).to_have_count(0)

    watcher = new_context().new_page()
    watcher.goto(anna.url)
    expect(watcher.locator("text=You are watching")).to_be_visible()
    # Anna has not acted, so no hand has reached a showdown: no hole card is public.
    expect(watcher.locator(f'[data-testid^="tauron-seat-"] {KNOWN}')).to_have_count(0)

    deadline = time.monotonic() + BOARD_TIMEOUT_S
    while anna.locator(f'[data-testid="board"] {KNOWN}').count() < 3:
        assert time.monotonic() < deadline, "the first shared cards never came out"
        take_turn(anna)
        time.sleep(0.2)
    expect(watcher.locator(f'[data-testid="board"] {KNOWN}')).not_to_have_count(0)
    for page, name in ((anna, "anna"), (watcher, "watcher")):
        page.screenshot(path=str(artifacts_dir() / f"tauron-{name}.png"), full_page=True)
