"""Every page type of the site, with the rows that make each one worth looking at (issue 20):
the accessibility test (axe-core in Chromium) and the HTML validity test (the Nu checker) tour
the same list, so a page added here is checked both ways.

Each ``build_*`` makes its rows through the services, the paths real play takes, and returns
the pages it made as ``Visit``s. They need committed rows (the live server and the worker
read them) and, where tables are involved, no running event loop: the table services announce
with ``async_to_sync``, so browser tests call them through ``tests.e2e.test_tournament_journey.in_thread``.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass

from django.utils import timezone

from accounts import follows
from accounts.models import Presence, User
from games.core.players import Player
from games.engine.solver import solve
from games.live import tables, turn_clocks
from games.models import GameRecord
from games.replays import replays, table_odds
from games.solitaire import services, solo_matches
from tests.e2e.test_tournament_formats import play_until_finished
from tests.games.test_replays import table_game
from tests.tournaments.support import person
from tests.tournaments.test_series import a_series
from tests.tournaments.test_services import schedule
from tests.tournaments.test_solitaire_events import an_event, started
from tournaments import series as series_service
from tournaments import services as tournament_services

VIEWER = "ada_viewer"
PASSWORD = "pyramid-of-hexes-55"
# A turn clock that outlasts the tour: a person's turn must not time out and move the page on.
LONG_CLOCK_S = turn_clocks.LIVE_CLOCKS[1]


@dataclass(frozen=True)
class Visit:
    """One page: what to call it in a report, its path, who looks (None: a visitor) and the
    status it answers with."""

    name: str
    path: str
    user: str | None = VIEWER
    status: int = 200
    stale_form: bool = False
    """The page that answers the form of ``path`` sent with a token that is not the browser's
    (as a page opened before its person logged in again sends it): ``STALE_TOKEN``."""


STALE_TOKEN = "x" * 64


def viewer() -> User:
    found = User.objects.filter(username=VIEWER).first()
    return found or User.objects.create_user(VIEWER, f"{VIEWER}@example.com", PASSWORD)


def _as_player(user: User) -> Player:
    return Player(user=user, token="")


def _finished_solitaire(game: str, user: User) -> GameRecord:
    # The first winnable deal from a fixed start: a won game shows the end panel at its fullest.
    for seed in range(1, 40):
        line = solve(game, config=None, seed=seed)
        if line.winnable and line.actions:
            break
    record = services.start_solitaire(game=game, player=_as_player(user), seed=seed)
    for version, text in enumerate(line.actions or ["resign"]):
        services.submit_action(
            game_id=record.pk, player=_as_player(user), move=text, expected_version=version
        )
    record.refresh_from_db()
    return record


def _lost_solitaire(game: str, user: User) -> GameRecord:
    record = services.start_solitaire(game=game, player=_as_player(user), seed=5)
    services.submit_action(game_id=record.pk, player=_as_player(user), move="resign", expected_version=0)
    record.refresh_from_db()
    return record


def build_site() -> list[Visit]:
    """The pages that need no game: the home page, the lists, rules, the daily deals."""
    viewer()  # the person the visits are made as, unless they say otherwise
    today = timezone.now().date()
    for game in ("pyramid", "tripeaks"):
        services.ensure_daily(game=game, date=today)
        services.ensure_daily(game=game, date=today - dt.timedelta(days=1))
    yesterday = (today - dt.timedelta(days=1)).isoformat()
    return [
        Visit("home", "/"),
        Visit("home (visitor)", "/", user=None),
        Visit("play", "/play/"),
        Visit("new Pyramid game", "/play/pyramid/"),
        Visit("new Tri-Peaks game", "/play/tripeaks/"),
        Visit("daily", "/daily/"),
        Visit("daily archive", "/daily/archive/"),
        Visit("daily detail (today)", f"/daily/pyramid/{today.isoformat()}/"),
        Visit("daily detail (over)", f"/daily/tripeaks/{yesterday}/"),
        Visit("leaderboards", "/leaderboards/"),
        Visit("rating board", "/leaderboards/triad/"),
        Visit("lobby", "/tables/"),
        Visit("tournaments", "/tournaments/"),
        Visit("rules", "/rules/", user=None),
    ]


def build_accounts() -> list[Visit]:
    """A person's own pages, signing up and in, errors: apart from ``build_site`` so that two
    browser tests share the tour's longest group."""
    me = viewer()
    return [
        Visit("profile", f"/u/{me.username}/"),
        Visit("ratings page (none yet)", f"/u/{me.username}/ratings/"),
        Visit("edit profile", "/accounts/profile/"),
        Visit("login", "/accounts/login/", user=None),
        Visit("signup", "/accounts/signup/", user=None),
        Visit("password reset", "/accounts/password_reset/", user=None),
        Visit("404", "/no-such-page/", status=404),
        Visit("405", "/accounts/logout/", status=405),
        Visit("stale form", "/accounts/profile/", status=403, stale_form=True),
    ]


