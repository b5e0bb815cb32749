"""LP-8, the issue's journey: two people in two browsers play a one-day Triad game over days
whose clock the test moves (nobody sleeps for a day). One moves at the table; the other, on
another page of the site, gets the notice at once and, once the turn has waited, the e-mail
digest; she opens the e-mail's link the next "day", finds the table as it stands and moves,
and the turn is back with him."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.core import mail
from django.test import override_settings
from django.utils import timezone
from playwright.sync_api import expect

from accounts import turn_digest
from accounts.models import User
from games.live import tables
from games.models import GameRecord, Table, Turn
from tests.accounts.turn_support import DAY, person
from tests.e2e.test_replay_journey import logged_in_context
from tests.e2e.test_table_journey import take_turn
from tests.e2e.test_tournament_journey import in_thread
from tests.support import artifacts_dir

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def one_day_table(alice: User, bob: User) -> Table:
    table = tables.create_table(game="triad", creator=alice, config={"players": 2}, clock_seconds=DAY)
    tables.sit(table_id=table.pk, user=bob)
    tables.start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    return table


def waiting_for(table: Table) -> int:
    return Turn.objects.get(game_id=table.record_id).user_id


def hours_pass(table: Table, hours: float) -> dt.datetime:
    """The clock moves on by ``hours``: the turn began that long ago, its deadline that much
    nearer; returns "now" as the site will see it. The game's row changes as LP-5 changes it
    (its clock task's time too), which tells the site's kept snapshot of the game to go."""
    turn = Turn.objects.get(game_id=table.record_id)
    gone = dt.timedelta(hours=hours)
    deadline = turn.deadline - gone
    Turn.objects.filter(pk=turn.pk).update(since=turn.since - gone, deadline=deadline)
    GameRecord.objects.filter(pk=table.record_id).update(turn_deadline=deadline, clock_task_at=deadline)
    return timezone.now()


def digest(site: str, now: dt.datetime) -> int:
    with override_settings(SITE_URL=site):
        return turn_digest.send(now)


def test_a_one_day_game_played_over_days_by_notice_and_e_mail(live_site: str, new_context: Any) -> None:
    alice, bob = in_thread(person, "alice"), in_thread(person, "bob")
    table = in_thread(one_day_table, alice, bob)
    first = alice if in_thread(waiting_for, table) == alice.pk else bob
    second = bob if first == alice else alice
    mover = logged_in_context(new_context, live_site, first).new_page()
    other = logged_in_context(new_context, live_site, second).new_page()
    mover.goto(live_site + table.get_absolute_url())
    other.goto(live_site + "/rules/")  # elsewhere on the site, her notices' socket open
    other.wait_for_function("document.querySelector('[data-notices]') !== null")
    expect(other.get_by_test_id("your-turn-link")).to_be_hidden()

    expect(mover.get_by_test_id("time-left")).to_have_text("1 day left")
    assert take_turn(mover)
    toast = other.get_by_test_id("notice-toast")
    expect(toast).to_contain_text(f"Your move against {first.username} in Triad")
    expect(other.get_by_test_id("your-turn-link")).to_have_text("Your turn (1)")
    assert in_thread(waiting_for, table) == second.pk

    mail.outbox.clear()
    assert in_thread(digest, live_site, in_thread(hours_pass, table, 0.05)) == 0  # 3 min: she may be moving
    assert in_thread(digest, live_site, in_thread(hours_pass, table, 1)) == 1
    (email,) = mail.outbox
    assert email.to == [second.email]
    assert "Triad against " + first.username in email.body
    link = re.search(rf"{re.escape(live_site)}/tables/\d+/", email.body)
    assert link is not None and link.group(0).endswith(table.get_absolute_url())
    assert in_thread(digest, live_site, timezone.now()) == 0  # one e-mail, however often the beat runs

    in_thread(hours_pass, table, 22)  # the next "day": about 55 minutes of her day are left
    other.close()
    her = logged_in_context(new_context, live_site, second).new_page()
    her.goto(link.group(0))
    expect(her.get_by_test_id("turn")).to_contain_text("Your turn")
    expect(her.get_by_test_id("time-left")).to_have_text(re.compile(r"^5\d min left$"))
    her.screenshot(path=str(artifacts_dir() / "turn-based-next-day.png"), full_page=True)
    assert take_turn(her)
    expect(her.get_by_test_id("time-left")).to_have_text("1 day left")  # his fresh day
    assert in_thread(waiting_for, table) == first.pk
    expect(mover.get_by_test_id("turn")).to_contain_text("Your turn")
