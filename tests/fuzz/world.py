"""What the fuzzer's requests act on, made through the site's own services.

Each HTTP lane (one thread) has a person with a logged-in session and things of its own
(solitaire games, tables where a seat is free, tournaments), so that most requests reach
the view code and some succeed; a thing used up (a table that started, a game that
ended) is replaced, at most ``REPLACEMENTS`` times per pool so that a long run does not
leave hundreds of live games behind.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

from tests.stack import session_cookie

REPLACEMENTS = 200
TABLE_CLOCK_S = 600  # a started fixture table's people never move: no clock should run out meanwhile
_names = iter(range(10**9))
_names_lock = threading.Lock()


def unique(prefix: str) -> str:
    with _names_lock:
        return f"{prefix}{next(_names)}"


def make_user(prefix: str, password: str | None = None) -> Any:
    from django.contrib.auth import get_user_model

    name = unique(prefix)
    return get_user_model().objects.create_user(name, f"{name}@example.com", password)


def player_of(user: Any) -> Any:
    from games.core.players import Player

    return Player(user=user, token=secrets.token_urlsafe(8))


def finished_games(count: int, rng: random.Random) -> tuple[list[int], list[str]]:
    """Solitaire games played to the end by random legal moves: their ids and exports."""
    import json

    from games.core.snapshots import state_of
    from games.engine import get_engine
    from games.replays import replays
    from games.solitaire import services

    owner = make_user("fzarchive")
    ids, exports = [], []
    for n in range(count):
        game = ("pyramid", "tripeaks")[n % 2]
        record = services.start_solitaire(game=game, player=player_of(owner))
        engine = get_engine(game)
        while not record.is_over:
            legal = [str(a) for a in engine.legal_actions(state_of(record))]
            services.submit_action(
                game_id=record.pk, player=player_of(owner), move=rng.choice(legal), expected_version=None
            )
            record.refresh_from_db()
        ids.append(record.pk)
        exports.append(json.dumps(replays.export(replays.from_record(record))))
    return ids, exports


def daily_deals(days: int) -> None:
    """Today's and the last ``days`` days' daily deals (the beat deals them hourly; this
    stack's beat has just started)."""
    from games.solitaire import services

    today = _now().date()
    for back in range(days + 1):
        for game in ("pyramid", "tripeaks"):
            services.ensure_daily(game=game, date=today - dt.timedelta(days=back))


@dataclass
class Pool:
    """Things of one kind for one lane; ``fresh`` makes another, ``usable`` says if one still is."""

    make: Any
    usable: Any
    items: list[int] = field(default_factory=list)
    made: int = 0

    def pick(self, rng: random.Random, size: int = 3) -> int:
        while len(self.items) < size:
            self.items.append(self.make())
            self.made += 1
        index = rng.randrange(len(self.items))
        if not self.usable(self.items[index]) and self.made < REPLACEMENTS + size:
            self.items[index] = self.make()
            self.made += 1
        return self.items[index]


@dataclass
class Lane:
    """One fuzzing thread's person and things."""

    user: Any
    cookie: str
    host: Any
    """Another person: creates the tables this lane sits at, joins its tournaments."""
    password_user: Any
    password_cookie: str
    password: str
    """The password user's password now (a change the site accepted replaces it)."""
    solitaire: dict[str, Pool] = field(default_factory=dict)
    tables: Pool | None = None
    tournaments_open: Pool | None = None
    tournaments_own: Pool | None = None
    own_tables: Pool | None = None
    """Open tables the lane's person opened: where it invites from (LP-9)."""
    invited: Pool | None = None
    """Invitations waiting for the lane's person, each from a person of its own."""
    sent: Pool | None = None
    """Invitations the lane's person sent, waiting (to withdraw)."""


def make_lane() -> Lane:
    from games.live import invitations, tables
    from games.models import GameRecord, Invitation, Table
    from games.solitaire import services
    from tournaments import services as tournament_services
    from tournaments.models import Tournament

    user, host = make_user("fzlane"), make_user("fzhost")
    password = "first-password-of-the-lane"
    changer = make_user("fzpassword", password)
    lane = Lane(
        user=user,
        cookie=session_cookie(user),
        host=host,
        password_user=changer,
        password_cookie=session_cookie(changer),
        password=password,
    )

    def solitaire(game: str) -> Pool:
        return Pool(
            make=lambda: services.start_solitaire(game=game, player=player_of(user)).pk,
            usable=lambda pk: GameRecord.objects.filter(pk=pk, status=GameRecord.Status.PLAYING).exists(),
        )

    lane.solitaire = {game: solitaire(game) for game in ("pyramid", "tripeaks")}

    def open_table() -> int:
        game = random.choice(("triad", "blocks"))
        config = {"players": 2} if game == "triad" else {}
        # Now and then a private one (LP-9): the lane lacks its link, so its seats are not there.
        return tables.create_table(
            game=game, creator=host, config=config, clock_seconds=TABLE_CLOCK_S, private=random.random() < 0.2
        ).pk

    lane.tables = Pool(
        make=open_table,
        usable=lambda pk: Table.objects.filter(pk=pk, status=Table.Status.OPEN).exists(),
    )

    def tournament(creator: Any, other: Any | None) -> int:
        made = tournament_services.create_tournament(
            creator=creator,
            name=unique("fuzz cup "),
            game="triad",
            config={"hands": 1},
            clock_seconds=TABLE_CLOCK_S,
            max_entrants=4,
            starts_at=_now() + dt.timedelta(days=7),
        )
        if other is not None:
            tournament_services.join(tournament_id=made.pk, user=other)
        return made.pk

    def still_open(pk: int) -> bool:
        return Tournament.objects.filter(pk=pk, status=Tournament.Status.OPEN).exists()

    def own_table() -> int:
        # Now and then private (LP-9): invitations to it must never give its link away.
        return tables.create_table(
            game="triad",
            creator=user,
            config={"players": 3},
            clock_seconds=TABLE_CLOCK_S,
            private=random.random() < 0.3,
        ).pk

    lane.own_tables = Pool(
        make=own_table, usable=lambda pk: Table.objects.filter(pk=pk, status=Table.Status.OPEN).exists()
    )

    def waiting(pk: int) -> bool:
        return Invitation.objects.filter(pk=pk, status=Invitation.Status.PENDING).exists()

    def invitation_to_lane() -> int:
        inviter = make_user("fzinviter")
        table = tables.create_table(
            game="triad",
            creator=inviter,
            config={"players": 2},
            clock_seconds=TABLE_CLOCK_S,
            private=random.random() < 0.3,
        )
        return invitations.invite(inviter=inviter, table_id=table.pk, invitee=user).pk

    def invitation_from_lane() -> int:
        # Made as ``invite`` makes one, but directly: the lane's own posts use up its flood limit.
        now = _now()
        table = tables.create_table(
            game="triad", creator=user, config={"players": 2}, clock_seconds=TABLE_CLOCK_S
        )
        return Invitation.objects.create(
            table=table,
            seat=1,
            from_user=user,
            to_user=make_user("fzguest"),
            expires_at=now + dt.timedelta(hours=1),
        ).pk

    lane.invited = Pool(make=invitation_to_lane, usable=waiting)
    lane.sent = Pool(make=invitation_from_lane, usable=waiting)
    lane.tournaments_open = Pool(make=lambda: tournament(host, None), usable=still_open)
    lane.tournaments_own = Pool(make=lambda: tournament(user, host), usable=still_open)
    return lane


def _now() -> dt.datetime:
    from django.utils import timezone

    return timezone.now()


def solitaire_position(game_id: int) -> tuple[int, list[str], bool]:
    """(version, legal moves, over) of a solitaire game, as its page would show it."""
    from games.core.snapshots import state_of
    from games.engine import get_engine
    from games.models import GameRecord

    record = GameRecord.objects.get(pk=game_id)
    if record.is_over:
        return record.version, [], True
    legal = [str(a) for a in get_engine(record.game).legal_actions(state_of(record))]
    return record.version, legal, False


def reset_token(user: Any) -> tuple[str, str]:
    """A real password-reset link's uid and token for ``user``."""
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    user.refresh_from_db()
    return urlsafe_base64_encode(force_bytes(user.pk)), default_token_generator.make_token(user)


def unread_notices(user: Any, count: int = 3) -> list[int]:
    """Notices of ``user``'s, unread, for the notice socket's frames to mark read."""
    from accounts import notices
    from accounts.models import Notice

    made = [
        notices.notify(user=user, kind=Notice.Kind.RESULTS, text="Fuzz results", url="/", key=unique("fuzz "))
        for _ in range(count)
    ]
    return [notice.pk for notice in made if notice is not None]


def bot_table(user: Any) -> int:
    """A started table with ``user`` in seat 0 and the bot in seat 1 (the worker plays it)."""
    from django.db import close_old_connections

    from games.live import tables

    close_old_connections()
    game = random.choice(("triad", "blocks"))
    table = tables.create_table(
        game=game,
        creator=user,
        config={"players": 2} if game == "triad" else {},
        clock_seconds=TABLE_CLOCK_S,
        # Now and then private (LP-9): its player plays on, a spectator's socket is refused (4404).
        private=random.random() < 0.25,
    )
    tables.add_bot(table_id=table.pk, user=user)
    tables.start(table_id=table.pk, user=user)
    return table.pk
