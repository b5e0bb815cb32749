"""The end panel of a finished solitaire game in Chromium: a par match's deal leads on to the
match's next deal, the deal can be played again, and the finished game's replay is one click away."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import GameRecord, SoloMatch
from tests.e2e.test_daily_journey import play_move
from tests.games.test_where_lost import winnable_seed
from tests.support import artifacts_dir

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def resign(page: Page) -> None:
    page.wait_for_load_state("load")  # the page's script is in
    page.locator("#move-input").fill("resign")
    page.locator("#move-input").press("Enter")
    expect(page.get_by_test_id("end-panel")).to_be_visible()


def test_a_par_match_deal_leads_on_to_the_next_deal_its_replay_and_playing_it_again(
    live_site: str, new_context: Any
) -> None:
    width = 390  # a phone: where a longer end panel would overflow first
    page = new_context(viewport={"width": width, "height": 844}).new_page()
    page.goto(f"{live_site}/play/pyramid/match/")
    page.get_by_test_id("start-match").click()
    page.get_by_test_id("play-deal").click()
    resign(page)
    panel = page.get_by_test_id("end-panel")
    page.screenshot(path=str(artifacts_dir() / f"end-panel-match-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    match = SoloMatch.objects.get()
    first = GameRecord.objects.get(solo_match=match, seed=match.seeds[0])

    panel.get_by_role("button", name="Next deal (2 of 6)").click()
    second = GameRecord.objects.get(solo_match=match, seed=match.seeds[1])
    expect(page).to_have_url(f"{live_site}/games/{second.pk}/")
    expect(page.get_by_test_id("back-to-match")).to_have_text("a deal of your par match")

    page.goto(f"{live_site}/games/{first.pk}/")
    page.get_by_test_id("end-panel").get_by_role("link", name="Watch the replay").click()
    expect(page).to_have_url(f"{live_site}/games/{first.pk}/replay/")

    page.go_back()
    page.get_by_test_id("end-panel").get_by_role("button", name="Play this deal again").click()
    expect(page.locator(".deal-number")).to_have_text(f"#{match.seeds[0]}")
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    again = GameRecord.objects.latest("pk")
    assert again.seed == match.seeds[0] and again.solo_match is None and again.kind == GameRecord.Kind.CASUAL


def test_on_a_phone_the_move_that_wins_brings_the_result_into_sight(live_site: str, new_context: Any) -> None:
    """The result lies under the board, below a phone's screen: the winning tap scrolls to it
    (the board's last cards are at its top, where the page was)."""
    seed, line = winnable_seed()
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{live_site}/play/pyramid/?deal={seed}")
    page.locator("main form button[type=submit]").last.click()
    expect(page.locator("#game")).to_be_visible()
    page.wait_for_load_state("load")
    for number, move in enumerate(line, start=1):
        if number == len(line):
            page.evaluate("window.scrollTo(0, 0)")
        play_move(page, "pyramid", move)
        expect(page.get_by_test_id("moves")).to_have_text(str(number))
    expect(page.get_by_test_id("end-panel")).to_be_in_viewport(ratio=0.95)
