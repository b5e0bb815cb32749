"""Two people sit at a Triad table with a bot and play to a showdown; a third watches."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e.test_daily_journey import sign_up
from tests.support import artifacts_dir

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SHOWDOWN_TIMEOUT_S = 90


def take_turn(page: Page) -> bool:
    """If it is this page's turn, make the quiet move (check, call, stand pat, show)."""
    # The turn's line is there once the page has drawn its table (a busy machine may take
    # seconds), and gone for good once the game is over: the other page's move may end it.
    turn = page.get_by_test_id("turn")
    expect(turn.or_(page.get_by_test_id("table-result")).first).to_be_visible(timeout=10_000)
    if not any("Your turn" in text for text in turn.all_text_contents()):
        return False
    actions = page.get_by_test_id("actions")
    for name in ("Check", "Call", "Draw", "Show"):
        button = actions.get_by_role("button", name=re.compile(f"^{name}"))
        if button.count():
            try:
                button.first.click(timeout=3000)
            except PlaywrightTimeoutError:
                # The live page moved on between the look and the click (the turn clock, the
                # showdown, a tie replay took the button away): look again next time round;
                # the showdown deadline still bounds the whole game.
                return False
            return True
    return False


def hidden_cards_shown(page: Page, seat: int) -> list[str]:
    return page.locator(f'[data-testid="triad-seat-{seat}"] img[data-card]:not([data-card=""])').evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )


def test_two_people_and_a_bot_play_to_the_showdown_while_a_spectator_watches(
    live_site: str, new_context: Any, celery_worker: Any
) -> None:
    anna = new_context().new_page()
    sign_up(anna, live_site, "anna")
    anna.goto(live_site + "/tables/")
    anna.get_by_label("Seats (Triad)").select_option("3")
    anna.get_by_role("button", name="Open the table").click()
    expect(anna.locator("#table-live")).to_be_visible()
    table_url = anna.url

    ben = new_context().new_page()
    sign_up(ben, live_site, "ben")
    ben.goto(live_site + "/tables/")
    ben.get_by_test_id("open-table").first.click()
    ben.get_by_role("button", name="Sit here").first.click()
    expect(anna.get_by_test_id("seat-1")).to_contain_text("ben")  # anna's page hears it live

    anna.get_by_role("button", name="Add a bot").click()
    expect(ben.get_by_test_id("seat-2")).to_contain_text("Bot 3")
    anna.get_by_role("button", name="Start the game").click()
    # Each person sees their own hand (waiting for the deal to arrive), nobody else's.
    expect(anna.locator('[data-testid="triad-seat-0"] img[data-card]:not([data-card=""])')).to_have_count(6)
    expect(ben.locator('[data-testid="triad-seat-1"] img[data-card]:not([data-card=""])')).to_have_count(6)
    assert hidden_cards_shown(ben, 0) == [] and hidden_cards_shown(anna, 1) == []

    watcher = new_context().new_page()
    watcher.goto(table_url)
    expect(watcher.get_by_test_id("turn")).to_be_visible()
    expect(watcher.locator("text=You are watching")).to_be_visible()

    deadline = time.monotonic() + SHOWDOWN_TIMEOUT_S
    showdown = False
    while not showdown:
        assert time.monotonic() < deadline, "no showdown in time"
        for page in (anna, ben):
            take_turn(page)
        phase_betting = "Phase bet" in (watcher.locator(".triad-info").text_content() or "")
        if phase_betting:  # no hand is public while the betting goes on
            assert all(hidden_cards_shown(watcher, seat) == [] for seat in range(3))
        result = watcher.get_by_test_id("last-result")
        showdown = result.count() > 0 and ":" in (result.text_content() or "")
        time.sleep(0.2)

    expect(watcher.get_by_test_id("last-result")).to_contain_text("Pyramid")
    for page, name in ((anna, "anna"), (ben, "ben"), (watcher, "watcher")):
        page.screenshot(path=str(artifacts_dir() / f"table-{name}.png"), full_page=True)
