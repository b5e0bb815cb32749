"""Closing an account (issue 45): only with the person's password and the form's CSRF token;
their own data erased, every session ended, the name retired; their games kept for the other
players and shown as "a closed account"; their ratings off every board and count."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts import closing
from accounts.models import (
    PROVISIONAL_GAMES,
    Block,
    Follow,
    Notice,
    Presence,
    Rating,
    RatingChange,
    StaffAction,
    User,
)
from games.live import invitations, tables
from games.models import DailyStanding, GameRecord, Invitation, Table
from games.solitaire import services
from games.stats.selectors import daily_leaderboard
from talk.models import Message
from tests.accounts.test_ratings import play_out
from tests.games.test_daily_integrity import ranked_attempt

pytestmark = pytest.mark.django_db

PASSWORD = "pw-long-enough-1"


def person(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", PASSWORD)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def rated_game(left: User, right: User) -> Table:
    """A finished rated Triad game of the two, at ``left``'s table."""
    table = tables.create_table(game="triad", creator=left, config={"hands": 1}, rated=True)
    tables.sit(table_id=table.pk, user=right)
    tables.start(table_id=table.pk, user=left)
    table.refresh_from_db()
    play_out(table)
    table.refresh_from_db()
    return table


Run = Callable[[Callable[[], Any]], Any]


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Run:
    """Runs ``work`` and what it left for the commit (each process's closed names)."""

    def run(work: Callable[[], Any]) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return work()

    return run


def test_the_page_asks_for_the_password_and_a_wrong_one_changes_nothing() -> None:
    leaver = person("leaver45a")
    client = signed_in(leaver)
    page = client.get("/accounts/close/")
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    body = page.content.decode()
    assert 'type="password"' in body and "csrfmiddlewaretoken" in body and "Download your data" in body

    refused = client.post("/accounts/close/", {"password": "not-my-password"})
    assert refused.status_code == 200
    assert "That is not your password. Your account is still open." in refused.content.decode()
    leaver.refresh_from_db()
    assert leaver.is_active and leaver.closed_at is None and leaver.email == "leaver45a@example.com"
    assert client.get("/accounts/profile/").status_code == 200  # still signed in
    assert client.post("/accounts/close/", {}).status_code == 200  # no password: the same
    assert User.objects.get(pk=leaver.pk).closed_at is None


def test_a_form_without_its_csrf_token_is_refused() -> None:
    leaver = person("leaver45b")
    client = Client(enforce_csrf_checks=True)
    client.force_login(leaver)
    assert client.post("/accounts/close/", {"password": PASSWORD}).status_code == 403
    assert User.objects.get(pk=leaver.pk).closed_at is None


def test_a_visitor_is_sent_to_log_in() -> None:
    response = Client().post("/accounts/close/", {"password": PASSWORD})
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    assert Client().get("/accounts/data/").status_code == 302


def test_closing_ends_every_session_of_the_person(committed: Run) -> None:
    leaver = person("leaver45c")
    laptop, phone = signed_in(leaver), signed_in(leaver)
    response = committed(lambda: laptop.post("/accounts/close/", {"password": PASSWORD}))
    assert response.status_code == 302 and response.url == "/"
    assert "Your account is closed." in laptop.get("/").content.decode()
    for client in (laptop, phone):
        again = client.get("/accounts/profile/")
        assert again.status_code == 302 and again.url.startswith("/accounts/login/")
    login = Client().post("/accounts/login/", {"username": "leaver45c", "password": PASSWORD})
    assert (
        login.status_code == 200 and "Please enter a correct username and password" in login.content.decode()
    )


