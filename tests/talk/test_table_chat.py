"""Table chat over the table's socket (LP-10, in LP-3's spirit), through the real ASGI stack,
session auth and the Redis channel layer: who hears which room, what is refused, and what a
message looks like once drawn."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import Block
from config.asgi import application
from games.core import move_path
from games.engine import get_engine
from games.live import tables
from games.models import Table
from talk.models import BannedWord, Message, Mute
from tests.games.test_table_consumers import ORIGIN

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-long-enough-1"


def person(name: str) -> Any:
    return get_user_model().objects.create_user(name, f"{name}@example.com", PASSWORD)


@sync_to_async
def heads_up(prefix: str = "", hands: int = 1, **options: Any) -> tuple[Table, Any, Any, Any]:
    """A dealt two-seat Triad table of one hand (a fold ends it), its players and a spectator
    with an account."""
    first, second, watcher = person(f"{prefix}ann"), person(f"{prefix}ben"), person(f"{prefix}cat")
    table = tables.create_table(
        game="triad", creator=first, config={"players": 2, "hands": hands}, clock_seconds=600, **options
    )
    tables.sit(table_id=table.pk, user=second)
    tables.start(table_id=table.pk, user=first)
    table.refresh_from_db()
    return table, first, second, watcher


def cookie_of(user: Any) -> bytes:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def open_socket(table_id: int, user: Any = None) -> WebsocketCommunicator:
    headers = [ORIGIN]
    if user is not None:
        headers.append((b"cookie", await sync_to_async(cookie_of)(user)))
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def seated_sockets(table: Table, *people: Any) -> list[WebsocketCommunicator]:
    """One socket each (``None``: a visitor), past the table's first frame."""
    sockets = []
    for someone in people:
        sock = await open_socket(table.pk, someone)
        assert 'id="table-live"' in await sock.receive_from(timeout=5)
        sockets.append(sock)
    return sockets


def chat(text: str, room: str = "") -> str:
    return json.dumps({"chat": text, "room": room} if room else {"chat": text})


async def frames_until_quiet(sock: WebsocketCommunicator, quiet: float = 0.5) -> list[str]:
    """Everything the socket is sent until nothing comes for ``quiet`` seconds."""
    frames = []
    while not await sock.receive_nothing(timeout=quiet):
        frames.append(await sock.receive_from())
    return frames


async def frame_with(sock: WebsocketCommunicator, words: str, timeout: float = 10) -> str:
    """The first frame the socket is sent that holds ``words`` (others are passed over)."""
    while True:
        frame = await sock.receive_from(timeout=timeout)
        if words in frame:
            return frame


async def close_all(*sockets: WebsocketCommunicator) -> None:
    for sock in sockets:
        await sock.disconnect()


stored = sync_to_async(lambda **where: list(Message.objects.filter(**where).values_list("text", flat=True)))


@sync_to_async
def end_game(table: Table, first: Any, second: Any) -> None:
    """The player to act folds: the one hand, and so the game, is over."""
    table.record.refresh_from_db()
    from games.core.snapshots import state_of

    seat = get_engine("triad").current_player(state_of(table.record))
    mover = first if seat == 0 else second
    move_path.play_at_table(table_id=table.pk, user=mover, move="fold", expected_version=table.record.version)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


async def test_the_players_chat_reaches_the_players_and_the_spectators_a_preset_in_words() -> None:
    table, ann, ben, cat = await heads_up()
    mine, theirs, watcher, visitor = await seated_sockets(table, ann, ben, cat, None)
    await mine.send_to(text_data=chat("good luck, have fun", "players"))
    for sock in (mine, theirs, watcher, visitor):
        frame = await sock.receive_from(timeout=5)
        assert 'beforeend:#chat-log-players"' in frame and "good luck, have fun" in frame
    await theirs.send_to(text_data=json.dumps({"preset": "gg", "room": "players"}))
    for sock in (mine, theirs, watcher, visitor):
        frame = await sock.receive_from(timeout=5)
        assert "Good game" in frame and "is-preset" in frame
    rows = await sync_to_async(list)(
        Message.objects.filter(table=table).values_list("room", "text", "preset")
    )
    assert rows == [("players", "good luck, have fun", ""), ("players", "", "gg")]
    await close_all(mine, theirs, watcher, visitor)


