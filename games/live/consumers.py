"""WebSockets of live tables and the lobby: thin, each frame goes to one service.

The table's group carries only "the table changed, now at version v" (``TableChanged``);
every connection then gets its own seat's view (a spectator's if it has no seat), drawn on
the event loop from the version's snapshot when this process keeps it, else on the database
thread, which reads it (``games.live.table_frames``): a card never reaches a socket that may not
see it (LP-3). A move goes to ``games.core.move_path`` on the database thread, with the
moves of this process's other sockets that queued meanwhile (``games.live.move_queue``), and
its announcement comes back to be sent from the loop.

Frames from the browser are htmx's ``ws-send`` JSON: ``{"action": "...", "version": "...",
...}``, and table.js's word that the page was hidden or shown (``PAGE_STATES``): nothing is
drawn for a page nobody sees.

Every frame first passes the connection's rate limit (games.live.socket_limits): a frame past
it gets a one-line notice and no database work, and a socket that keeps flooding is
closed with 4429, so that one socket cannot slow the other tables (LP-1's clocks run on).

Chat (LP-10, ``talk``): a frame ``{"chat": "...", "room": "players"}`` (or ``"preset": "gg"``)
is a message, said through ``talk.say`` and sent to its room's own group
(``talk.rooms.group``). A socket joins the group of each room its person may read: a player's
socket joins the spectators' room only once the game is over, so a spectator's message never
reaches a player's socket while it runs. Each socket draws a message for its reader (a blocked
person's is dropped, a hidden one reaches its author only). A person's messages pass a limit
of their own in this process (``socket_limits.CHAT``) before any database work.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, NamedTuple
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.contrib.sessions.backends.base import SessionBase
from django.utils.translation import gettext

from accounts import notices
from accounts.blocks import blocked_ids
from accounts.models import User
from games.core import snapshots
from games.core.announcements import LOBBY_GROUP, table_group
from games.core.errors import GameError
from games.core.move_path import SocketMove
from games.core.snapshots import Snapshot
from games.live import move_queue, stale_sockets, table_access
from games.live.socket_limits import CHAT, PLAYER, WATCHER, Rate, SharedBuckets, Spacing
from games.live.table_frames import frame, render_lobby, render_table, started_snapshots
from games.live.thread_batches import ThreadBatches
from games.models import Seat, Table
from talk import history, lines, panels, rooms, say
from web import safe_json
from web.consumers import FRAME_DEPTH, FrameLimitedConsumer, frame_limiter

MAX_FRAME = 4096
LOBBY_SPACING_S = 0.3
"""The lobby is drawn at most once per this many seconds, however many changes arrive."""

# Swapped by htmx into the page's connection line (by id), outside the table: a refused
# frame costs the server this string, not a render of the table.
TOO_FAST = (
    '<p id="connection-status" class="muted connection is-error" aria-live="polite" role="alert"'
    ' data-testid="too-fast">Too many messages: that one was ignored and nothing was played.'
    " Wait a moment.</p>"
)
# A spectator's page sends nothing; whatever its socket sends is answered without a look
# at the game (the seat is known from the connection, kept up to date as seats change).
WATCHING = (
    '<p id="connection-status" class="muted connection is-error" aria-live="polite" role="alert"'
    ' data-testid="watching">You are watching this table: only its players can move.</p>'
)


# What table.js sends when its page is hidden (another tab, a locked phone) and shown again:
# a hidden page is drawn nothing, and gets the table as it stands when it is shown.
PAGE_STATES = {'{"page":"hidden"}': False, '{"page":"shown"}': True}


class Footing(NamedTuple):
    """Where a socket stands at its table: its frame limit, and what its page would show."""

    rate: Rate
    """A player's if the person has a seat there, a spectator's otherwise."""
    version: int | None
    """The game's version; ``None`` while the table is open (its seats change without one)."""
    game_id: int | None
    seat: int | None
    """The person's seat; ``None`` for a spectator."""
    over: bool = False
    """Whether the table's game is over (everyone then reads both chat rooms)."""


