"""A replay in Chromium (issue 20): it opens at the deal with the result hidden, Next and Play
work from there, the result shows once the last step is reached, and #step-N links work."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection
from playwright.sync_api import expect

from games import kinds
from games.models import GameRecord
from tests.games.test_replays import finished_solitaire, person

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
TRIPEAKS = kinds.SOLITAIRE[1].slug


def a_won_game() -> GameRecord:
    try:
        return finished_solitaire(TRIPEAKS, person("alice"), seed=7)
    finally:
        connection.close()


def test_a_replay_opens_at_the_deal_and_shows_the_result_only_at_the_end(
    live_site: str, new_context: Any
) -> None:
    with ThreadPoolExecutor(1) as pool:
        record = pool.submit(a_won_game).result()
    steps = record.action_count
    page = new_context(viewport={"width": 1366, "height": 900}).new_page()
    page.goto(f"{live_site}/games/{record.pk}/replay/")
    page.wait_for_load_state("load")
    expect(page.get_by_test_id("step-count")).to_have_text(f"Step 0 of {steps}")
    expect(page.get_by_test_id("step-words")).to_have_text("The deal.")
    result = page.locator(".standing", has_text="Result")
    expect(result).to_have_count(0)
    expect(page.get_by_text("game won")).to_have_count(0)
    expect(page.get_by_role("heading", name="Step by step")).to_be_attached()

    page.get_by_role("link", name="Next step").click()
    expect(page.get_by_test_id("step-count")).to_have_text(f"Step 1 of {steps}")
    # Slow (a step each 1.5 s): longer than Playwright's longest wait between two looks (1 s),
    # so no step the assertions wait for can pass unseen on a busy machine.
    page.get_by_label("Speed").select_option("1500")
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("button", name="Pause")).to_be_visible()
    expect(page.get_by_test_id("step-count")).to_have_text(f"Step 3 of {steps}")
    page.get_by_role("button", name="Pause").click()
    expect(result).to_have_count(0)

    page.get_by_role("link", name="Last step").click()
    expect(page.get_by_test_id("step-count")).to_have_text(f"Step {steps} of {steps}")
    expect(result).to_contain_text("Won")
    expect(page.get_by_test_id("step-words")).to_contain_text("game won")
    # Play at the end watches it again from the deal.
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_test_id("step-count")).to_have_text(f"Step 1 of {steps}")
    page.get_by_role("button", name="Pause").click()


def test_step_links_by_query_and_by_fragment(live_site: str, new_context: Any) -> None:
    with ThreadPoolExecutor(1) as pool:
        record = pool.submit(a_won_game).result()
    page = new_context().new_page()
    page.goto(f"{live_site}/games/{record.pk}/replay/?step=3")
    expect(page.get_by_test_id("step-count")).to_contain_text("Step 3 of")
    page.goto(f"{live_site}/games/{record.pk}/replay/#step-5")
    expect(page.get_by_test_id("step-count")).to_contain_text("Step 5 of")
    assert "step=5" in page.url
    page.get_by_role("link", name="Back one step").click()
    expect(page.get_by_test_id("step-count")).to_contain_text("Step 4 of")
    # By keyboard: the new step's controls keep the focus where it was, not on <body>.
    page.get_by_role("link", name="Next step").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("step-count")).to_contain_text("Step 5 of")
    expect(page.get_by_role("link", name="Next step")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("step-count")).to_contain_text("Step 6 of")
