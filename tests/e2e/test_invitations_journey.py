"""LP-9 in three browsers: alice opens a private Triad table inviting bob from the table form;
bob, browsing elsewhere, gets the notice live with Accept and Decline, accepts from the toast
and sits (alice sees him arrive). alice invites carol from the table's page; carol declines
from the header's list, and alice hears "declined" live and reads it on the table's page.
Screenshots at 1366x900 and 390x844 of the form, the toast, the list and the table's panel."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import Invitation, Table
from tests import support
from tests.e2e.test_replay_journey import logged_in_context
from tests.e2e.test_tournament_journey import in_thread
from tests.tournaments.support import person

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
LIVE_MS = 15_000
"""What arrives over a socket may take this long on a loaded machine (2 cores, many servers)."""


def shoot(page: Page, name: str) -> None:
    support.shoot(page, f"invitations-{name}")


def status_of(name: str) -> str:
    return str(Invitation.objects.get(to_user__username=name).status)


def test_alice_invites_bob_who_accepts_and_carol_who_declines(live_site: str, new_context: Any) -> None:
    alice, bob, carol = (in_thread(person, name) for name in ("alice", "bob", "carol"))
    people: list[User] = [alice, bob, carol]
    her, his, hers = (logged_in_context(new_context, live_site, user).new_page() for user in people)
    for page in (his, hers):  # browsing elsewhere, their notice sockets open
        page.goto(live_site + "/play/")

    her.goto(live_site + "/tables/")
    her.get_by_label("Seats (Triad)").select_option("3")
    her.get_by_label("Private table").check()
    her.get_by_label("Invite (optional)").fill("bob")
    shoot(her, "table-form")
    her.get_by_role("button", name="Open the table").click()
    expect(her.locator("#table-live")).to_be_visible()
    expect(her.get_by_text("Invitation sent to bob.")).to_be_visible()
    table = in_thread(lambda: Table.objects.get())
    assert table.private_key is not None and table.private_key not in her.url

    toast = his.get_by_test_id("notice-toast").filter(has_text="alice invites you to a private Triad table")
    expect(toast).to_be_visible(timeout=LIVE_MS)
    expect(toast.get_by_test_id("invitation-accept")).to_be_visible()
    expect(toast.get_by_test_id("invitation-decline")).to_be_visible()
    toast.hover()  # a toast stays while the pointer is over it
    shoot(his, "toast")
    toast.get_by_test_id("invitation-accept").click()
    expect(his).to_have_url(live_site + table.get_absolute_url())
    expect(his.get_by_test_id("seat-1")).to_contain_text("bob", timeout=LIVE_MS)
    expect(her.get_by_test_id("seat-1")).to_contain_text("bob", timeout=LIVE_MS)  # heard live
    assert in_thread(status_of, "bob") == Invitation.Status.ACCEPTED
    expect(her.get_by_test_id("notice-toast").filter(has_text="bob accepted your invitation")).to_be_visible(
        timeout=LIVE_MS
    )

    her.get_by_label("Invite by username").fill("carol")
    her.get_by_role("button", name="Invite", exact=True).click()
    expect(her.get_by_text("Invitation sent to carol.")).to_be_visible()
    hers.get_by_test_id("notices-button").click()
    notice = hers.get_by_test_id("notice").filter(has_text="alice invites you to a private Triad table")
    expect(notice).to_be_visible(timeout=LIVE_MS)
    shoot(hers, "notice-list")
    notice.get_by_test_id("invitation-decline").click()
    expect(hers.get_by_test_id("invitation-status")).to_have_text("declined")
    expect(hers.get_by_text("You declined the invitation.")).to_be_visible()
    assert in_thread(status_of, "carol") == Invitation.Status.DECLINED
    # Declined, the private table is not there for her.
    response = hers.goto(live_site + table.get_absolute_url())
    assert response is not None and response.status == 404

    answer = her.get_by_test_id("notice-toast").filter(has_text="carol declined your invitation")
    expect(answer).to_be_visible(timeout=LIVE_MS)
    her.reload()
    invited = her.get_by_test_id("table-invitation")
    expect(invited.filter(has_text="carol")).to_contain_text("declined")
    expect(invited.filter(has_text="bob")).to_contain_text("accepted")
    expect(her.get_by_test_id("seat-2")).to_contain_text(re.compile("Empty seat|Sit here"))
    shoot(her, "table-panel")

    # A bot takes the last seat and the game begins: the invite form leaves her page at once.
    support.wait_for_first_frame(her)
    her.get_by_test_id("seat-2").get_by_role("button").click()
    expect(her.get_by_test_id("seat-2")).to_contain_text("Bot")
    her.locator('button[data-focus-key="start"]').click()
    expect(her.get_by_test_id("invite-form")).to_have_count(0, timeout=LIVE_MS)
    expect(invited.filter(has_text="bob")).to_contain_text("accepted")  # what was sent stays
