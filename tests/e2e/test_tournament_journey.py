"""A tournament in the browser: schedule it, enter it, start it, follow the bracket as the
matches end, and watch a match again from the bracket."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from playwright.sync_api import expect

from tests.e2e.test_replay_journey import logged_in_context
from tests.support import artifacts_dir
from tests.tournaments.support import play_out
from tournaments import services
from tournaments.models import MatchGame, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def in_thread(work: Any, *args: Any) -> Any:
    """Services announce with async_to_sync, which cannot run inside Playwright's event loop."""

    def run() -> Any:
        try:
            return work(*args)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def make_people() -> list[Any]:
    User = get_user_model()
    names = ("ivy", "jon", "kai")
    return [User.objects.create_user(name, f"{name}@example.com", "pw-long-enough-1") for name in names]


def enter(tournament_id: int, user: Any) -> None:
    services.join(tournament_id=tournament_id, user=user)


def play_next_match(tournament_id: int) -> int:
    """Play the next dealt game to its end (waiting for the worker to deal it); its game's id."""
    deadline = time.monotonic() + 30
    while (
        game := MatchGame.objects.filter(match__tournament_id=tournament_id, table__status="playing")
        .select_related("table")
        .order_by("pk")
        .first()
    ) is None:
        assert time.monotonic() < deadline, "the worker dealt no next game"
        time.sleep(0.1)
    return play_out(game.table).pk


def test_schedule_enter_start_follow_the_bracket_and_watch_a_match(live_site: str, new_context: Any) -> None:
    ivy, jon, kai = in_thread(make_people)
    host = logged_in_context(new_context, live_site, ivy).new_page()
    host.goto(live_site + "/tournaments/")
    host.get_by_label("Name", exact=True).fill("Browser cup")
    host.get_by_label("Size", exact=True).select_option(label="up to 4 players")
    host.get_by_label("Hands in the match (Triad)").fill("1")
    host.get_by_label("Bots fill the empty places at the start").check()
    host.screenshot(path=str(artifacts_dir() / "tournaments-list.png"), full_page=True)
    host.get_by_role("button", name="Schedule it").click()
    expect(host.get_by_role("heading", name="Browser cup")).to_be_visible()
    expect(host.get_by_test_id("tournament-status")).to_contain_text("Taking entries")
    tournament = Tournament.objects.get(name="Browser cup")

    guest = logged_in_context(new_context, live_site, jon).new_page()
    guest.goto(live_site + "/tournaments/")
    guest.get_by_test_id("tournament-row").filter(has_text="Browser cup").click()
    guest.get_by_role("button", name="Enter the tournament").click()
    expect(guest.get_by_role("button", name="Withdraw")).to_be_visible()
    in_thread(enter, tournament.pk, kai)
    # The host's page polls every 5 s (no reload): a poll may come just after the entry.
    expect(host.get_by_test_id("entrant")).to_have_count(3, timeout=15_000)
    host.screenshot(path=str(artifacts_dir() / "tournament-open.png"), full_page=True)

    host.get_by_role("button", name="Start now").click()
    expect(host.get_by_test_id("match")).to_have_count(3)  # 3 people and a bot: 4 places
    guest.get_by_test_id("my-match").click()  # jon's page learns his match is on, and he goes to it
    expect(guest.get_by_test_id("table-tournament")).to_have_text("Browser cup")
    first_game = in_thread(play_next_match, tournament.pk)
    # The worker records the result, then the host's next 5 s poll shows it (CI at e897183).
    expect(host.get_by_test_id("match-replay")).to_have_count(1, timeout=15_000)
    host.screenshot(path=str(artifacts_dir() / "tournament-bracket-running.png"), full_page=True)
    in_thread(play_next_match, tournament.pk)  # the other semi-final
    in_thread(play_next_match, tournament.pk)  # the final, dealt by the worker's result task
    expect(host.get_by_test_id("tournament-winner")).to_be_visible(timeout=30_000)
    expect(host.get_by_test_id("match-replay")).to_have_count(3)
    expect(host.get_by_test_id("place")).to_have_count(4)
    host.screenshot(path=str(artifacts_dir() / "tournament-finished.png"), full_page=True)
    expect(guest.get_by_test_id("back-to-tournament")).to_be_visible()  # his table's socket said it ended
    guest.screenshot(path=str(artifacts_dir() / "tournament-table-over.png"), full_page=True)

    viewer = new_context(viewport={"width": 1280, "height": 1000}).new_page()  # anyone with the link
    viewer.goto(f"{live_site}/tournaments/{tournament.pk}/")
    viewer.locator(f'[data-testid="match-replay"][href="/games/{first_game}/replay/"]').click()
    expect(viewer.get_by_test_id("replay-tournament")).to_have_text("Browser cup")
    viewer.get_by_role("link", name="First step").click()
    expect(viewer.get_by_test_id("step-count")).to_contain_text("Step 0 of")
    viewer.get_by_role("link", name="Next step").click()
    expect(viewer.get_by_test_id("step-count")).to_contain_text("Step 1 of")
    viewer.keyboard.press("ArrowRight")
    expect(viewer.get_by_test_id("step-count")).to_contain_text("Step 2 of")
    viewer.get_by_test_id("replay-tournament").click()
    expect(viewer.get_by_test_id("tournament-winner")).to_be_visible()
