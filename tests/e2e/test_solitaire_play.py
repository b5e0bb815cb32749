"""Casual solitaire in Chromium: keyboard play, hints and undo, two tabs on one game."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def new_deal(page: Any, base: str, game: str, number: int) -> None:
    page.goto(f"{base}/play/{game}/?deal={number}")
    page.get_by_role("button", name="Deal").click()
    expect(page.locator("#game")).to_be_visible()
    page.wait_for_load_state("load")  # the page's script is in; keys before that do nothing


def test_keyboard_play_hint_and_undo(live_site: str, new_context: Any) -> None:
    page = new_context().new_page()
    new_deal(page, live_site, "pyramid", 42)
    page.keyboard.press("h")
    expect(page.get_by_test_id("hints")).to_have_text("1")
    expect(page.get_by_test_id("message")).to_contain_text("Hint:")
    expect(page.locator(".is-hinted").first).to_be_visible()

    page.keyboard.press("d")
    expect(page.get_by_test_id("moves")).to_have_text("1")
    page.keyboard.press("u")
    expect(page.get_by_test_id("undos")).to_have_text("1")
    expect(page.get_by_test_id("moves")).to_have_text("0")

    # Arrow keys walk the available cards; Enter picks; a pair that is not 13 is explained.
    page.keyboard.press("ArrowRight")
    first = page.evaluate("document.activeElement.dataset.card")
    page.keyboard.press("Enter")
    expect(page.locator("button.is-selected")).to_have_attribute("data-card", first)
    page.keyboard.press("Escape")
    expect(page.locator("button.is-selected")).to_have_count(0)

    page.locator("#move-input").fill("Qs+Qh")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("message")).to_have_class("game-message is-error")
    expect(page.get_by_test_id("moves")).to_have_text("0")


def test_a_second_tab_is_told_the_game_moved_on(live_site: str, new_context: Any) -> None:
    context = new_context()
    first = context.new_page()
    new_deal(first, live_site, "tripeaks", 7)
    second = context.new_page()
    second.goto(first.url)
    first.locator('[data-action="draw"]').click()
    expect(first.get_by_test_id("moves")).to_have_text("1")
    second.locator('[data-action="draw"]').click()  # this tab still shows the game before that draw
    expect(second.get_by_test_id("message")).to_contain_text("changed in another tab")
    expect(second.get_by_test_id("moves")).to_have_text("1")  # shown as it stands, nothing applied twice
