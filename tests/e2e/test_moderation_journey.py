"""Issue 45 in browsers: a report lands in the admin's queue and staff mute the person
(reviewing the message in its room first), whose next message is refused; a person blocked
from one of their chat messages is no longer read there, and their invitation never arrives
while someone else's does. Screenshots at 1366x900 and 390x844 of the profile's Block and
Report, the report form, a message's Report or block, the list of people blocked, the queue,
a review and the mute's form."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from accounts.models import Block, StaffAction, User
from games.models import Invitation
from talk.models import Message, Mute, Report
from talk.mutes import muted_until
from tests import support
from tests.e2e.test_replay_journey import logged_in_context
from tests.e2e.test_tournament_journey import in_thread
from tests.tournaments.support import person
from tournaments.models import Entry, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
LIVE_MS = 15_000
"""What arrives over a socket may take this long on a loaded machine (2 cores, many servers)."""


def shoot(page: Page, name: str) -> None:
    support.shoot(page, f"moderation-{name}")


def tournament_chat(ann: User, bob: User) -> Message:
    """bob's rude line between two of ann's in a tournament's chat, bob an entrant (rows made
    directly: the chat's own pages are tested with the chat)."""
    cup = Tournament.objects.create(
        name="Talk Cup", game="triad", starts_at=dt.datetime.now(dt.UTC), created_by=ann
    )
    start = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5)
    made = [
        Message.objects.create(
            room=Message.Room.TOURNAMENT,
            tournament=cup,
            user=who,
            text=text,
            created_at=start + dt.timedelta(seconds=n),
        )
        for n, (who, text) in enumerate(((ann, "good luck"), (bob, "you play like a bot"), (ann, "be nice")))
    ]
    Entry.objects.create(tournament=cup, user=bob)
    return made[1]