async def test_a_spectators_message_never_reaches_a_player_while_the_game_runs() -> None:
    """LP-10: the spectators' room is its own group; a player's socket joins it only once the
    game is over. Every frame a player's socket receives is checked."""
    table, ann, ben, cat = await heads_up()
    mine, theirs, watcher = await seated_sockets(table, ann, ben, cat)
    await watcher.send_to(text_data=chat("ann holds the ace", "spectators"))
    assert "ann holds the ace" in await watcher.receive_from(timeout=5)
    for player in (mine, theirs):
        assert all("ann holds the ace" not in frame for frame in await frames_until_quiet(player))
    # A spectator cannot write in the players' room, nor a player in the spectators'.
    await watcher.send_to(text_data=chat("psst", "players"))
    assert "Only the players write in the players" in await watcher.receive_from(timeout=5)
    await mine.send_to(text_data=chat("hello watchers", "spectators"))
    assert "you write in the players" in await mine.receive_from(timeout=5)
    for player in (mine, theirs):
        assert all("psst" not in frame for frame in await frames_until_quiet(player))
    assert await stored(table=table) == ["ann holds the ace"]

    await end_game(table, ann, ben)
    # The game is over: each player's socket gets the panel with the spectators' room, and
    # hears it from now on.
    for player in (mine, theirs):
        panel = await frame_with(player, 'id="table-chat"')
        assert "ann holds the ace" in panel and 'id="chat-log-spectators"' in panel
    await watcher.send_to(text_data=chat("well played both", "spectators"))
    for sock in (mine, theirs, watcher):
        assert "well played both" in await frame_with(sock, "well played both")
    await close_all(mine, theirs, watcher)


async def test_a_message_sent_on_another_tables_socket_is_refused() -> None:
    """A player of table A who opens table B's socket is a spectator there: they cannot write
    in B's players' room, and nothing reaches A. A private table's socket is closed to them."""
    table, ann, ben, _cat = await heads_up("a")
    other, _dan, eve, _fay = await heads_up("b")
    at_a = (await seated_sockets(table, ben))[0]
    at_b = await seated_sockets(other, ann, eve)
    await at_b[0].send_to(text_data=chat("from another table", "players"))
    assert "Only the players write in the players" in await at_b[0].receive_from(timeout=5)
    assert all("another table" not in frame for frame in await frames_until_quiet(at_b[1]))
    assert all("another table" not in frame for frame in await frames_until_quiet(at_a))
    assert await stored(room="players") == []

    private, *_people = await heads_up("c", private=True)
    sock = WebsocketCommunicator(
        application,
        f"/ws/tables/{private.pk}/",
        headers=[ORIGIN, (b"cookie", await sync_to_async(cookie_of)(ann))],
    )
    assert (await sock.connect())[0]
    assert (await sock.receive_output(timeout=5))["code"] == 4404  # as a table that is not there
    await close_all(at_a, *at_b)


async def test_a_blocked_persons_message_never_reaches_the_blocker() -> None:
    table, ann, ben, cat = await heads_up()
    await sync_to_async(Block.objects.create)(blocker=ann, blocked=ben)
    mine, theirs, watcher = await seated_sockets(table, ann, ben, cat)
    await theirs.send_to(text_data=chat("you will never read this", "players"))
    assert "you will never read this" in await theirs.receive_from(timeout=5)  # they are not told
    assert "you will never read this" in await watcher.receive_from(timeout=5)
    assert all("never read" not in frame for frame in await frames_until_quiet(mine))
    # Nor on the page: the panel a newcomer (or a reload) reads.
    from talk import panels

    panel = await sync_to_async(panels.render_table_panel)(table.pk, ann, None)
    assert 'id="chat-log-players"' in panel and "never read" not in panel
    assert "never read" in await sync_to_async(panels.render_table_panel)(table.pk, cat, None)
    await close_all(mine, theirs, watcher)


async def test_past_five_messages_in_ten_seconds_a_message_is_refused_with_a_notice() -> None:
    table, ann, ben, _cat = await heads_up()
    mine, theirs = await seated_sockets(table, ann, ben)
    for n in range(5):
        await mine.send_to(text_data=chat(f"message {n}"))
        assert f"message {n}" in await mine.receive_from(timeout=5)
    await mine.send_to(text_data=chat("one too many"))
    notice = await mine.receive_from(timeout=5)
    assert "Slow down: at most 5 messages every 10 seconds" in notice and 'id="chat-status"' in notice
    assert len(await stored(user=ann)) == 5
    assert all("too many" not in frame for frame in await frames_until_quiet(theirs))
    await close_all(mine, theirs)


@sync_to_async
def five_recent_messages(user: Any, table: Table) -> None:
    """Five messages of ``user`` in the last ten seconds, said in another process (a form)."""
    now = timezone.now()
    Message.objects.bulk_create(
        [
            Message(user=user, table=table, room="players", text=f"earlier {n}", created_at=now)
            for n in range(5)
        ]
    )


