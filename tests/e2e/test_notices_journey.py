"""A player browsing the games while their tournament is about to start and then starts:
the reminder and the match-ready notice pop up as toasts on whatever page is open (on a
desktop and a phone at once), the title counts them, the header lists them, and the
toast's link takes the player to their table, where they play."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts import notices
from accounts.models import Notice
from accounts.tasks import remind_tournament_entrants
from games.models import Action, Seat
from tests.e2e.test_replay_journey import logged_in_context
from tests.e2e.test_table_journey import take_turn
from tests.e2e.test_tournament_journey import in_thread
from tests.games.test_table_servers import Daphne
from tests.support import artifacts_dir
from tests.tournaments.support import person
from tests.tournaments.test_services import schedule
from tournaments.models import MatchGame, Tournament
from tournaments.tasks import run_tournaments

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
READY = "Your match in Evening cup is ready: go to your table"


def shoot(page: Page, name: str) -> None:
    page.screenshot(path=str(artifacts_dir() / f"notices-{name}.png"))


def test_the_match_ready_toast_takes_a_player_browsing_the_games_to_their_table(
    live_site: str, new_context: Any
) -> None:
    ivy = in_thread(person, "ivy")
    tournament = in_thread(
        lambda: schedule(ivy, minutes=4, name="Evening cup", fill_with_bots=True, max_entrants=2)
    )
    desk = logged_in_context(new_context, live_site, ivy).new_page()
    phone = logged_in_context(new_context, live_site, ivy).new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    for page in (desk, phone):
        page.goto(live_site + "/play/")
        expect(page).to_have_title(re.compile(r"^Play"))
        expect(page.get_by_test_id("notices-count")).to_be_hidden()

    remind_tournament_entrants.delay()  # as beat would, five minutes before the start
    for page in (desk, phone):
        expect(page.get_by_test_id("notice-toast")).to_have_text(
            re.compile(r"Evening cup starts in \d minutes")
        )
        expect(page).to_have_title(re.compile(r"^\(1\) Play"))

    # The start time comes, and the worker's beat task starts it: the match is dealt. The
    # reminder's matter is done (it started): it reads itself, on every page, live.
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
    run_tournaments.delay()
    for page in (desk, phone):
        expect(page.get_by_test_id("notice-toast").filter(has_text=READY)).to_be_visible()
        expect(page).to_have_title(re.compile(r"^\(1\) Play"))
        expect(page.get_by_test_id("notices-count")).to_have_text("1")
    shoot(desk, "toast-desktop")
    shoot(phone, "toast-phone")

    for page in (desk, phone):
        page.get_by_test_id("notices-button").click()
        expect(page.get_by_test_id("notice")).to_have_count(1)
        expect(page.get_by_test_id("notice").first).to_have_text(re.compile(re.escape(READY)))
    shoot(desk, "list-desktop")
    shoot(phone, "list-phone")
    phone.keyboard.press("Escape")  # the list closes from the keyboard, focus back on its button
    expect(phone.get_by_test_id("notice").first).to_be_hidden()
    expect(phone.get_by_test_id("notices-button")).to_be_focused()

    desk.get_by_test_id("notice-toast").get_by_role("link", name=READY).click()
    game = MatchGame.objects.select_related("table").get(match__tournament=tournament)
    expect(desk).to_have_url(f"{live_site}/tables/{game.table_id}/")
    expect(desk.get_by_test_id("table-tournament")).to_have_text("Evening cup")
    # Followed, the notice is read, on this page and on the phone's.
    for page in (desk, phone):
        expect(page.get_by_test_id("notices-count")).to_be_hidden()
        expect(page).not_to_have_title(re.compile(r"^\("))

    seat = Seat.objects.get(table_id=game.table_id, user=ivy).number
    moved = Action.objects.filter(game_id=game.table.record_id, seat=seat, timed_out=False)
    deadline = time.monotonic() + 60
    # The bot may move between a look and a click (the click is then refused as stale): look again.
    while not moved.exists():
        assert time.monotonic() < deadline, "ivy made no move at her table"
        take_turn(desk)
        time.sleep(0.3)
    desk.screenshot(path=str(artifacts_dir() / "notices-table-after-move.png"), full_page=True)

    later = "You were given a bye in round 2 of Night cup"
    in_thread(
        lambda: notices.notify(
            user=ivy, kind=Notice.Kind.BYE, text=later, url="/tournaments/", key="bye:night"
        )
    )
    expect(phone.get_by_test_id("notice-toast").filter(has_text=later)).to_be_visible()
    phone.get_by_test_id("notices-button").click()  # the phone reads it: over its socket
    expect(phone.get_by_test_id("notice")).to_have_count(1)
    phone.evaluate("window.stayed = true")
    phone.get_by_role("button", name="Mark all read").click()
    expect(phone.get_by_test_id("notice")).to_have_count(0)
    expect(phone.get_by_text("Nothing new.")).to_be_visible()
    for page in (desk, phone):
        expect(page.get_by_test_id("notices-count")).to_be_hidden()
        expect(page).not_to_have_title(re.compile(r"^\("))
    assert phone.evaluate("window.stayed === true")  # no page load: the socket carried it

    phone.goto(live_site + "/accounts/profile/")  # no more reminder e-mails, please
    phone.get_by_label("E-mail me before a tournament I entered starts").uncheck()
    shoot(phone, "profile-phone")
    phone.get_by_role("button", name="Save").click()
    expect(phone.get_by_text("Your profile is saved.")).to_be_visible()
    ivy.refresh_from_db()
    assert ivy.reminder_emails is False


def test_a_page_whose_socket_dropped_reconnects_and_shows_what_it_missed(
    django_db_setup: None, new_context: Any
) -> None:
    server = Daphne("notices")
    server.start()
    try:
        ivy = in_thread(person, "ivy")
        page = logged_in_context(new_context, server.url, ivy).new_page()
        page.goto(server.url + "/play/")
        expect(page.get_by_test_id("notices-count")).to_be_hidden()
        server.stop()  # every socket drops; the page keeps trying, further apart each time
        in_thread(
            lambda: notices.notify(
                user=ivy,
                kind=Notice.Kind.BYE,
                text="You were given a bye in round 2 of Night cup",
                url="/tournaments/1/",
                key="bye:1",
            )
        )  # made while the page could not hear it
        server.start()
        expect(page.get_by_test_id("notice-toast")).to_contain_text(
            "You were given a bye in round 2 of Night cup", timeout=30_000
        )
        expect(page).to_have_title(re.compile(r"^\(1\) Play"))
        expect(page.get_by_test_id("notices-count")).to_have_text("1")
    finally:
        server.stop()