def build_solitaire() -> list[Visit]:
    """Solitaire games new and over, their replays, a solo (par) match."""
    me = viewer()
    visits = []
    for game, title in (("pyramid", "Pyramid"), ("tripeaks", "Tri-Peaks")):
        fresh = services.start_solitaire(game=game, player=_as_player(me), seed=11)
        won = _finished_solitaire(game, me)
        lost = _lost_solitaire(game, me)
        visits += [
            Visit(f"{title} game (new)", fresh.get_absolute_url()),
            Visit(f"{title} game (won)", won.get_absolute_url()),
            Visit(f"{title} game (lost)", lost.get_absolute_url()),
            Visit(f"{title} replay", f"/games/{won.pk}/replay/"),
            Visit(f"{title} winning line", f"/games/{won.pk}/solution/"),
        ]
    match = solo_matches.start(game="pyramid", player=_as_player(me))
    solo_matches.play(match_id=match.pk, deal=1, player=_as_player(me))
    visits += [
        Visit("solo matches", "/play/pyramid/match/"),
        Visit("solo match", match.get_absolute_url()),
    ]
    # The last won game (Tri-Peaks), downloaded and imported: its byline and the import page's list.
    data = replays.parse_import(json.dumps(replays.export(replays.from_record(won))))
    imported = services.import_game(data=data, player=_as_player(me))
    visits += [
        Visit("import (with your imports)", "/games/import/"),
        Visit("Tri-Peaks replay (imported)", f"/games/{imported.pk}/replay/"),
    ]
    # The import continued at the step before its last and won, and again after its first move, left
    # unfinished: where each says it was continued (its heading, end panel, replay, the lists).
    line = list(data["actions"])
    continued = services.continue_from(record=imported, step=len(line) - 1, player=_as_player(me))
    services.submit_action(
        game_id=continued.pk, player=_as_player(me), move=line[-1], expected_version=continued.version
    )
    services.continue_from(record=imported, step=1, player=_as_player(me))
    visits += [
        Visit("Tri-Peaks game (continued, won)", continued.get_absolute_url()),
        Visit("Tri-Peaks replay (continued)", f"/games/{continued.pk}/replay/"),
        Visit("play (a continued game in progress)", "/play/"),
        Visit("new Tri-Peaks game (a continued game in progress)", "/play/tripeaks/"),
    ]
    return visits


