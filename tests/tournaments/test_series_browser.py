"""TN-9 in the browser, on a 390 px phone: the countdown runs live under the strict CSP (a
static script), a row's series link leads to the series page, and nothing is wider than
the screen."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_tournament_journey import in_thread
from tests.support import artifacts_dir
from tests.tournaments.test_series import a_series
from tournaments import series as series_service

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def scheduled() -> int:
    series = a_series(opens_minutes=14)
    series_service.schedule_editions()
    return series.pk


def test_the_countdown_runs_and_the_series_page_fits_a_phone(live_site: str, new_context: Any) -> None:
    series_id = in_thread(scheduled)
    page = new_context(viewport=PHONE).new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(live_site + "/tournaments/")
    countdown = page.get_by_test_id("countdown").last  # 5 min or more ahead
    first = countdown.inner_text()
    assert re.fullmatch(r"starts in (\d+ min )?\d+ s", first), first
    expect(countdown).not_to_have_text(first, timeout=3_000)  # counted down by countdown.js
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(artifacts_dir() / "series-list-phone.png"), full_page=True)
    page.get_by_test_id("series-link").first.click()
    expect(page).to_have_url(f"{live_site}/tournaments/series/{series_id}/")
    expect(page.get_by_role("heading", name="Quick Triad")).to_be_visible()
    expect(page.get_by_test_id("countdown")).not_to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(artifacts_dir() / "series-page-phone.png"), full_page=True)
    assert errors == []  # no script refused by the CSP, none failing
