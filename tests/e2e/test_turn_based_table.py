"""LP-8 in the browser: a turn-based table opened from the lobby's form ("1 day" among the
turn-based speeds), shown plainly in the lobby and at the table ("1 day per move", the time
left in words), and a page opened hours later that shows the table as it stands and takes
the move. Screenshots of the form, the lobby row and the table at 1366x900 and 390x844."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games.models import GameRecord, Table, Turn
from tests.e2e.test_daily_journey import sign_up
from tests.e2e.test_table_journey import take_turn
from tests.support import artifacts_dir

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SIZES = {"wide": (1366, 900), "phone": (390, 844)}


def shoot(page: Page, name: str) -> None:
    """The page at both sizes, each no wider than its viewport."""
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{name} is wider than {width}"
        page.screenshot(path=str(artifacts_dir() / f"turn-based-{name}-{size}.png"), full_page=True)


def test_a_one_day_table_from_the_form_to_a_move_made_hours_later(live_site: str, new_context: Any) -> None:
    anna = new_context().new_page()
    sign_up(anna, live_site, "anna")
    anna.goto(live_site + "/tables/")
    speed = anna.get_by_label("Speed")
    expect(speed).to_have_value("30")  # live, 30 s a turn, unless one chooses
    speed.select_option(label="1 day")
    shoot(anna, "form")
    anna.get_by_role("button", name="Open the table").click()
    expect(anna.get_by_test_id("table-speed")).to_have_text("1 day per move")
    table_url = anna.url

    ben = new_context().new_page()
    sign_up(ben, live_site, "ben")
    ben.goto(live_site + "/tables/")
    row = ben.get_by_test_id("open-table").first
    expect(row.get_by_test_id("table-speed")).to_have_text("1 day per move")
    shoot(ben, "lobby")
    row.click()
    ben.get_by_role("button", name="Sit here").first.click()
    expect(anna.get_by_test_id("seat-1")).to_contain_text("ben")
    anna.get_by_role("button", name="Start the game").click()
    expect(anna.get_by_test_id("time-left")).to_have_text("1 day left")

    # Hours pass with no page open: the one to act finds the table as it stands, and moves.
    table = Table.objects.get()
    turn = Turn.objects.get(game_id=table.record_id)
    later = timezone.now() + dt.timedelta(hours=3, minutes=10)
    GameRecord.objects.filter(pk=table.record_id).update(turn_deadline=later, clock_task_at=later)
    Turn.objects.filter(pk=turn.pk).update(deadline=later)
    mover = anna if turn.user.username == "anna" else ben
    mover.goto(live_site + "/")  # the page was closed; hours later it is opened again
    mover.goto(table_url)
    expect(mover.get_by_test_id("turn")).to_contain_text("Your turn")
    expect(mover.get_by_test_id("time-left")).to_have_text("3 h 10 min left")
    shoot(mover, "table")
    assert take_turn(mover)
    expect(mover.get_by_test_id("turn")).not_to_contain_text("Your turn")
    expect(mover.get_by_test_id("time-left")).to_have_text("1 day left")  # the other's fresh day
    assert Turn.objects.get(game_id=table.record_id).user_id != turn.user_id