def test_the_persons_own_data_is_erased_and_their_games_kept(committed: Run) -> None:
    leaver, rival, fan, idol = person("leaver45d"), person("rival45d"), person("fan45d"), person("idol45d")
    leaver.bio, leaver.first_name, leaver.last_name = "I play at night", "Lee", "Ver"
    leaver.save()
    table = rated_game(leaver, rival)
    Message.objects.create(room=Message.Room.PLAYERS, table=table, user=leaver, text="my secret plan")
    Message.objects.create(room=Message.Room.PLAYERS, table=table, user=rival, text="good game")
    Follow.objects.create(follower=fan, followed=leaver)
    Follow.objects.create(follower=leaver, followed=idol)
    Follow.objects.create(follower=fan, followed=idol)
    Block.objects.create(blocker=leaver, blocked=fan)
    Block.objects.create(blocker=idol, blocked=leaver)
    Notice.objects.create(user=leaver, kind=Notice.Kind.RESULTS, text="You won", key="k1")
    Presence.objects.create(channel_name="x.leaver", user=leaver)
    DailyStanding.objects.create(
        user=leaver, played=3, won=1, best=2, latest_run=1, last_day=dt.date(2026, 1, 1)
    )
    open_table = tables.create_table(game="triad", creator=rival, config={"hands": 1})
    to_leaver = invitations.invite(inviter=rival, table_id=open_table.pk, invitee=leaver)
    own_table = tables.create_table(game="triad", creator=leaver, config={"hands": 1})
    from_leaver = invitations.invite(inviter=leaver, table_id=own_table.pk, invitee=fan)
    assert Notice.objects.filter(user=fan, read_at__isnull=True).exists()
    daily = services.ensure_daily(game="pyramid", date=dt.date(2026, 11, 2))
    attempts = [ranked_attempt(daily, someone) for someone in (leaver, rival)]
    GameRecord.objects.filter(pk__in=[a.pk for a in attempts]).update(status=GameRecord.Status.FINISHED)
    assert {row.record.owner for row in daily_leaderboard(daily)} == {leaver, rival}
    games = GameRecord.objects.count()

    assert committed(lambda: closing.close_account(leaver)) is True

    leaver.refresh_from_db()
    assert not leaver.is_active and leaver.closed_at is not None and not leaver.has_usable_password()
    assert (leaver.email, leaver.bio, leaver.first_name, leaver.last_name) == ("", "", "", "")
    assert leaver.username == "leaver45d"  # retired, not freed
    assert list(Message.objects.filter(user=leaver).values_list("text", flat=True)) == [""]
    assert Message.objects.get(user=rival).text == "good game"
    assert list(Follow.objects.values_list("follower__username", "followed__username")) == [
        ("fan45d", "idol45d")
    ]
    assert not Block.objects.exists()
    assert (
        not Notice.objects.filter(user=leaver).exists() and not Presence.objects.filter(user=leaver).exists()
    )
    assert not Rating.objects.filter(user=leaver).exists()
    assert not DailyStanding.objects.filter(user=leaver).exists()
    assert [row.record.owner for row in daily_leaderboard(daily)] == [rival]  # off the boards
    assert Invitation.objects.get(pk=to_leaver.pk).status == Invitation.Status.DECLINED
    assert Invitation.objects.get(pk=from_leaver.pk).status == Invitation.Status.CANCELLED
    assert not Notice.objects.filter(user=fan, read_at__isnull=True).exists()  # the invitation's
    # The games stay, with their rating changes: the other players' history.
    assert GameRecord.objects.count() == games
    assert RatingChange.objects.filter(user=leaver).count() == 1
    assert Rating.objects.filter(user=rival).exists()
    assert not StaffAction.objects.exists()
    # Done once: a second closing changes nothing.
    assert closing.close_account(leaver) is False


def test_staff_closing_an_account_is_logged_with_who_and_why(committed: Run) -> None:
    leaver, staff = person("leaver45e"), person("staff45e")
    staff.is_staff = True
    staff.save()
    committed(lambda: closing.close_account(leaver, by=staff, reason="spam in every chat"))
    action = StaffAction.objects.get()
    assert (action.staff, action.target, action.kind, action.reason) == (
        staff,
        leaver,
        StaffAction.Kind.CLOSE,
        "spam in every chat",
    )
    assert User.objects.get(pk=leaver.pk).closed_at is not None


@pytest.mark.parametrize("spelling", ["leaver45f", "LEAVER45F", "Leaver45f"])
def test_a_closed_accounts_name_cannot_be_taken_again(committed: Run, spelling: str) -> None:
    committed(lambda: closing.close_account(person("leaver45f")))
    response = Client().post(
        "/accounts/signup/",
        {
            "username": spelling,
            "email": "new@example.com",
            "password1": "a-new-pass-1234",
            "password2": "a-new-pass-1234",
        },
    )
    assert response.status_code == 200
    assert "That username belonged to an account that was closed: it is retired" in response.content.decode()
    assert User.objects.count() == 1