async def test_the_limit_counts_messages_sent_elsewhere_too() -> None:
    """The database counts: a person who said five things through the form (or another server
    process) is refused on the socket, although its own bucket is full."""
    table, ann, _ben, _cat = await heads_up()
    await five_recent_messages(ann, table)
    (mine,) = await seated_sockets(table, ann)
    await mine.send_to(text_data=chat("sixth"))
    assert "Slow down" in await mine.receive_from(timeout=5)
    await close_all(mine)


async def test_a_word_of_the_list_hides_the_message_from_all_but_its_author() -> None:
    table, ann, ben, cat = await heads_up()
    await sync_to_async(BannedWord.objects.create)(word="Darn")
    mine, theirs, watcher = await seated_sockets(table, ann, ben, cat)
    await mine.send_to(text_data=chat("well darn it"))
    frame = await mine.receive_from(timeout=5)
    assert "well darn it" in frame and "only you see it" in frame
    for sock in (theirs, watcher):
        assert all("darn" not in f for f in await frames_until_quiet(sock))
    row = await sync_to_async(Message.objects.get)(user=ann)
    assert row.hidden  # flagged: the admin lists hidden messages
    # "darn" inside another word is no hit.
    await mine.send_to(text_data=chat("darnedest"))
    assert "darnedest" in await theirs.receive_from(timeout=5)
    await close_all(mine, theirs, watcher)


@pytest.mark.parametrize(
    ("frame", "words"),
    [
        (chat(""), "Write something first"),
        (chat(" \u200b\u202e "), "Write something first"),
        (chat("x" * 301), "at most 300 characters; this one has 301"),
        (json.dumps({"chat": 5}), "could not be read"),
        (json.dumps({"chat": ["a"], "room": "players"}), "could not be read"),
        (json.dumps({"preset": "pwned"}), "no such phrase"),
        (json.dumps({"preset": {"a": 1}}), "could not be read"),
        (chat("hi", "kitchen"), "no such chat room"),
        (chat("hi", "tournament"), "no such chat room"),
    ],
)
async def test_bad_messages_get_a_notice_and_store_nothing(frame: str, words: str) -> None:
    table, ann, _ben, _cat = await heads_up()
    (mine,) = await seated_sockets(table, ann)
    await mine.send_to(text_data=frame)
    notice = await mine.receive_from(timeout=5)
    assert words in notice and 'data-testid="chat-status"' in notice
    assert await stored() == []
    await close_all(mine)


async def test_three_hundred_characters_are_said() -> None:
    table, ann, _ben, _cat = await heads_up()
    (mine,) = await seated_sockets(table, ann)
    await mine.send_to(text_data=chat("é" * 300))
    assert "é" * 300 in await mine.receive_from(timeout=5)
    await close_all(mine)


async def test_muted_off_hidden_and_anonymous_are_refused() -> None:
    table, ann, ben, cat = await heads_up()
    until = timezone.now() + dt.timedelta(hours=1)
    await sync_to_async(Mute.objects.create)(user=ann, until=until, reason="rude", by=cat)
    await sync_to_async(get_user_model().objects.filter(pk=cat.pk).update)(hide_chat=True)
    mine, theirs, watcher, visitor = await seated_sockets(table, ann, ben, cat, None)
    await mine.send_to(text_data=chat("hello"))
    assert "You are muted from chat until" in await mine.receive_from(timeout=5)
    await watcher.send_to(text_data=chat("hello"))
    assert "You have hidden chat" in await watcher.receive_from(timeout=5)
    await visitor.send_to(text_data=chat("hello"))
    assert "Log in to chat" in await visitor.receive_from(timeout=5)
    await sync_to_async(Table.objects.filter(pk=table.pk).update)(chat_enabled=False)
    await theirs.send_to(text_data=chat("hello"))
    assert "Chat is off at this table" in await theirs.receive_from(timeout=5)
    assert await stored() == []
    # Whoever hides chat hears none: their socket joined no room.
    await sync_to_async(Table.objects.filter(pk=table.pk).update)(chat_enabled=True)
    await theirs.send_to(text_data=chat("anyone there?"))
    assert "anyone there?" in await theirs.receive_from(timeout=5)
    assert all("anyone there" not in frame for frame in await frames_until_quiet(watcher))
    await close_all(mine, theirs, watcher, visitor)


XSS = (
    '<script>alert(1)</script> <img src=x onerror="alert(2)"> '
    '<a href="javascript:alert(3)">click</a> javascript:alert(4) https://example.com/x'
    " \u202egnp.exe \u2066iso\u2069 zero\u200bwidth jo\u200din\u200cer \ufeffbom"
)


@sync_to_async
def newest_id() -> int:
    return Message.objects.latest("pk").pk


