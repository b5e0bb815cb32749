"""A new player wins today's daily deals in Chromium by clicking the cards, and is ranked.

The moves follow the solver's winning line, played through the page exactly as a
person would: a click on each card of a pair, a click on a King, the Draw button or the
stock, the Redeal button.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games.solitaire import services
from tests.support import artifacts_dir

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def sign_up(page: Page, base: str, name: str) -> None:
    page.goto(base + "/accounts/signup/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("E-mail").fill(f"{name}@example.com")
    page.get_by_label("Password", exact=True).fill("pyramid-of-hexes-55")
    page.get_by_label("Password confirmation").fill("pyramid-of-hexes-55")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_test_id("signed-in-user")).to_have_text(name)


def play_move(page: Page, game: str, move: str) -> None:
    board = page.locator("#game")
    if move == "draw":
        board.locator('[data-action="draw"]').click()
    elif move == "redeal":
        board.locator('[data-action="redeal"]').click()
    else:
        for card in move.split("+"):
            board.locator(f'button[data-card="{card}"]').click()


@pytest.mark.parametrize("game", ["pyramid", "tripeaks"])
def test_a_new_player_wins_the_daily_deal_and_sees_themself_ranked(
    live_site: str, new_context: Any, game: str
) -> None:
    daily = services.ensure_daily(game=game, date=timezone.now().date())
    page = new_context(viewport={"width": 1280, "height": 1000}).new_page()
    name = f"daily_{game}"
    sign_up(page, live_site, name)

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Daily").click()
    title = "Pyramid" if game == "pyramid" else "Tri-Peaks"
    page.get_by_role("button", name=f"Play today's {title} (ranked)").click()
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator(".badge", has_text="Ranked")).to_be_visible()
    expect(page.get_by_role("button", name="Undo")).to_have_count(0)  # no undo in a ranked attempt

    for number, move in enumerate(daily.solution, start=1):
        play_move(page, game, move)
        expect(page.get_by_test_id("moves")).to_have_text(str(number))
        if number == len(daily.solution) // 2:
            page.screenshot(path=str(artifacts_dir() / f"daily-{game}-midgame.png"), full_page=True)

    panel = page.get_by_test_id("end-panel")
    expect(panel).to_contain_text("You won!")
    page.screenshot(path=str(artifacts_dir() / f"daily-{game}-won.png"), full_page=True)

    page.goto(live_site + "/daily/")
    board = page.get_by_test_id(f"daily-{game}")
    row = board.locator("tr.is-me")
    expect(row).to_contain_text(name)
    expect(row).to_contain_text("Won")
    expect(row.locator("td").first).to_have_text("1")
    page.goto(live_site + f"/u/{name}/")
    expect(page.get_by_test_id("profile-streaks")).to_contain_text("1 day played")
