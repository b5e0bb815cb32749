"""Issue 45's journey: a person downloads their data from their profile form (the file read
and checked), then closes their account (a wrong password first: refused); their opponent's
replay of their game still plays and says "a closed account"; their name cannot be taken
again. Screenshots of the close-account page at desktop and phone sizes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import Table
from tests import support
from tests.accounts.test_closing import PASSWORD, person, rated_game
from tests.e2e.test_replay_journey import logged_in_context
from tests.e2e.test_tournament_journey import in_thread
from tests.support import SIZES, artifacts_dir

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def shoot(page: Page, name: str) -> None:
    support.shoot(page, f"closing-{name}")


def test_a_person_takes_their_data_and_leaves_and_their_games_stay(live_site: str, new_context: Any) -> None:
    leaver, rival = in_thread(person, "leaver_e2e"), in_thread(person, "rival_e2e")
    table: Table = in_thread(rated_game, leaver, rival)
    game_id = table.record_id

    page = logged_in_context(new_context, live_site, leaver).new_page()
    page.goto(live_site + "/accounts/profile/")
    with page.expect_download() as download_info:
        page.get_by_test_id("download-data").click()
    download = download_info.value
    assert download.suggested_filename == f"capstone-{leaver.pk}-data.json"
    data = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert (
        data["profile"]["username"] == "leaver_e2e" and data["profile"]["email"] == "leaver_e2e@example.com"
    )
    assert [game["id"] for game in data["games"]] == [game_id]
    assert sorted(data["games"][0]["file"]["players"]) == ["leaver_e2e", "rival_e2e"]
    assert [row["game"] for row in data["ratings"]] == ["triad"]

    page.get_by_test_id("close-account-link").click()
    expect(page.get_by_role("heading", name="Close your account")).to_be_visible()
    shoot(page, "page")
    page.get_by_label("Your password").fill("not-my-password")
    page.get_by_test_id("close-account").click()
    expect(page.get_by_text("That is not your password. Your account is still open.")).to_be_visible()
    shoot(page, "wrong-password")
    assert in_thread(lambda: User.objects.get(pk=leaver.pk).closed_at) is None
    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_test_id("close-account").click()
    expect(page.get_by_text("Your account is closed.")).to_be_visible()
    expect(page.get_by_test_id("signed-in-user")).to_have_count(0)
    assert in_thread(lambda: User.objects.get(pk=leaver.pk).closed_at) is not None

    theirs = logged_in_context(new_context, live_site, rival).new_page()
    theirs.goto(f"{live_site}/games/{game_id}/replay/")
    expect(theirs.get_by_test_id("step-count")).to_contain_text("Step 0 of")
    expect(theirs.locator("main")).to_contain_text("a closed account")
    for step in range(1, 5):
        theirs.keyboard.press("ArrowRight")
        expect(theirs.get_by_test_id("step-count")).to_contain_text(f"Step {step} of")
    assert "leaver_e2e" not in theirs.locator("main").inner_text()
    theirs.screenshot(path=str(artifacts_dir() / "closing-opponents-replay.png"), full_page=True)

    visitor = new_context(viewport=SIZES["phone"]).new_page()
    visitor.goto(live_site + "/accounts/signup/")
    visitor.get_by_label("Username").fill("Leaver_E2E")
    visitor.get_by_label("E-mail").fill("someone@example.com")
    visitor.get_by_label("Password", exact=True).fill("a-new-pass-1234")
    visitor.get_by_label("Password confirmation").fill("a-new-pass-1234")
    visitor.get_by_role("button", name="Sign up").click()
    expect(visitor.get_by_text("That username belonged to an account that was closed")).to_be_visible()
    assert in_thread(lambda: User.objects.filter(username__iexact="leaver_e2e").count()) == 1
