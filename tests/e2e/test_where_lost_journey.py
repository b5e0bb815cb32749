"""Where a solitaire game was lost, in Chromium (issue 46): the replay's panel asks until the
task has worked it out, then shows the chart, the turning point and a way to play on from
it; no axe-core violation, nothing wider than a phone."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from games.core.players import Player
from games.solitaire import analysis
from tests.e2e.test_accessibility import axe_violations
from tests.e2e.test_replay_journey import logged_in_context
from tests.e2e.test_tournament_journey import in_thread
from tests.games.test_daily_integrity import person
from tests.games.test_where_lost import thrown_away
from tests.support import SIZES, artifacts_dir

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_replay_shows_where_the_game_was_lost_once_worked_out(live_site: str, new_context: Any) -> None:
    owner = in_thread(person, "olga")
    record, _line = in_thread(lambda: thrown_away(Player(user=owner, token="o")))
    page = logged_in_context(new_context, live_site, owner).new_page()
    page.goto(f"{live_site}/games/{record.pk}/replay/")
    expect(page.get_by_test_id("where-lost-working")).to_be_visible()
    in_thread(analysis.work_out, record.pk)  # as the task does (its own test: tests/games)
    expect(page.get_by_test_id("where-lost-verdict")).to_contain_text("Winnable until move 4", timeout=15_000)
    expect(page.get_by_test_id("chance-chart")).to_be_visible()
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.get_by_test_id("where-lost").scroll_into_view_if_needed()
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert axe_violations(page) == [], size
        page.screenshot(path=str(artifacts_dir() / f"where-lost-{size}.png"), full_page=True)
    page.get_by_test_id("play-on-from-turning-point").click()
    expect(page.locator("#game")).to_be_visible()  # a new game from before the losing move
    assert page.url != f"{live_site}/games/{record.pk}/"