def table_footing(table_id: int, user: User | None, session: SessionBase | None = None) -> Footing | None:
    """``user``'s footing at the table; ``None`` if there is no such table, or it is a private
    table ``user`` and their ``session`` may not enter (LP-9: refused as if it were not there)."""
    found = (
        Table.objects.filter(pk=table_id)
        .values_list("record__version", "record_id", "private_key", "status")
        .first()
    )
    if found is None:
        return None
    if found[2] is not None and not table_access.may_enter_id(table_id, user, session):
        return None
    seat = None
    if user is not None and user.is_authenticated:
        seat = Seat.objects.filter(table_id=table_id, user=user).values_list("number", flat=True).first()
        # The person is at the table their notices sent them to: those notices are done.
        notices.settle(about=notices.about_table(table_id), user=user)
    return Footing(
        WATCHER if seat is None else PLAYER, found[0], found[1], seat, found[3] == Table.Status.FINISHED
    )


def arrival(table_id: int, user: User | None, session: SessionBase | None) -> tuple[Footing | None, set[int]]:
    """``table_footing``, and whom the person blocked (whose chat their socket drops)."""
    footing = table_footing(table_id, user, session)
    return footing, (set() if footing is None or user is None else blocked_ids(user))


CHAT_KEYS = ('"chat"', '"preset"')
"""A frame holding neither is not a chat message, and is not read as one."""
BLOCKS_READ_EVERY_S = 30.0
"""How long a socket trusts its list of the people its person blocked: a block made meanwhile
(on the profile) hides their chat within this time, without a read per message."""
_chat_buckets = SharedBuckets()
"""Each person's chat limit in this process, however many sockets they have open."""


def chat_frame(text_data: str | None) -> dict[str, Any] | None:
    """The chat message a frame holds, or ``None`` if it is not one."""
    if text_data is None or len(text_data) > MAX_FRAME or not any(key in text_data for key in CHAT_KEYS):
        return None
    try:
        message = safe_json.loads(text_data, max_depth=FRAME_DEPTH)
    except ValueError:
        return None
    if isinstance(message, dict) and ("chat" in message or "preset" in message):
        return message
    return None


def _page_query(query_string: bytes) -> dict[str, list[str]]:
    """The socket address's query as table.js writes it (``?said=12&seen=7&me=1``); raises
    ValueError (or UnicodeDecodeError) for one it could not have written."""
    return parse_qs(
        query_string.decode("ascii"), keep_blank_values=True, strict_parsing=True, max_num_fields=4
    )


def page_shows(query_string: bytes) -> tuple[int, int | None] | None:
    """The version and the seat (``None``: a spectator's) of the table the socket's page shows
    (``seen`` and ``me``); ``None`` if it does not say, or says it in a way that cannot be read."""
    try:
        query = _page_query(query_string)
        me = query["me"][0]
        return int(query["seen"][0]), int(me) if me else None
    except (UnicodeDecodeError, ValueError, KeyError):
        return None


MAX_MESSAGE_ID = 2**63 - 1
"""A message id beyond PostgreSQL's bigint is no message (and no query is made for it)."""


def page_said(query_string: bytes) -> int | None:
    """The newest chat message the socket's page shows (``said``; 0: none); ``None`` if it
    does not say, or says it in a way that cannot be read."""
    try:
        said = int(_page_query(query_string)["said"][0])
    except (UnicodeDecodeError, ValueError, KeyError):
        return None
    return said if 0 <= said <= MAX_MESSAGE_ID else None


READS = 16
"""The most tables one call reads."""


async def _read(table_ids: list[int]) -> list[Snapshot | Exception | None]:
    return await database_sync_to_async(started_snapshots)(table_ids)


_reads: ThreadBatches[int, Snapshot | None] = ThreadBatches(_read, READS)
"""The reads of tables' snapshots for this process's sockets: those asked while one call
reads go together in the next, and a table asked twice meanwhile is read once."""


