"""The Content-Security-Policy in a real Chromium: the live pages work under it and break none
of its rules.

Every page is watched for violations two ways: the ``securitypolicyviolation`` events the
document fires (recorded by a script Playwright adds before the page's own, which the
policy does not govern) and Chromium's console messages. The last test checks that the
watch does see a violation when there is one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_daily_journey import sign_up
from tests.support import artifacts_dir, wait_for_first_frame

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push({directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample});
});
"""


class Watched:
    """A page whose policy violations, console errors and socket traffic are recorded."""

    def __init__(self, context: Any) -> None:
        context.add_init_script(RECORD_VIOLATIONS)
        self.page: Page = context.new_page()
        self.console: list[str] = []
        self.sockets: list[Any] = []
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.console.append(f"pageerror: {e}"))
        self.page.on("websocket", lambda ws: self.sockets.append(ws))

    def goto(self, url: str) -> None:
        response = self.page.goto(url)
        assert response is not None and response.ok, url
        # The policy is really there: otherwise "no violations" would prove nothing.
        assert "script-src 'self'" in response.headers["content-security-policy"]

    def violations(self) -> list[Any]:
        return self.page.evaluate("window.__violations")

    def csp_console(self) -> list[str]:
        return [line for line in self.console if "Content Security Policy" in line or "pageerror" in line]


def wait_until(page: Page, done: Callable[[], bool], timeout_s: float = 10) -> None:
    """Polls ``done`` while the page's events are delivered (a plain sleep would hold them)."""
    deadline = time.monotonic() + timeout_s
    while not done():
        assert time.monotonic() < deadline, "timed out"
        page.wait_for_timeout(100)


def assert_clean(watched: Watched) -> None:
    assert watched.violations() == [], watched.violations()
    assert watched.csp_console() == [], watched.csp_console()


def test_a_live_table_works_under_the_policy(live_site: str, new_context: Any) -> None:
    watched = Watched(new_context(viewport={"width": 1280, "height": 900}))
    page = watched.page
    sign_up(page, live_site, "cspanna")
    page.goto(live_site + "/tables/")
    page.get_by_label("Seats (Triad)").select_option("2")
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#table-live")).to_be_visible()
    watched.goto(page.url)  # again, to see the table page's own headers
    expect(page.locator("#table-live")).to_be_visible()

    # The table's socket (connect-src 'self' must let ws://this-host through) ...
    wait_until(page, lambda: any("/ws/tables/" in ws.url for ws in watched.sockets))
    sockets = [ws for ws in watched.sockets if "/ws/tables/" in ws.url]
    assert sockets[-1].url.startswith(live_site.replace("http", "ws"))
    # ... carries the table's news, and htmx swaps it in: the bot appears in its seat.
    wait_for_first_frame(page)
    page.get_by_role("button", name="Add a bot").click()
    expect(page.get_by_test_id("seat-1")).to_contain_text("Bot")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator('[data-testid="triad-seat-0"] img[data-card]:not([data-card=""])')).to_have_count(6)
    assert not sockets[-1].is_closed()

    page.screenshot(path=str(artifacts_dir() / "csp-table.png"), full_page=True)
    assert_clean(watched)


def test_a_solitaire_game_works_under_the_policy(live_site: str, new_context: Any) -> None:
    watched = Watched(new_context(viewport={"width": 1280, "height": 1000}))
    page = watched.page
    watched.goto(f"{live_site}/play/pyramid/?deal=42")
    page.get_by_role("button", name="Deal").click()
    expect(page.locator("#game")).to_be_visible()
    watched.goto(page.url)
    page.wait_for_load_state("load")

    # Each move is an htmx request whose answer replaces the board (style="..." attributes
    # included: they place the cards).
    page.locator('[data-action="draw"]').click()
    expect(page.get_by_test_id("moves")).to_have_text("1")
    page.keyboard.press("h")
    expect(page.get_by_test_id("hints")).to_have_text("1")
    # The style attributes were applied, not refused: they give the board its width and
    # each card its own place.
    assert page.locator(".tableau").evaluate("e => e.getBoundingClientRect().width") > 300
    lefts = page.locator(".tableau .cell").evaluate_all("els => els.map(e => getComputedStyle(e).left)")
    assert len(set(lefts)) >= 7, lefts

    page.screenshot(path=str(artifacts_dir() / "csp-solitaire.png"), full_page=True)
    assert_clean(watched)


def test_a_form_from_before_logging_in_again_gets_the_sites_page_under_the_policy(
    live_site: str, new_context: Any
) -> None:
    """Issue 41: the profile form, open in one tab while its person logs out and in again in
    another, is refused (its token is stale); Django's own page for that broke the policy
    with its inline <style>. The site's page says so, and its link reloads the form."""
    context = new_context(viewport={"width": 1366, "height": 900})
    watched = Watched(context)
    page = watched.page
    sign_up(page, live_site, "cspstale")
    watched.goto(live_site + "/accounts/profile/")

    other = context.new_page()
    other.goto(live_site + "/")
    other.get_by_role("button", name="Log out").click()
    other.goto(live_site + "/accounts/login/")
    other.get_by_label("Username").fill("cspstale")
    other.get_by_label("Password").fill("pyramid-of-hexes-55")
    other.get_by_role("button", name="Log in").click()
    expect(other.get_by_test_id("signed-in-user")).to_have_text("cspstale")

    page.get_by_label("Bio").fill("Sent from the old tab")
    with page.expect_navigation() as sent:
        page.get_by_role("button", name="Save").click()
    refused = sent.value
    assert refused.status == 403
    assert "style-src-elem 'self'" in refused.headers["content-security-policy"]
    expect(page.get_by_role("heading", name="That page was out of date")).to_be_visible()
    expect(page.get_by_text("nothing was changed")).to_be_visible()
    expect(page.get_by_test_id("signed-in-user")).to_have_text("cspstale")  # the site's own layout
    page.screenshot(path=str(artifacts_dir() / "csp-stale-form.png"), full_page=True)
    assert_clean(watched)

    page.get_by_role("link", name="Back to that page, reloaded").click()
    expect(page).to_have_url(live_site + "/accounts/profile/")
    page.get_by_label("Bio").fill("Sent again")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Your profile is saved.")).to_be_visible()
    expect(page.get_by_text("Sent again")).to_be_visible()
    assert_clean(watched)


def test_the_watch_sees_a_violation_when_there_is_one(live_site: str, new_context: Any) -> None:
    watched = Watched(new_context())
    watched.goto(live_site + "/")
    watched.page.evaluate(
        """() => {
            const script = document.createElement("script");
            script.textContent = "window.__ran = true";
            document.body.appendChild(script);
            const style = document.createElement("style");
            style.textContent = "body { color: red }";
            document.head.appendChild(style);
        }"""
    )
    wait_until(watched.page, lambda: len(watched.violations()) >= 2)
    assert {v["directive"] for v in watched.violations()} == {"script-src-elem", "style-src-elem"}
    assert watched.page.evaluate("window.__ran") is None
    assert watched.csp_console()