def build_tables() -> list[Visit]:
    """A table of each game while it is played (the viewer seated, bots the rest), a finished
    one and its replay."""
    me = viewer()
    visits = []
    for game, title, config in (
        ("triad", "Triad", {"players": 3, "hands": 3}),
        ("blocks", "Pyramid Poker", {}),
        ("tauron", "Tauron", {"hands": 3}),
    ):
        table = tables.create_table(game=game, creator=me, config=config, clock_seconds=LONG_CLOCK_S)
        for _ in range(table.seat_count - 1):
            tables.add_bot(table_id=table.pk, user=me)
        tables.start(table_id=table.pk, user=me)
        visits.append(Visit(f"{title} table (playing)", table.get_absolute_url()))
    waiting = tables.create_table(game="triad", creator=me, config={"players": 3}, clock_seconds=LONG_CLOCK_S)
    tables.add_bot(table_id=waiting.pk, user=me)
    visits.append(Visit("Triad table (waiting)", waiting.get_absolute_url()))
    visits.append(Visit("Triad table (watching)", waiting.get_absolute_url(), user=None))
    private = tables.create_table(
        game="triad", creator=me, config={"players": 2}, clock_seconds=LONG_CLOCK_S, private=True
    )
    visits += [
        Visit("Triad table (private, its link to copy)", private.get_absolute_url()),
        Visit("Triad table (private, to a stranger)", private.get_absolute_url(), user=None, status=404),
    ]
    # LP-8: a turn-based table, its speed and the time left said in words.
    slow = tables.create_table(game="triad", creator=me, config={"players": 2}, clock_seconds=2 * 86400)
    tables.sit(table_id=slow.pk, user=person("tb_rival"))
    tables.start(table_id=slow.pk, user=me)
    visits.append(Visit("Triad table (turn-based, 2 days per move)", slow.get_absolute_url()))
    finished = table_game("triad", me, players=2, hands=2)
    assert finished.record is not None and finished.record.is_over
    assert table_odds.work_out(finished.record_id) is not None  # its replay's odds (issue 46)
    visits += [
        Visit("Triad table (finished)", finished.get_absolute_url()),
        Visit("Triad replay", f"/games/{finished.record_id}/replay/"),
        Visit("Triad replay (step 3)", f"/games/{finished.record_id}/replay/?step=3"),
    ]
    return visits


def build_tournaments() -> list[Visit]:
    """A running and a finished tournament, a series, a solitaire event."""
    me = viewer()
    host = person("tour_host")
    running = schedule(
        host, name="Running cup", max_entrants=4, fill_with_bots=True, clock_seconds=LONG_CLOCK_S
    )
    tournament_services.join(tournament_id=running.pk, user=me)
    tournament_services.start_now(tournament_id=running.pk, user=host)
    finished = schedule(host, name="Finished cup", max_entrants=4, fill_with_bots=True, third_place=True)
    tournament_services.join(tournament_id=finished.pk, user=me)
    tournament_services.start_now(tournament_id=finished.pk, user=host)
    play_until_finished(finished.pk)
    upcoming = schedule(host, name="Upcoming cup", max_entrants=4)
    series = a_series(host, name="Quick Triad series")
    series_service.schedule_editions()
    event = started(an_event(host, name="Pyramid deals night", game="pyramid", deal_count=2), host)
    tournament_services.join(tournament_id=event.pk, user=me)
    return [
        Visit("tournament (upcoming)", upcoming.get_absolute_url()),
        Visit("tournament (running)", running.get_absolute_url()),
        Visit("tournament (finished)", finished.get_absolute_url()),
        Visit("series", series.get_absolute_url()),
        Visit("solitaire event", event.get_absolute_url()),
        Visit("tournaments (with events)", "/tournaments/"),
    ]


def build_friends() -> list[Visit]:
    """The friends page with a friend online at a live table and one seen hours ago, a
    newcomer's empty one, the lists of followers and following, profiles with Follow and
    with Unfollow."""
    me = viewer()
    cleo, dan, eli = person("fr_cleo"), person("fr_dan"), person("fr_eli")
    newcomer = person("fr_new")
    table = tables.create_table(game="triad", creator=cleo, config={"players": 2}, clock_seconds=LONG_CLOCK_S)
    tables.add_bot(table_id=table.pk, user=cleo)
    tables.start(table_id=table.pk, user=cleo)
    for other in (cleo, dan):
        follows.follow(follower=me, followed=other)
    follows.follow(follower=cleo, followed=me)
    # Seen "in the future", so that she is still online however long the tour takes.
    Presence.objects.create(
        channel_name="tour.cleo", user=cleo, table_id=table.pk, seen_at=timezone.now() + dt.timedelta(hours=1)
    )
    User.objects.filter(pk=dan.pk).update(last_seen=timezone.now() - dt.timedelta(hours=2))
    return [
        Visit("friends", "/friends/"),
        Visit("friends (none yet)", "/friends/", user=newcomer.username),
        Visit("followers", f"/u/{me.username}/followers/"),
        Visit("following", f"/u/{me.username}/following/", user=None),
        Visit("following (nobody)", f"/u/{eli.username}/following/"),
        Visit("profile (followed)", f"/u/{cleo.username}/"),
        Visit("profile (not followed)", f"/u/{eli.username}/"),
    ]