async def snapshot_at(table_id: int, game_id: int | None, version: int) -> Snapshot | None:
    """The started table at ``version`` or later: its snapshot kept here, else read on the
    database thread (``_reads``); ``None`` for an open table."""
    kept = None if game_id is None else snapshots.find(game_id, version)
    if kept is not None:
        return kept
    found = None
    for _ in range(2):  # a read that set out before the version committed may be older
        # Shielded: a socket that closes while it waits must not cancel what the others wait for.
        found = await asyncio.shield(_reads.submit(table_id))
        if found is None or found.version >= version:
            return found
    return found


class TableConsumer(FrameLimitedConsumer):
    too_fast = TOO_FAST

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.sent_version: int | None = None
        self.game_id: int | None = None
        self.last_error: tuple[int, str, str] | None = None
        self.hidden = False
        self.missed = False
        self.limiter = frame_limiter(self.scope, WATCHER)
        # The page's session: a private table's link it came through (LP-9, ``table_access``).
        self.session: SessionBase | None = self.scope.get("session")
        self.refused = False
        self.chat_reads: frozenset[str] = frozenset()
        self.chat_seated = False
        self.blocked: set[int] = set()
        self.blocked_at = 0.0
        self.chat_caught_up: set[int] = set()
        await self.accept()
        # Joined before the table is read: a move made after the read is announced here.
        await self.channel_layer.group_add(table_group(self.table_id), self.channel_name)
        footing, self.blocked = await database_sync_to_async(arrival)(
            self.table_id, self.person, self.session
        )
        self.blocked_at = time.monotonic()
        if footing is None:
            await self.refuse()
            return
        frame_limiter(self.scope, footing.rate, self.limiter)
        self.game_id = footing.game_id
        await self.follow_chat(footing.seat is not None, footing.over)
        await self.chat_since(page_said(self.scope.get("query_string", b"")))
        stale_sockets.watch(self)
        shown = page_shows(self.scope.get("query_string", b""))
        if footing.version is not None and shown == (footing.version, footing.seat):
            # The page shows the table as it stands (a page just loaded, or one whose socket
            # came back while nothing moved): a frame would only replace it with the same, and
            # a click made while it was swapped in could be lost.
            self.sent_version = footing.version
            return
        await self.send_table()

    async def disconnect(self, code: int) -> None:
        # LP-2: leaving ends nothing; the seat keeps its clock and the game goes on.
        stale_sockets.forget(self)
        await self.channel_layer.group_discard(table_group(self.table_id), self.channel_name)
        await self.leave_chat()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.refused:
            return
        page = PAGE_STATES.get(text_data or "")
        if page is not None:
            await self.page_shown() if page else self.page_hidden()
            return
        chat = chat_frame(text_data)
        if chat is not None:
            await self.chat(chat)
            return
        if self.limiter.rate is not PLAYER:  # a spectator's socket
            await self.send(text_data=WATCHING)
            return
        try:
            if text_data is None or len(text_data) > MAX_FRAME:
                raise ValueError(gettext("frames are JSON text of at most 4 KB"))
            message = safe_json.loads(text_data, max_depth=FRAME_DEPTH)
            if not isinstance(message, dict):
                raise ValueError(gettext("frames are JSON objects"))
            if not isinstance(message.get("action"), str):
                raise ValueError(gettext("a move names its action"))
            version = int(message["version"])
        except (ValueError, KeyError, TypeError) as exc:
            await self.send_table(
                error=gettext("That message could not be read (%(why)s); nothing was played.") % {"why": exc}
            )
            return
        move = move_queue.play(SocketMove(self.table_id, self.person, message, version, self.game_id))
        try:
            # Shielded: a socket that closes while its move is stored leaves it to be played,
            # and announced.
            await asyncio.shield(move)
        except GameError as exc:
            await self.send_table(error=str(exc))

    def page_hidden(self) -> None:
        self.hidden = True

    async def page_shown(self) -> None:
        """The page is in sight again: if a change came while it was hidden, it gets the
        table as it stands now (one render, however many moves it missed)."""
        self.hidden = False
        if self.missed and not self.refused:
            self.missed = False
            await self.send_table()

    async def layer_gap(self, event: dict[str, Any]) -> None:
        """Announcements may have been lost (web/channel_layer.py): the table as it stands."""
        await self.table_changed({"version": None})

    async def refuse(self) -> None:
        """Closed as a socket for no table is: an announcement already on its way here
        (it joined the table's group first) draws nothing."""
        self.refused = True
        await self.channel_layer.group_discard(table_group(self.table_id), self.channel_name)
        await self.leave_chat()
        await self.close(code=4404)

    async def table_changed(self, event: dict[str, Any]) -> None:
        if self.refused:
            return
        version, game_id = event.get("version"), event.get("game")
        if isinstance(game_id, int):
            self.game_id = game_id
        if version is None:
            # Seats changed (announced without a version): whoever is here may have sat down or left.
            footing = await database_sync_to_async(table_footing)(self.table_id, self.person, self.session)
            if footing is None:
                await self.refuse()  # a private table this person may no longer enter
                return
            frame_limiter(self.scope, footing.rate, self.limiter)
            if await self.follow_chat(footing.seat is not None, footing.over):
                await self.send_chat_panel()
        elif self.sent_version is not None and version <= self.sent_version:
            return  # this socket already shows that version or a later one
        elif (
            self.chat_seated
            and rooms.SPECTATORS not in self.chat_reads
            and await self.game_over(version)
            and await self.follow_chat(True, True)
        ):
            await self.send_chat_panel()  # the game is over: its players may now read the spectators' chat
        if self.hidden:
            self.missed = True  # drawn when the page is shown again
            return
        await self.send_table(version=version)

    async def game_over(self, version: int) -> bool:
        """Whether the game is over at ``version`` (its snapshot, kept here as a rule: the
        frame about to be drawn needs it too)."""
        if self.person is None or self.person.hide_chat:
            return False
        try:
            kept = await snapshot_at(self.table_id, self.game_id, version)
        except Table.DoesNotExist:
            return False  # gone: the frame drawn next closes the socket (``send_table``)
        return kept is not None and kept.record.is_over

    # Chat (LP-10)

    async def follow_chat(self, seated: bool, over: bool) -> bool:
        """Joins the groups of the rooms the person may now read, and leaves the others;
        whether that changed what the socket reads or where its person writes."""
        person = self.person
        if person is not None and person.hide_chat:
            reads: frozenset[str] = frozenset()
        else:
            reads = rooms.standing(seated=seated, over=over, signed_in=person is not None).reads
        for room in self.chat_reads - reads:
            await self.channel_layer.group_discard(rooms.group(self.table_id, room), self.channel_name)
        for room in reads - self.chat_reads:
            await self.channel_layer.group_add(rooms.group(self.table_id, room), self.channel_name)
        changed = reads != self.chat_reads or seated != self.chat_seated
        self.chat_reads, self.chat_seated = reads, seated
        return changed

    async def chat_since(self, said: int | None) -> None:
        """The messages said in the socket's rooms since its page was drawn (``said``: the
        newest it shows), read once the socket has joined their groups: one said before the
        join would otherwise reach neither the page nor the socket. A message said meanwhile
        comes both ways, and its group copy is dropped (``chat_caught_up``)."""
        if said is None or not self.chat_reads:
            return
        person = self.person
        reader = None if person is None else person.pk
        missed = await database_sync_to_async(history.since)(
            reader, self.blocked, table_id=self.table_id, rooms=self.chat_reads, after=said
        )
        for data in missed:
            self.chat_caught_up.add(data["id"])
            await self.send(text_data=lines.appended(data, reader))

    async def leave_chat(self) -> None:
        for room in self.chat_reads:
            await self.channel_layer.group_discard(rooms.group(self.table_id, room), self.channel_name)
        self.chat_reads = frozenset()

    async def send_chat_panel(self) -> None:
        html = await database_sync_to_async(panels.render_table_panel)(
            self.table_id, self.person, self.session
        )
        if html:
            await self.send(text_data=html)

    async def chat(self, message: dict[str, Any]) -> None:
        """A message from this socket's person: refused with a notice, or said in its room."""
        person = self.person
        if person is None:
            await self.send(text_data=lines.notice(gettext("Log in to chat.")))
            return
        now = time.monotonic()
        if not _chat_buckets.bucket(person.pk, CHAT, now).take(now):
            # Refused here, before the database: a flood of chat costs no table its moves.
            await self.send(text_data=lines.notice(say.too_fast()))
            return
        try:
            said = await database_sync_to_async(say.at_table)(
                table_id=self.table_id,
                user=person,
                session=self.session,
                room=message.get("room"),
                said=message.get("chat", ""),
                preset=message.get("preset", ""),
            )
        except say.ChatError as exc:
            await self.send(text_data=lines.notice(str(exc)))
            return
        data = lines.payload(said, person.username)
        if said.hidden:
            await self.send(text_data=lines.appended(data, person.pk))  # its author's alone
        else:
            await self.channel_layer.group_send(rooms.group(self.table_id, said.room), data)

    async def chat_message(self, event: dict[str, Any]) -> None:
        if self.refused or event.get("room") not in self.chat_reads or event.get("id") in self.chat_caught_up:
            return
        person = self.person
        if person is not None and time.monotonic() - self.blocked_at > BLOCKS_READ_EVERY_S:
            self.blocked = await database_sync_to_async(blocked_ids)(person)
            self.blocked_at = time.monotonic()
        reader = None if person is None else person.pk
        if lines.shown_to(event, reader, self.blocked):
            await self.send(text_data=lines.appended(event, reader))

    async def chat_switched(self, event: dict[str, Any]) -> None:
        """The table's creator turned its chat on or off: the panel as it now stands."""
        if not self.refused:
            await self.send_chat_panel()

    async def send_table(self, error: str = "", version: int | None = None) -> None:
        # The same refusal again (a client repeating a stale or illegal frame, within its
        # limit) gets the frame already drawn for it: no render, whatever it repeats.
        if error and self.last_error is not None and self.last_error[:2] == (self.sent_version, error):
            await self.send(text_data=self.last_error[2])
            return
        try:
            kept = (
                None if version is None or error else await snapshot_at(self.table_id, self.game_id, version)
            )
            if kept is not None:
                html, version = frame(kept, self.person), kept.version
            else:
                html, version = await database_sync_to_async(render_table)(self.table_id, self.person, error)
        except Table.DoesNotExist:
            # Gone while this socket was open (only a test database is emptied under one):
            # closed as a socket for no table is at connect.
            await self.close(code=4404)
            return
        self.sent_version = version
        # Only a started table's: an open one's seats change without a new version.
        self.last_error = (version, error, html) if error and version is not None else None
        await self.send(text_data=html)