def test_a_report_reaches_the_queue_and_staff_mute_the_person(live_site: str, new_context: Any) -> None:
    ann, bob = (in_thread(person, name) for name in ("ann", "bob"))
    staff = in_thread(lambda: User.objects.create_superuser("mod", "mod@example.com", "pw-long-enough-1"))
    rude = in_thread(tournament_chat, ann, bob)
    her = logged_in_context(new_context, live_site, ann).new_page()

    # ann reports bob from his profile, then his message from its own report link.
    her.goto(live_site + "/u/bob/")
    expect(her.get_by_test_id("block-button")).to_be_visible()
    shoot(her, "profile")
    her.get_by_test_id("report-person").click()
    her.get_by_label("Spam or advertising").check()
    shoot(her, "report-person")
    her.get_by_test_id("send-report").click()
    expect(her.get_by_text("Thank you: staff will look at your report.")).to_be_visible()
    her.goto(f"{live_site}/talk/messages/{rude.pk}/report/?next=/u/ann/")
    expect(her.get_by_test_id("reported-message")).to_contain_text("you play like a bot")
    her.get_by_label("Insults or harassment").check()
    her.get_by_label("Anything staff should know (optional)").fill("in the Talk Cup chat")
    shoot(her, "report-message")
    her.get_by_test_id("send-report").click()
    expect(her).to_have_url(live_site + "/u/ann/")
    assert in_thread(lambda: Report.objects.filter(reported=bob, status=Report.Status.OPEN).count()) == 2

    # Staff find both in the queue, oldest first, and review the message in its room.
    mod = logged_in_context(new_context, live_site, staff).new_page()
    mod.goto(live_site + "/admin/talk/report/")
    rows = mod.locator("#result_list tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("the person")
    expect(rows.nth(1)).to_contain_text("you play like a bot")
    shoot(mod, "queue")
    rows.nth(1).get_by_role("link", name="bob").click()
    context = mod.get_by_test_id("message-context")
    expect(context.locator("li")).to_have_count(3)
    expect(mod.get_by_test_id("reported-line")).to_contain_text("you play like a bot")
    shoot(mod, "review")
    mod.get_by_test_id("act-mute_people").click()
    mod.get_by_label("Reason (kept in the staff log)").fill("insults in the tournament chat")
    mod.get_by_label("For how long").select_option(label="One week")
    shoot(mod, "mute-form")
    mod.get_by_test_id("step-apply").click()
    expect(mod.get_by_text("1 person muted.")).to_be_visible()
    expect(mod.locator("#result_list tbody tr")).to_have_count(0)  # the queue is empty

    until = in_thread(muted_until, bob)
    assert until is not None and until - dt.datetime.now(dt.UTC) > dt.timedelta(days=6, hours=23)
    step = in_thread(lambda: StaffAction.objects.select_related("staff", "target").get())
    assert (step.staff.username, step.target.username, step.kind) == ("mod", "bob", StaffAction.Kind.MUTE)
    assert step.reason == "insults in the tournament chat"
    assert in_thread(lambda: Mute.objects.get().by_id) == staff.pk
    # bob's next message is refused, saying until when; nothing of it is kept.
    his = logged_in_context(new_context, live_site, bob).new_page()
    his.goto(f"{live_site}/tournaments/{rude.tournament_id}/")
    his.get_by_test_id("chat-input").fill("sorry everyone")
    his.get_by_test_id("chat-send").click()
    expect(his.get_by_test_id("chat-status")).to_contain_text(
        "You are muted from chat until", timeout=LIVE_MS
    )
    assert not in_thread(lambda: Message.objects.filter(text="sorry everyone").exists())
    # The log is there for staff, read only.
    mod.goto(live_site + "/admin/accounts/staffaction/")
    expect(mod.locator("#result_list")).to_contain_text("insults in the tournament chat")


def test_a_blocked_persons_invitation_never_arrives(live_site: str, new_context: Any) -> None:
    ann, bob, carol = (in_thread(person, name) for name in ("ann", "bob", "carol"))
    her, his, theirs = (
        logged_in_context(new_context, live_site, user).new_page() for user in (ann, bob, carol)
    )

    # ann blocks bob from his message in a chat: its flag, then Block, then back to the chat,
    # where his words are gone.
    rude = in_thread(tournament_chat, ann, bob)
    her.goto(f"{live_site}/tournaments/{rude.tournament_id}/")
    log = her.get_by_test_id("chat-log-tournament")
    log.get_by_test_id("chat-line").filter(has_text="you play like a bot").get_by_test_id(
        "chat-report"
    ).click()
    expect(her.get_by_test_id("block-from-message")).to_be_visible()
    shoot(her, "report-or-block")
    her.get_by_test_id("block-from-message").get_by_test_id("block-button").click()
    expect(her).to_have_url(f"{live_site}/tournaments/{rude.tournament_id}/")
    expect(her.get_by_text("You blocked bob")).to_be_visible()
    expect(log).to_contain_text("be nice")
    expect(log.get_by_text("you play like a bot")).to_have_count(0)
    her.goto(live_site + "/u/bob/")
    expect(her.get_by_test_id("unblock-button")).to_be_visible()
    her.goto(live_site + "/accounts/blocked/")
    expect(her.get_by_test_id("blocked-people")).to_contain_text("bob")
    shoot(her, "blocked-list")
    assert in_thread(lambda: Block.objects.filter(blocker=ann, blocked=bob).count()) == 1
    her.goto(live_site + "/play/")  # browsing elsewhere, her notice socket open

    # bob asks her to a table: refused as her choice would refuse it, the block never named.
    his.goto(live_site + "/tables/")
    his.get_by_label("Invite (optional)").fill("ann")
    his.get_by_role("button", name="Open the table").click()
    expect(his.locator("#table-live")).to_be_visible()
    expect(his.get_by_text("ann does not take invitations.")).to_be_visible()
    expect(his.get_by_text("block", exact=False)).to_have_count(0)
    his.goto(live_site + "/u/ann/")
    expect(his.get_by_test_id("follow-button")).to_be_visible()

    # carol's invitation arrives: once it has, bob's would have too, had it been sent.
    theirs.goto(live_site + "/tables/")
    theirs.get_by_label("Invite (optional)").fill("ann")
    theirs.get_by_role("button", name="Open the table").click()
    expect(theirs.get_by_text("Invitation sent to ann.")).to_be_visible()
    toast = her.get_by_test_id("notice-toast").filter(has_text="carol invites you")
    expect(toast).to_be_visible(timeout=LIVE_MS)
    her.get_by_test_id("notices-button").click()
    expect(her.get_by_test_id("notice").filter(has_text="carol invites you")).to_be_visible()
    expect(her.get_by_test_id("notice").filter(has_text="bob")).to_have_count(0)
    assert in_thread(lambda: list(Invitation.objects.values_list("from_user__username", flat=True))) == [
        "carol"
    ]