def test_the_profile_of_a_closed_account_is_not_found(committed: Run) -> None:
    leaver = person("leaver45g")
    assert Client().get("/u/leaver45g/").status_code == 200
    committed(lambda: closing.close_account(leaver))
    assert Client().get("/u/leaver45g/").status_code == 404
    assert Client().get("/api/users/leaver45g").status_code == 404


def test_the_games_show_a_closed_account_and_still_replay(committed: Run) -> None:
    leaver, rival = person("leaver45h"), person("rival45h")
    table = rated_game(leaver, rival)
    record = table.record
    assert record is not None
    viewer = signed_in(rival)
    replay = f"/games/{record.pk}/replay/"
    before = viewer.get(f"{replay}?step={record.action_count}").content.decode()
    assert "leaver45h" in before
    committed(lambda: closing.close_account(leaver))

    for step in (0, 1, record.action_count):
        page = viewer.get(f"{replay}?step={step}")
        assert page.status_code == 200
        body = page.content.decode()
        assert "leaver45h" not in body and "a closed account" in body, step
    exported = viewer.get(f"/games/{record.pk}/export.json").json()
    assert sorted(exported["players"]) == ["a closed account", "rival45h"]
    for path in (f"/tables/{table.pk}/", "/u/rival45h/", "/tables/", "/api/users/rival45h/games"):
        body = viewer.get(path).content.decode()
        assert "leaver45h" not in body, path


def rank_of(client: Client, name: str) -> str:
    body = client.get(f"/u/{name}/ratings/").content.decode()
    start = body.index('data-testid="rating-rank">')
    return body[start : body.index("</dd>", start)]


def test_ratings_leave_the_boards_and_the_ranked_counts(committed: Run) -> None:
    leaver, rival = person("leaver45i"), person("rival45i")
    rated_game(leaver, rival)
    Rating.objects.update(games=PROVISIONAL_GAMES)  # both ranked
    client = Client()
    listed = client.get("/api/leaderboards/triad").json()["players"]
    assert sorted(row["username"] for row in listed) == ["leaver45i", "rival45i"]
    assert "of 2<" in rank_of(client, "rival45i")
    committed(lambda: closing.close_account(leaver))

    for path in ("/leaderboards/", "/leaderboards/triad/", "/api/leaderboards/triad"):
        assert "leaver45i" not in client.get(path).content.decode(), path
    listed = client.get("/api/leaderboards/triad").json()["players"]
    assert [(row["rank"], row["username"]) for row in listed] == [(1, "rival45i")]
    assert "#1 " in rank_of(client, "rival45i") and "of 1<" in rank_of(client, "rival45i")


@pytest.mark.django_db(transaction=True)
async def test_closing_closes_the_persons_open_sockets_and_no_one_elses() -> None:
    """A table and the notices left open in other tabs stop acting for the person at once
    (through the real channel layer); another person's sockets stay open."""
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.games.test_table_consumers import ORIGIN
    from tests.talk.test_table_chat import cookie_of, heads_up, open_socket
    from web.consumers import ACCOUNT_CLOSED

    table, ann, ben, _cat = await heads_up("c45")
    table_socket, other = await open_socket(table.pk, ann), await open_socket(table.pk, ben)
    notices = WebsocketCommunicator(
        application, "/ws/notices/", headers=[ORIGIN, (b"cookie", await sync_to_async(cookie_of)(ann))]
    )
    assert (await notices.connect())[0]
    for sock in (table_socket, other, notices):
        await sock.receive_from(timeout=5)  # the table as it stands; the unread notices
    await sync_to_async(closing.close_account)(ann)
    for sock in (table_socket, notices):
        assert await sock.receive_output(timeout=5) == {
            "type": "websocket.close",
            "code": ACCOUNT_CLOSED,
            "reason": "account closed",
        }
    assert await other.receive_nothing(timeout=0.5)
    await other.send_to(text_data='{"page": "hidden"}')  # still served
    await other.disconnect()
