"""The chance-to-win meter in Chromium (issue 46): shown by its switch, drawn again after
each move, and on a wide screen and a phone nothing wider than the screen and no axe-core
violation."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_accessibility import axe_violations
from tests.e2e.test_solitaire_play import new_deal
from tests.support import SIZES, artifacts_dir

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
FIGURE = re.compile(r"^\d{1,3}%$")
READ = re.compile(r"/games/\d+/odds/$")
"""The meter's figure (the switch is ``/games/odds/``)."""


def test_the_meter_is_shown_and_follows_every_move(live_site: str, new_context: Any) -> None:
    page = new_context(viewport=SIZES["desktop"]).new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if READ.search(request.url) else None)
    new_deal(page, live_site, "tripeaks", 7)
    expect(page.get_by_test_id("odds-meter")).to_have_count(0)  # hidden until its player asks
    page.get_by_test_id("odds-switch").click()
    figure = page.get_by_test_id("odds-figure")
    expect(figure).to_have_text(FIGURE)
    expect(page.get_by_test_id("odds-switch")).to_have_text("Hide the chance to win")
    expect(page.locator("meter.odds-bar")).to_be_visible()
    assert len(asked) == 1

    for moves in ("1", "2"):
        page.locator('[data-action="draw"]').click()
        expect(page.get_by_test_id("moves")).to_have_text(moves)
        expect(figure).to_have_text(FIGURE)
    assert len(asked) == 3  # once more after each move
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert axe_violations(page) == [], (
            size
        )  # the page with its meter, as tests/e2e/test_accessibility.py checks pages
        page.screenshot(path=str(artifacts_dir() / f"odds-meter-{size}.png"), full_page=True)

    page.get_by_test_id("odds-switch").click()
    expect(page.get_by_test_id("odds-switch")).to_have_text("Show the chance to win")
    expect(page.get_by_test_id("odds-meter")).to_have_count(0)
