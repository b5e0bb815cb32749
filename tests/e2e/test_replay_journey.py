"""Watching a finished Triad match: from the profile, step by step, and by a shared link."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from playwright.sync_api import expect

from games.replays import table_odds
from tests.games.test_replays import table_game
from tests.support import SIZES, artifacts_dir

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def logged_in_context(new_context: Any, base: str, user: Any) -> Any:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    context = new_context(viewport={"width": 1280, "height": 1000})
    context.add_cookies([{"name": "sessionid", "value": session.session_key, "url": base}])
    return context


def play_a_match() -> tuple[Any, Any]:
    """Runs outside Playwright's event loop: the table services announce with async_to_sync."""
    try:
        nora = get_user_model().objects.create_user("nora", "nora@example.com", "pw-long-enough-1")
        return nora, table_game("triad", nora, players=2, hands=2)
    finally:
        connection.close()


def test_watch_a_finished_triad_match_from_the_profile(live_site: str, new_context: Any) -> None:
    with ThreadPoolExecutor(1) as pool:
        nora, table = pool.submit(play_a_match).result()
    assert table.record.is_over
    page = logged_in_context(new_context, live_site, nora).new_page()
    page.goto(f"{live_site}/u/nora/")
    page.get_by_test_id("profile-game").first.get_by_role("link", name="Watch").click()
    expect(page.get_by_test_id("step-count")).to_contain_text(f"of {table.record.action_count}")
    page.wait_for_load_state("load")

    page.get_by_role("link", name="First step").click()
    expect(page.get_by_test_id("step-count")).to_have_text(f"Step 0 of {table.record.action_count}")
    expect(page.get_by_test_id("step-words")).to_have_text("The deal.")
    page.get_by_role("link", name="Next step").click()
    expect(page.get_by_test_id("step-count")).to_contain_text("Step 1 of")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("step-count")).to_contain_text("Step 4 of")
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("step-count")).to_contain_text("Step 3 of")
    assert "step=3" in page.url  # the address keeps the moment
    words = page.get_by_test_id("step-words").text_content()
    page.screenshot(path=str(artifacts_dir() / "replay-triad-step3.png"), full_page=True)

    stranger = new_context(viewport={"width": 1280, "height": 1000}).new_page()
    stranger.goto(page.url)
    expect(stranger.get_by_test_id("step-count")).to_contain_text("Step 3 of")
    expect(stranger.get_by_test_id("step-words")).to_have_text(words)
    stranger.locator("[data-perspective]").select_option("1")
    expect(stranger.locator("[data-perspective]")).to_have_value("1")
    expect(stranger).to_have_url(re.compile(r"view=1"))  # the picker reloads the replay as that seat saw it
    stranger.screenshot(path=str(artifacts_dir() / "replay-triad-as-seat.png"), full_page=True)


def play_a_match_and_its_odds() -> Any:
    _nora, table = play_a_match()
    try:
        assert table_odds.work_out(table.record.pk) is not None
        return table.record
    finally:
        connection.close()


@pytest.mark.parametrize(("size", "viewport"), SIZES.items())
def test_a_finished_matchs_odds_show_as_bars_and_a_chart(
    live_site: str, new_context: Any, size: str, viewport: dict[str, int]
) -> None:
    """Issue 46: each seat's chance at the step, as a bar, and the hand's chart; stepping on
    moves the chart's marker. Both sizes are photographed and must fit their width."""
    with ThreadPoolExecutor(1) as pool:
        record = pool.submit(play_a_match_and_its_odds).result()
    page = new_context(viewport=viewport).new_page()
    page.goto(f"{live_site}/games/{record.pk}/replay/?step=2")
    bars = page.get_by_test_id("odds-bar")
    expect(bars).to_have_count(2)
    expect(bars.first.locator(".odds-figure")).to_have_text(re.compile(r"\d+%( ± \d)?|folded"))
    chart = page.get_by_test_id("odds-chart")
    expect(chart).to_be_visible()
    marker = chart.locator("line.now").get_attribute("x1")
    page.get_by_role("link", name="Next step").click()
    expect(page.get_by_test_id("step-count")).to_contain_text("Step 3 of")
    expect(chart.locator("line.now")).not_to_have_attribute("x1", marker or "")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.screenshot(path=str(artifacts_dir() / f"replay-odds-{size}.png"), full_page=True)