class LobbyConsumer(FrameLimitedConsumer):
    """The lobby's list of tables, drawn again when one changes (or a frame asks): at most
    once per ``LOBBY_SPACING_S``, and always once more after the last change."""

    too_fast = TOO_FAST

    async def connect(self) -> None:
        self.limiter = frame_limiter(self.scope, WATCHER)
        self.spacing = Spacing(LOBBY_SPACING_S)
        self.stale = False
        self.drawing: asyncio.Task[None] | None = None
        await self.accept()
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)

    async def disconnect(self, code: int) -> None:
        if self.drawing is not None:
            self.drawing.cancel()
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        self.refresh()  # any frame asks for a fresh list; what it says does not matter

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        self.refresh()

    async def layer_gap(self, event: dict[str, Any]) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Ask for a drawing of the list as it stands; one already waiting will do."""
        self.stale = True
        if self.drawing is None or self.drawing.done():
            self.drawing = asyncio.create_task(self.draw_while_stale())

    async def draw_while_stale(self) -> None:
        # A change that arrives while the list is read sets ``stale`` again, so the loop
        # draws once more after it: the last change is never lost.
        loop = asyncio.get_running_loop()
        while self.stale:
            await asyncio.sleep(self.spacing.wait(loop.time()))
            self.stale = False
            self.spacing.mark(loop.time())
            await self.send(text_data=await database_sync_to_async(render_lobby)())
