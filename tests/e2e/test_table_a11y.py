"""A live table in the browser, for people on phones and with screen readers (issue 20):
the acting player's buttons on screen at 390x844, focus kept across live updates, what
changed said in a polite live region, readable cards and controls with enough contrast."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.models import Table
from tests.e2e.test_daily_journey import sign_up
from tests.games.table_moments import build_table, find_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
TRIAD = "triad"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}

CONTRAST_JS = """el => {
  if (!el.isConnected) return -1;
  function rgb(text) { return text.match(/[\\d.]+/g).slice(0, 4).map(Number); }
  function lum(c) {
    const [r, g, b] = c.slice(0, 3).map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  let bg = null;
  for (let node = el; node && !bg; node = node.parentElement) {
    const c = rgb(getComputedStyle(node).backgroundColor);
    if (c.length < 4 || c[3] > 0.9) { if (!(c.length === 4 && c[3] === 0)) bg = c; }
  }
  const fg = rgb(getComputedStyle(el).color);
  const [a, b] = [lum(fg), lum(bg || [255, 255, 255])].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def contrast(locator: Any) -> float:
    """The text's contrast with what is behind it (WCAG), read again if a live update
    replaced the element while it was measured."""
    for _ in range(20):
        ratio = float(locator.evaluate(CONTRAST_JS))
        if ratio >= 0:
            return ratio
        time.sleep(0.1)
    raise AssertionError("the element never stayed on the page to be measured")


def widths(locator: Any) -> list[float]:
    """The drawn widths of the elements, read again while none is drawn yet: a live update can
    swap the part in as the page is measured (once, in CI, every width read 0)."""
    for _ in range(50):
        drawn = locator.evaluate_all("els => els.map(e => e.getBoundingClientRect().width)")
        if drawn and min(drawn) > 0:
            return [float(width) for width in drawn]
        time.sleep(0.1)
    return [float(width) for width in drawn]


def mid_hand(engine: Any, state: Any, actions: list[str]) -> bool:
    view = engine.view(state, None)
    return view.hand >= 2 and view.phase == "bet" and engine.current_player(state) == 0


def test_the_acting_players_actions_are_on_screen_and_cards_read_at_both_sizes(
    live_site: str, new_context: Any
) -> None:
    page = new_context().new_page()
    sign_up(page, live_site, "phoebe")
    phoebe = User.objects.get(username="phoebe")
    config = {"players": 4, "hands": 3}
    seed, actions = find_game(TRIAD, config, mid_hand)
    table = build_table(TRIAD, config, {0: phoebe}, seed, actions)
    for size, smallest in ((PHONE, 44), (DESKTOP, 60)):
        page.set_viewport_size(size)
        page.goto(live_site + table.get_absolute_url())
        expect(page.get_by_test_id("turn")).to_contain_text("Your turn")
        buttons = page.get_by_test_id("actions").get_by_role("button")
        assert buttons.count() >= 2
        for i in range(buttons.count()):
            # Wholly on screen, without scrolling (the page is at its top).
            expect(buttons.nth(i)).to_be_in_viewport(ratio=1)
        assert page.evaluate("window.scrollY") == 0
        cards = widths(page.locator('[data-testid="triad-seat-0"] img.hex'))
        assert cards and min(cards) >= smallest, cards
        captions = page.locator('[data-testid="triad-seat-0"] .hex-caption').all_text_contents()
        assert all(re.fullmatch(r"(Purple|Green|Orange) [123]|Capstone", c) for c in captions), captions
        minis = widths(page.locator('[data-testid="last-result"] img.hex'))
        assert minis and min(minis) >= 40, minis
        # The page never scrolls sideways.
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]


def test_focus_stays_on_a_control_and_changes_are_announced(live_site: str, new_context: Any) -> None:
    page = new_context().new_page()
    page.set_viewport_size(PHONE)
    sign_up(page, live_site, "quinn")
    page.goto(live_site + "/tables/")
    page.get_by_label("Seats (Triad)").select_option("3")
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#table-live")).to_be_visible()

    # The disabled start looks disabled; the seating's text controls read (WCAG AA 4.5:1).
    start = page.get_by_role("button", name="Start the game")
    expect(start).to_be_disabled()
    expect(start).to_have_css("cursor", "not-allowed")
    expect(start).not_to_have_css("background-color", "rgb(31, 111, 74)")  # not the felt of an enabled one
    assert contrast(page.get_by_role("button", name="Leave the table")) >= 4.5

    add = page.get_by_role("button", name="Add a bot in seat 2")
    add.focus()
    add.press("Enter")
    expect(page.get_by_test_id("seat-1")).to_contain_text("Bot 2")
    # Focus is on a control of the table (the same seat's "Remove bot"), not on <body>.
    expect(page.locator("#table-live [data-focus-key='seat-1']")).to_be_focused()
    assert page.evaluate("document.activeElement.tagName") == "BUTTON"
    assert contrast(page.get_by_role("button", name="Remove bot from seat 2")) >= 4.5
    announce = page.get_by_test_id("table-announce")
    expect(announce).to_contain_text("Bot 2 in seat 2")
    assert page.evaluate(
        "!document.getElementById('table-live').contains(document.getElementById('table-announce'))"
    )

    page.get_by_role("button", name="Add a bot in seat 3").click()
    expect(page.get_by_test_id("seat-2")).to_contain_text("Bot 3")
    page.get_by_role("button", name="Start the game").click()
    # When the turn comes round, focus moves to the action bar and the region says so.
    deadline = time.monotonic() + 30
    while "Your turn" not in (page.get_by_test_id("turn").text_content(timeout=15_000) or ""):
        assert time.monotonic() < deadline, "quinn's turn never came"
        page.wait_for_timeout(200)
    expect(page.locator("#action-bar button").first).to_be_focused()
    expect(announce).to_contain_text("Your turn.")
    expect(page.get_by_test_id("actions").get_by_role("button").first).to_be_in_viewport(ratio=1)


def test_a_finished_table_offers_a_rematch_and_the_lobby(live_site: str, new_context: Any) -> None:
    page = new_context().new_page()
    page.set_viewport_size(PHONE)
    sign_up(page, live_site, "rhea")
    rhea = User.objects.get(username="rhea")
    config = {"players": 3, "hands": 3}
    seed, actions = find_game(TRIAD, config, lambda e, s, a: e.current_player(s) is None)
    old = build_table(TRIAD, config, {0: rhea}, seed, actions)
    page.goto(live_site + old.get_absolute_url())
    expect(page.get_by_test_id("back-to-lobby")).to_have_attribute("href", "/tables/")
    page.get_by_role("button", name="Rematch").dblclick()  # two posts: one table
    expect(page.get_by_role("heading", name="Seats")).to_be_visible()
    assert page.url != live_site + old.get_absolute_url()
    expect(page.get_by_test_id("seat-0")).to_contain_text("rhea")
    expect(page.get_by_test_id("seat-1")).to_contain_text("Bot 2")
    expect(page.get_by_test_id("seat-2")).to_contain_text("Bot 3")
    assert Table.objects.exclude(pk=old.pk).count() == 1