def build_invitations() -> list[Visit]:
    """LP-9: the viewer invited to a private table (its notice with Accept and Decline in the
    header of every page), the viewer's own table with an invitation waiting and one declined,
    the invitations pages of each side, and "Invite to a table" with and without a table."""
    from accounts.models import InvitePolicy
    from games.live import invitations

    me = viewer()
    host, guest, shy = person("inv_host"), person("inv_guest"), person("inv_shy")
    User.objects.filter(pk=shy.pk).update(invite_policy=InvitePolicy.NOBODY)
    theirs = tables.create_table(
        game="triad", creator=host, config={"players": 2}, clock_seconds=LONG_CLOCK_S, private=True
    )
    to_me = invitations.invite(inviter=host, table_id=theirs.pk, invitee=me)
    mine = tables.create_table(game="triad", creator=me, config={"players": 4}, clock_seconds=LONG_CLOCK_S)
    invitations.invite(inviter=me, table_id=mine.pk, invitee=guest)
    declined = invitations.invite(inviter=me, table_id=mine.pk, invitee=host)
    invitations.decline(invitation_id=declined.pk, user=host)
    return [
        Visit("invitations", "/invitations/"),
        Visit("invitations (none yet)", "/invitations/", user=guest.username),
        Visit("invitation (to answer)", to_me.get_absolute_url()),
        Visit("invitation (declined, to its inviter)", declined.get_absolute_url()),
        Visit("Triad table (private, invited to it)", theirs.get_absolute_url()),
        Visit("Triad table (inviting)", mine.get_absolute_url()),
        Visit("invite to a table", f"/invite/{guest.username}/"),
        Visit("invite to a table (refused)", f"/invite/{shy.username}/"),
        Visit("invite to a table (no open table)", f"/invite/{me.username}/", user=guest.username),
        Visit("lobby (a new table for someone)", f"/tables/?invite={guest.username}"),
    ]


def build_turns() -> list[Visit]:
    """LP-8: the viewer's "your turn" page with two turn-based games waiting (one at a private
    table), so every page after shows the header's "Your turn (2)"; and a newcomer's empty one."""
    from tests.accounts.turn_support import game_waiting_for

    me = viewer()
    game_waiting_for(me, person("turn_rival"))
    game_waiting_for(me, person("turn_friend"), private=True)
    return [
        Visit("your turn", "/turns/"),
        Visit("your turn (none waiting)", "/turns/", user=person("turn_new").username),
    ]


def build_closing() -> list[Visit]:
    """Issue 45: the page that closes the viewer's account (its password asked), and a game of
    a closed account's: its replay, table and opponent's profile say "a closed account"."""
    from accounts.closing import close_account
    from tests.accounts.test_closing import rated_game

    viewer()
    leaver, rival = person("cl_leaver"), person("cl_rival")
    table = rated_game(leaver, rival)
    close_account(leaver)
    return [
        Visit("close account", "/accounts/close/"),
        Visit("replay (a closed account's game)", f"/games/{table.record_id}/replay/?step=1"),
        Visit("table (a closed account's game)", table.get_absolute_url(), user=rival.username),
        Visit("profile (played a closed account)", f"/u/{rival.username}/"),
        # The profile's ratings as their own page: where the profile links without JavaScript.
        Visit("ratings page (a rated game, provisional)", f"/u/{rival.username}/ratings/"),
    ]