async def test_a_message_is_escaped_text_without_links_or_direction_tricks() -> None:
    table, ann, ben, _cat = await heads_up()
    mine, theirs = await seated_sockets(table, ann, ben)
    await mine.send_to(text_data=chat(XSS))
    frame = await theirs.receive_from(timeout=5)
    line = frame[frame.index("<li") :]
    said = await newest_id()
    report = (
        f'<a class="chat-report" href="/talk/messages/{said}/report/" title="Report or block"'
        ' data-testid="chat-report"><span aria-hidden="true">\u2691</span>'
        '<span class="visually-hidden">Report or block</span></a>'
    )
    assert line.count(report) == 1  # the reader's link to report or block, the one tag the site adds
    line = line.replace(report, "")
    assert "<script" not in line and "<img" not in line and "<a " not in line and 'href="' not in line
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in line
    assert "onerror=&quot;alert(2)&quot;" in line  # an attribute's text, in no tag
    assert "javascript:alert(4) https://example.com/x" in line  # an address stays text
    for char in "\u202e\u2066\u2069\u200b\u200d\u200c\ufeff":
        assert char not in line
    assert "gnp.exe iso zerowidth joiner bom" in line
    assert '<bdi class="chat-text">' in line and '<bdi class="chat-name">' in line
    stored_text = (await stored(user=ann))[0]
    assert "\u202e" not in stored_text and "\u200b" not in stored_text
    await close_all(mine, theirs)


async def test_a_newcomer_gets_the_rooms_last_fifty_messages() -> None:
    table, ann, _ben, cat = await heads_up()
    now = timezone.now()
    await sync_to_async(Message.objects.bulk_create)(
        [
            Message(
                user=ann,
                table=table,
                room="players",
                text=f"line {n:02}",
                created_at=now + dt.timedelta(seconds=n),
            )
            for n in range(60)
        ]
    )
    from talk import panels

    panel = await sync_to_async(panels.render_table_panel)(table.pk, cat, None)
    assert panel.count('data-testid="chat-line"') == 50
    assert "line 10" in panel and "line 09" not in panel and panel.index("line 10") < panel.index("line 59")


async def test_a_spectator_who_sits_down_writes_in_the_players_room() -> None:
    """An open table's seats change: the socket's rooms follow, and its page gets the panel."""
    ann, cat = await sync_to_async(person)("ann"), await sync_to_async(person)("cat")
    table = await sync_to_async(tables.create_table)(game="triad", creator=ann, config={"players": 2})
    (watcher,) = await seated_sockets(table, cat)
    await sync_to_async(tables.sit)(table_id=table.pk, user=cat)
    panel = await frame_with(watcher, 'id="table-chat"')
    assert 'name="room" value="players"' in panel and 'id="chat-log-spectators"' not in panel
    await watcher.send_to(text_data=chat("seated now", "players"))
    assert "seated now" in await frame_with(watcher, "seated now")
    await close_all(watcher)


async def test_a_socket_sends_what_was_said_after_its_page_was_drawn() -> None:
    """The page names the newest message it shows (``said``): what was said between the
    page's drawing and its socket's joining the rooms comes on connecting, only what this
    reader may read, and nothing for a page that shows it all."""
    table, ann, ben, cat = await heads_up()
    said = sync_to_async(
        lambda who, words, room="players": (
            Message.objects.create(room=room, table=table, user=who, text=words).pk
        )
    )
    first = await said(ann, "before the page")
    second = await said(ben, "while the page loaded")
    await said(cat, "ann holds two aces", "spectators")

    async def caught_up(user: Any, query: str) -> list[str]:
        headers = [ORIGIN, (b"cookie", await sync_to_async(cookie_of)(user))]
        sock = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/{query}", headers=headers)
        assert (await sock.connect())[0]
        frames = [frame for frame in await frames_until_quiet(sock) if "chat-log" in frame]
        await sock.disconnect()
        return frames

    frames = await caught_up(ann, f"?said={first}")
    assert len(frames) == 1 and "while the page loaded" in frames[0]
    assert f'data-said="{second}"' in frames[0]  # the next connection names it in turn
    assert await caught_up(ann, f"?said={second}") == []
    everything = await caught_up(ann, "?said=0")
    assert len(everything) == 2 and not any("two aces" in frame for frame in everything)  # LP-10
    assert len(await caught_up(cat, "?said=0")) == 3  # a spectator reads both rooms
    for forged in (
        "?said=-1",
        "?said=99999999999999999999",
        "?said=x",
        "?said=1&said=2&said=3&said=4&said=5",
    ):
        assert await caught_up(ann, forged) == []  # not read: no catch-up, and no error