def build_moderation() -> list[Visit]:
    """Issue 45: a profile with Block and Report and one the viewer blocked (Unblock), the list
    of people blocked (full and empty), the report forms for a person and a message, and the
    admin's queue and a report's review (the message among the lines around it)."""
    from accounts import blocks
    from talk.models import Message, Report
    from tournaments.models import Tournament

    me = viewer()
    rude, calm = person("mod_rude"), person("mod_calm")
    blocks.block(blocker=me, blocked=rude)
    cup = Tournament.objects.create(name="Talk Cup", game="triad", starts_at=timezone.now(), created_by=calm)
    lines = [
        Message.objects.create(room=Message.Room.TOURNAMENT, tournament=cup, user=who, text=text)
        for who, text in ((calm, "good luck all"), (rude, "you all play like bots"), (calm, "be nice"))
    ]
    report = Report.objects.create(reporter=me, reported=rude, message=lines[1], reason=Report.Reason.ABUSE)
    staff = User.objects.filter(username="mod_staff").first() or User.objects.create_superuser(
        "mod_staff", "mod_staff@example.com", PASSWORD
    )
    return [
        Visit("profile (Block and Report)", f"/u/{calm.username}/"),
        Visit("profile (blocked: Unblock)", f"/u/{rude.username}/"),
        Visit("people you blocked", "/accounts/blocked/"),
        Visit("people you blocked (none)", "/accounts/blocked/", user=calm.username),
        Visit("report a person", f"/u/{calm.username}/report/"),
        Visit("report a message", f"/talk/messages/{lines[1].pk}/report/"),
        Visit("admin: open reports", "/admin/talk/report/", user=staff.username),
        Visit("admin: a report's review", f"/admin/talk/report/{report.pk}/review/", user=staff.username),
    ]


def build_chat() -> list[Visit]:
    """Issue 45's chat: a running table with both rooms' messages (a preset, a hidden word-list
    hit, right-to-left text) as its player, a spectator and a visitor see them; a table whose
    creator turned chat off; a person who hides chat; a finished game's chat beside its replay;
    a tournament's chat as an entrant and a visitor see it."""
    from talk.models import Message

    me = viewer()
    rival, rail = person("chat_rival"), person("chat_rail")
    table = tables.create_table(game="triad", creator=me, config={"players": 2}, clock_seconds=LONG_CLOCK_S)
    tables.sit(table_id=table.pk, user=rival)
    tables.start(table_id=table.pk, user=me)
    said = (
        (me, "players", "good luck, <b>have fun</b>", ""),
        (rival, "players", "", "gl"),
        (me, "players", "a word staff keep out", "", True),
        (rail, "spectators", "שלום from the rail: javascript:alert(1)", ""),
    )
    for who, room, words, preset, *hidden in said:
        Message.objects.create(
            user=who, table=table, room=room, text=words, preset=preset, hidden=bool(hidden)
        )
    quiet = tables.create_table(game="triad", creator=me, config={"players": 2}, clock_seconds=LONG_CLOCK_S)
    type(quiet).objects.filter(pk=quiet.pk).update(chat_enabled=False)
    hider = person("chat_hider")
    type(hider).objects.filter(pk=hider.pk).update(hide_chat=True)
    finished = table_game("triad", me, players=2, hands=2)
    Message.objects.create(user=me, table=finished, room="players", text="gg")
    Message.objects.create(user=rail, table=finished, room="spectators", text="what a finish")
    host = person("chat_host")
    cup = schedule(host, name="Chatty cup", max_entrants=4)
    tournament_services.join(tournament_id=cup.pk, user=me)
    Message.objects.create(user=me, tournament=cup, room="tournament", text="see you at the tables")
    return [
        Visit("table with chat (a player)", table.get_absolute_url()),
        Visit("table with chat (a spectator)", table.get_absolute_url(), user=rail.username),
        Visit("table with chat (a visitor)", table.get_absolute_url(), user=None),
        Visit("table with chat off (its creator)", quiet.get_absolute_url()),
        Visit("table (chat hidden)", table.get_absolute_url(), user=hider.username),
        Visit("replay with its chat", f"/games/{finished.record_id}/replay/"),
        Visit("tournament with chat (an entrant)", cup.get_absolute_url()),
        Visit("tournament with chat (a visitor)", cup.get_absolute_url(), user=None),
    ]


BUILDERS = {
    "site": build_site,
    "accounts": build_accounts,
    "solitaire": build_solitaire,
    "tables": build_tables,
    "tournaments": build_tournaments,
    "chat": build_chat,
    "friends": build_friends,
    "turns": build_turns,
    "invitations": build_invitations,
    "closing": build_closing,
    "moderation": build_moderation,
}
