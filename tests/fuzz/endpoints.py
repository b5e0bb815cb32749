"""Every POST view of the site, each with a maker of plausible requests (which ``shape``
in tests/fuzz/requests.py then bends into adversarial ones).

A maker returns the path and the form fields a browser would send, mostly with values
that reach deep into the view (the lane's own game at its current version with a legal
move, a table with a free seat, a real reset token), sometimes with values that are
merely the right type, sometimes with ones that are not.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.fuzz import inputs, world


@dataclass
class Req:
    path: str
    fields: list[tuple[str, str | bytes]] = field(default_factory=list)
    """A ``bytes`` value is sent as a file (multipart)."""
    new_password: str = ""
    """For a password change: what the password is if the change is accepted."""


@dataclass
class Shared:
    """What every lane may use: finished games and their exports, people to log in as."""

    finished: list[int]
    exports: list[str]
    logins: list[tuple[str, str]]
    reset_user: Any


@dataclass
class Ctx:
    rng: random.Random
    lane: world.Lane
    shared: Shared


@dataclass(frozen=True)
class Endpoint:
    name: str
    """The URL pattern's name (Django's ``reverse`` name)."""
    who: str
    """Whose browser sends it: ``user`` (the lane's person), ``password`` (the lane's
    person whose password changes), ``anonymous`` (a new browser with only a CSRF cookie
    each time), ``browser`` (one anonymous browser that keeps its session: the reset
    link's second step needs it), ``fresh`` (a new logged-in session each time)."""
    make: Callable[[Ctx], Req]


def some_id(ctx: Ctx, good: int) -> int:
    """Mostly ``good``; else an id that is someone else's, missing, or absurd."""
    roll = ctx.rng.random()
    if roll < 0.8:
        return good
    if roll < 0.9:
        return ctx.rng.choice(ctx.shared.finished)
    return ctx.rng.choice((0, 1, 999_999_999, 2**63 - 1, 2**63, 10**30))


def segment(text: str) -> str:
    """``text`` as one path segment, percent-encoded (lone surrogates as invalid UTF-8)."""
    return urllib.parse.quote(text.encode("utf-8", "surrogatepass"), safe="")


def junk(ctx: Ctx) -> str:
    value = inputs.value(ctx.rng)
    return value if isinstance(value, str) else json.dumps(value)


def either(ctx: Ctx, good: str, bad: float = 0.2) -> str:
    return junk(ctx) if ctx.rng.random() < bad else good


# Accounts


def signup(ctx: Ctx) -> Req:
    name = world.unique("fzsign")
    password = either(ctx, "long-enough-pass-1")
    return Req(
        "/accounts/signup/",
        [
            ("username", either(ctx, name)),
            ("email", either(ctx, f"{name}@example.com")),
            ("password1", password),
            ("password2", either(ctx, password, 0.1)),
        ],
    )


def login(ctx: Ctx) -> Req:
    name, password = ctx.rng.choice(ctx.shared.logins)
    roll = ctx.rng.random()
    if roll < 0.3:
        name = junk(ctx)
    if roll < 0.5:
        password = junk(ctx)
    return Req("/accounts/login/", [("username", name), ("password", password)])


def logout(ctx: Ctx) -> Req:
    return Req("/accounts/logout/", [])


def password_change(ctx: Ctx) -> Req:
    new = either(ctx, f"changed-{world.unique('pw')}-x")
    return Req(
        "/accounts/password_change/",
        [
            ("old_password", ctx.lane.password if ctx.rng.random() < 0.5 else junk(ctx)),
            ("new_password1", new),
            ("new_password2", either(ctx, new, 0.1)),
        ],
        new_password=new,
    )


def password_reset(ctx: Ctx) -> Req:
    email = ctx.shared.reset_user.email if ctx.rng.random() < 0.3 else junk(ctx)
    return Req("/accounts/password_reset/", [("email", email)])


def password_reset_confirm(ctx: Ctx) -> Req:
    uid, token = world.reset_token(ctx.shared.reset_user)
    roll = ctx.rng.random()
    if roll < 0.3:
        token = "set-password"  # the second step: its token is looked for in the session
    elif roll < 0.6:
        uid, token = junk(ctx)[:40] or "x", junk(ctx)[:80] or "y"
    new = f"reset-{world.unique('pw')}-x"
    return Req(
        f"/accounts/reset/{segment(uid)}/{segment(token)}/",
        [("new_password1", new), ("new_password2", either(ctx, new, 0.1))],
    )


def edit_profile(ctx: Ctx) -> Req:
    fields: list[tuple[str, str | bytes]] = [("bio", inputs.text(ctx.rng, 300))]
    if ctx.rng.random() < 0.5:  # LP-9: who may invite the person
        fields.append(("invite_policy", either(ctx, ctx.rng.choice(("anyone", "followed", "nobody")))))
    return Req("/accounts/profile/", fields)


def close_account(ctx: Ctx) -> Req:
    """The lane's person has no usable password (``world.make_user``), so every try is refused
    and the account stays open for the rest of the lane; a closed one would end it (the
    closing itself is tests/accounts/test_closing.py's and the browser journey's). Another
    person's password, junk, or no field at all."""
    roll = ctx.rng.random()
    if roll < 0.1:
        return Req("/accounts/close/", [])
    password = f"not-{ctx.lane.password}" if roll < 0.5 else junk(ctx)
    return Req("/accounts/close/", [("password", password)])


def _people_name(ctx: Ctx) -> str:
    """Mostly the lane's host (a real person), else the lane's own name (refused: oneself),
    a name nobody has, or junk."""
    roll = ctx.rng.random()
    if roll < 0.7:
        return str(ctx.lane.host.username)
    if roll < 0.8:
        return str(ctx.lane.user.username)
    return world.unique("fznobody") if roll < 0.9 else junk(ctx)


def _block(ctx: Ctx, verb: str) -> Req:
    return Req(f"/u/{segment(_people_name(ctx))}/{verb}/", [("next", either(ctx, "/accounts/blocked/", 0.5))])


def _report_fields(ctx: Ctx) -> list[tuple[str, str | bytes]]:
    reason = ctx.rng.choice(("abuse", "spam", "cheating", "other"))
    fields: list[tuple[str, str | bytes]] = [("reason", either(ctx, reason))]
    if ctx.rng.random() < 0.5:
        fields.append(("details", either(ctx, "rude at the table", 0.5)))
    if ctx.rng.random() < 0.3:
        fields.append(("next", either(ctx, "/play/", 0.5)))
    return fields


def report_person(ctx: Ctx) -> Req:
    """A person reported (at most a few an hour: most are refused by the flood limit)."""
    return Req(f"/u/{segment(_people_name(ctx))}/report/", _report_fields(ctx))


_lane_messages: dict[int, int] = {}


def report_message(ctx: Ctx) -> Req:
    """A message the lane may read (its host's, in a tournament's chat), else another id."""
    lane = id(ctx.lane)
    if lane not in _lane_messages:
        from django.utils import timezone

        from talk.models import Message
        from tournaments.models import Tournament

        host = ctx.lane.host
        cup = Tournament.objects.create(
            name=world.unique("fz talk "), game="triad", starts_at=timezone.now(), created_by=host
        )
        said = Message.objects.create(room=Message.Room.TOURNAMENT, tournament=cup, user=host, text="gg")
        _lane_messages[lane] = said.pk
    return Req(f"/talk/messages/{some_id(ctx, _lane_messages[lane])}/report/", _report_fields(ctx))


def set_language(ctx: Ctx) -> Req:
    """The footer's picker: a language of the site, back to a page of it (issue 47)."""
    language = either(ctx, ctx.rng.choice(("en", "it")), 0.3)
    return Req("/i18n/setlang/", [("language", language), ("next", either(ctx, "/play/"))])


def read_notices(ctx: Ctx) -> Req:
    return Req("/accounts/notices/read/", [("next", either(ctx, "/play/", 0.5))])


def _follow(ctx: Ctx, verb: str) -> Req:
    """Mostly the lane's host (a real person), else the lane's own name (refused: oneself),
    a name nobody has, or junk."""
    roll = ctx.rng.random()
    name = (
        ctx.lane.host.username
        if roll < 0.7
        else ctx.lane.user.username
        if roll < 0.8
        else world.unique("fznobody")
        if roll < 0.9
        else junk(ctx)
    )
    return Req(f"/u/{segment(name)}/{verb}/", [])


# Solitaire


def new_game(ctx: Ctx) -> Req:
    rng = ctx.rng
    slug = rng.choice(("pyramid",) * 4 + ("tripeaks",) * 4 + ("triad", "nope", "PYRAMID"))
    deal = rng.choice(("random", "random", "number", "winnable", junk(ctx)))
    fields: list[tuple[str, str | bytes]] = [
        ("deal", deal),
        ("number", either(ctx, str(rng.randint(0, 10**9)))),
        ("rows", either(ctx, rng.choice(("7", "6")))),
        ("redeals", either(ctx, rng.choice(("0", "1", "2", "3", "none")))),
        ("scoring", either(ctx, rng.choice(("points", "par")))),
    ]
    for box in ("reserve", "clear_the_board", "overlap_pairs", "waste_off_limits", "reshuffle", "face_up"):
        if rng.random() < 0.3:
            fields.append((box, either(ctx, "on")))
    return Req(f"/play/{slug}/", fields)


def _solitaire(ctx: Ctx) -> tuple[int, int, list[str]]:
    game = ctx.rng.choice(("pyramid", "tripeaks"))
    pool = ctx.lane.solitaire[game]
    game_id = pool.pick(ctx.rng, size=1)
    version, legal, _over = world.solitaire_position(game_id)
    return game_id, version, legal


def _version(ctx: Ctx, version: int) -> str:
    roll = ctx.rng.random()
    if roll < 0.75:
        return str(version)
    return ctx.rng.choice((str(version - 1), str(version + 1), "", "-1", "1e3", "9" * 30, junk(ctx)))


def game_act(ctx: Ctx) -> Req:
    game_id, version, legal = _solitaire(ctx)
    moves = [m for m in legal if m != "resign"] or legal
    action = ctx.rng.choice(moves) if moves and ctx.rng.random() < 0.7 else junk(ctx)
    if legal and ctx.rng.random() < 0.02:
        action = "resign"
    return Req(
        f"/games/{some_id(ctx, game_id)}/act/", [("action", action), ("version", _version(ctx, version))]
    )


def solo_matches(ctx: Ctx) -> Req:
    slug = ctx.rng.choice(("pyramid",) * 6 + ("tripeaks", "triad", "nope"))
    return Req(f"/play/{slug}/match/")


def solo_match_deal(ctx: Ctx) -> Req:
    from games.models import SoloMatch

    mine = list(SoloMatch.objects.filter(owner=ctx.lane.user).values_list("pk", flat=True)[:20])
    match_id = some_id(ctx, ctx.rng.choice(mine)) if mine else ctx.rng.randint(0, 10**6)
    deal = ctx.rng.choice((1, 1, 2, 3, 6, 7, 0, 10**9))
    return Req(f"/matches/{match_id}/deals/{deal}/")


def game_undo(ctx: Ctx) -> Req:
    game_id, version, _legal = _solitaire(ctx)
    return Req(f"/games/{some_id(ctx, game_id)}/undo/", [("version", _version(ctx, version))])


def game_hint(ctx: Ctx) -> Req:
    game_id, version, _legal = _solitaire(ctx)
    return Req(f"/games/{some_id(ctx, game_id)}/hint/", [("version", _version(ctx, version))])


def odds_switch(ctx: Ctx) -> Req:
    fields: list[tuple[str, str | bytes]] = [("show", either(ctx, ctx.rng.choice(("0", "1"))))]
    if ctx.rng.random() < 0.7:
        game_id, _version_now, _legal = _solitaire(ctx)
        fields.append(("next", either(ctx, ctx.rng.choice((f"/games/{game_id}/", "//evil.example/")))))
    return Req("/games/odds/", fields)


def game_continue(ctx: Ctx) -> Req:
    game_id = ctx.rng.choice(ctx.shared.finished)
    step = either(ctx, str(ctx.rng.randint(0, 12)))
    return Req(f"/games/{some_id(ctx, game_id)}/continue/", [("step", step)])


def _mutated_export(ctx: Ctx) -> str:
    rng = ctx.rng
    text = rng.choice(ctx.shared.exports)
    roll = rng.random()
    if roll < 0.3:
        return text
    if roll < 0.4:
        return inputs.nested(rng)
    if roll < 0.5:
        return inputs.text(rng, 200)
    data = json.loads(text)
    key = rng.choice([*data.keys(), "deck", "players", "extra"])
    if rng.random() < 0.3:
        data.pop(key, None)
    elif key == "actions" and data["actions"] and rng.random() < 0.5:
        index = rng.randrange(len(data["actions"]))
        data["actions"][index] = inputs.value(rng)
    elif key == "config" and rng.random() < 0.5:
        data["config"] = {**data["config"], inputs.text(rng, 10): inputs.value(rng)}
    else:
        data[key] = inputs.value(rng)
    return inputs.dumps(data)


def game_import(ctx: Ctx) -> Req:
    text = _mutated_export(ctx)
    if ctx.rng.random() < 0.3:
        return Req("/games/import/", [("file", text.encode("utf-8", "surrogatepass"))])
    return Req("/games/import/", [("text", text)])


def daily_play(ctx: Ctx) -> Req:
    rng = ctx.rng
    today = dt.datetime.now(dt.UTC).date()
    date = rng.choice(
        (
            today.isoformat(),
            today.isoformat(),
            (today - dt.timedelta(days=rng.randint(1, 400))).isoformat(),
            (today + dt.timedelta(days=1)).isoformat(),
            "2026-02-30",
            "0001-01-01",
            "9999-12-31",
            "today",
            inputs.text(rng, 12) or "x",
        )
    )
    game = rng.choice(("pyramid",) * 4 + ("tripeaks",) * 4 + ("triad", "blocks", "x"))
    return Req(f"/daily/{game}/{segment(date)}/play/", [])


# Tables


def _table_fields(ctx: Ctx) -> list[tuple[str, str | bytes]]:
    """A table form: valid values, now and then one out of its range (``shape`` adds junk)."""
    rng = ctx.rng

    def pick(good: tuple[object, ...], bad: tuple[object, ...]) -> str:
        return str(rng.choice(bad if rng.random() < 0.05 else good))

    fields: list[tuple[str, str | bytes]] = [
        ("game", pick(("triad", "blocks"), ("pyramid", ""))),
        ("triad_players", pick((2, 3, 4, 6), (1, 7))),
        ("clock_seconds", pick((10, 30, 600, 3600, 86400, 604800), (9, 601, -1, 3599, 5000, 10**20))),
        ("triad_stack", pick((10, 100, 10_000), (0, 10_001))),
        ("triad_ante", pick((1, 5), (0, 1001))),
        ("triad_hands", pick((1, 12, 100), (0, 1001))),
        ("triad_cards", pick(("6", "8"), ("7",))),
        ("blocks_scoring", pick(("basic", "advanced"), ("x",))),
        ("blocks_target", pick(("7", "11"), ("9",))),
    ]
    if rng.random() < 0.2:
        fields.append(
            rng.choice((("triad_no_discard", "on"), ("triad_discard_twice", "on"), ("triad_face_up", "on")))
        )
    if rng.random() < 0.3:  # LP-9: a private table (a tournament's form has no such field)
        fields.append(("private", rng.choice(("on", "on", "", "0", "yes"))))
    return fields


def table_create(ctx: Ctx) -> Req:
    fields = _table_fields(ctx)
    if ctx.rng.random() < 0.3:  # LP-9: people to invite as the table opens
        fields.append(("invite", _invitees(ctx)))
    return Req("/tables/new/", fields)


def _table(ctx: Ctx, verb: str, seat: bool) -> Req:
    assert ctx.lane.tables is not None
    table_id = ctx.lane.tables.pick(ctx.rng)
    fields: list[tuple[str, str | bytes]] = []
    if seat:
        fields.append(("seat", either(ctx, str(ctx.rng.choice((0, 1, 2, 5))), 0.3)))
    return Req(f"/tables/{some_id(ctx, table_id)}/{verb}/", fields)


def table_sit(ctx: Ctx) -> Req:
    return _table(ctx, "sit", True)


def table_leave(ctx: Ctx) -> Req:
    return _table(ctx, "leave", False)


def table_add_bot(ctx: Ctx) -> Req:
    return _table(ctx, "bot", True)


def table_remove_bot(ctx: Ctx) -> Req:
    return _table(ctx, "unbot", True)


def table_start(ctx: Ctx) -> Req:
    return _table(ctx, "start", False)


def table_rematch(ctx: Ctx) -> Req:
    return _table(ctx, "rematch", False)


# Chat (LP-10)

SAID = ("good luck", "<b>hi</b> javascript:alert(1)", "\u202eabc\u200b", "x" * 301, "", " \u200d ")


def _chat_fields(ctx: Ctx, rooms: tuple[str, ...]) -> list[tuple[str, str | bytes]]:
    """A message as the chat's forms send it: a preset's key or words, and maybe a room."""
    rng = ctx.rng
    fields: list[tuple[str, str | bytes]] = []
    if rng.random() < 0.3:
        fields.append(("preset", either(ctx, rng.choice(("gg", "gl", "wp", "thanks", "hello", "GG")))))
    else:
        fields.append(("chat", either(ctx, rng.choice(SAID), 0.3)))
    if rooms and rng.random() < 0.8:
        fields.append(("room", either(ctx, rng.choice(rooms))))
    return fields


def table_say(ctx: Ctx) -> Req:
    assert ctx.lane.tables is not None
    fields = _chat_fields(ctx, ("players", "spectators", "tournament"))
    return Req(f"/tables/{some_id(ctx, ctx.lane.tables.pick(ctx.rng))}/chat/", fields)


def table_chat_switch(ctx: Ctx) -> Req:
    """Mostly the lane's own table (its creator may), else someone else's (refused)."""
    assert ctx.lane.own_tables is not None and ctx.lane.tables is not None
    pool = ctx.lane.own_tables if ctx.rng.random() < 0.8 else ctx.lane.tables
    enabled = either(ctx, ctx.rng.choice(("0", "1", "1")))
    return Req(f"/tables/{some_id(ctx, pool.pick(ctx.rng))}/chat/switch/", [("enabled", enabled)])


def chat_visibility(ctx: Ctx) -> Req:
    fields: list[tuple[str, str | bytes]] = [("hide", either(ctx, ctx.rng.choice(("0", "0", "1"))))]
    if ctx.rng.random() < 0.7:
        fields.append(
            ("next", either(ctx, ctx.rng.choice(("/tables/", "//evil.example/", "https://x.example/"))))
        )
    return Req("/chat/visibility/", fields)


def tournament_say(ctx: Ctx) -> Req:
    pool = ctx.lane.tournaments_own if ctx.rng.random() < 0.5 else ctx.lane.tournaments_open
    assert pool is not None
    return Req(f"/tournaments/{some_id(ctx, pool.pick(ctx.rng))}/chat/", _chat_fields(ctx, ()))


# Invitations (LP-9)


def _invitees(ctx: Ctx) -> str:
    """Mostly the lane's host (a real person), else the lane's own name (refused: oneself), a
    name nobody has, several names, or junk."""
    roll = ctx.rng.random()
    if roll < 0.6:
        return ctx.lane.host.username
    if roll < 0.7:
        return ctx.lane.user.username
    if roll < 0.8:
        return world.unique("fznobody")
    if roll < 0.9:
        return ", ".join(
            [ctx.lane.host.username, world.unique("fznobody"), junk(ctx)][: ctx.rng.randint(1, 3)]
        )
    return junk(ctx)


def invitation_send(ctx: Ctx) -> Req:
    """From one of the lane's own open tables, else someone else's (refused) or a forged id."""
    assert ctx.lane.own_tables is not None and ctx.lane.tables is not None
    pool = ctx.lane.own_tables if ctx.rng.random() < 0.8 else ctx.lane.tables
    fields: list[tuple[str, str | bytes]] = [
        ("table", either(ctx, str(some_id(ctx, pool.pick(ctx.rng))))),
        ("to", _invitees(ctx)),
    ]
    if ctx.rng.random() < 0.3:
        fields.append(("seat", either(ctx, str(ctx.rng.choice((0, 1, 2, 5))), 0.3)))
    return Req("/invitations/new/", fields)


def _invitation(ctx: Ctx, verb: str) -> Req:
    """One waiting for the lane's person (to answer) or sent by it (to withdraw): each verb
    meets both, so the one who may not is refused as well."""
    assert ctx.lane.invited is not None and ctx.lane.sent is not None
    pool = ctx.lane.sent if (verb == "cancel") == (ctx.rng.random() < 0.8) else ctx.lane.invited
    return Req(f"/invitations/{some_id(ctx, pool.pick(ctx.rng))}/{verb}/", [])


# Tournaments


def tournament_create(ctx: Ctx) -> Req:
    rng = ctx.rng
    fields = [f for f in _table_fields(ctx) if f[0] != "players"]
    fields += [
        ("name", either(ctx, world.unique("fz cup "), 0.05)),
        ("max_entrants", either(ctx, rng.choice(("4", "8", "64", "3", "128")), 0.05)),
        # Never a start within the run: a tournament that starts fills with bot matches.
        ("starts_in", rng.choice(("10080", "10080", "1440", "1440", "", "-5", "0", junk(ctx)))),
    ]
    if rng.random() < 0.3:
        fields.append(("fill_with_bots", "on"))
    return Req("/tournaments/new/", fields)


def tournament_create_solitaire(ctx: Ctx) -> Req:
    rng = ctx.rng
    fields = [
        ("event-name", either(ctx, world.unique("fz deals "), 0.05)),
        ("event-game", either(ctx, rng.choice(("pyramid", "tripeaks", "triad")), 0.1)),
        ("event-format", either(ctx, rng.choice(("solitaire", "par_match", "swiss")), 0.1)),
        ("event-deal_count", either(ctx, rng.choice(("1", "5", "10", "", "0", "11")), 0.1)),
        ("event-window_minutes", either(ctx, rng.choice(("15", "60", "10080", "5")), 0.1)),
        ("event-max_entrants", either(ctx, rng.choice(("10", "1000", "3")), 0.1)),
        # Never a start within the run: an event that starts deals and seals its deals.
        ("event-starts_in", rng.choice(("10080", "1440", "", "-5", junk(ctx)))),
    ]
    return Req("/tournaments/new/solitaire/", fields)


def _tournament(ctx: Ctx, verb: str, own: bool) -> Req:
    pool = ctx.lane.tournaments_own if own else ctx.lane.tournaments_open
    assert pool is not None
    return Req(f"/tournaments/{some_id(ctx, pool.pick(ctx.rng))}/{verb}/", [])


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("signup", "anonymous", signup),
    Endpoint("login", "anonymous", login),
    Endpoint("logout", "fresh", logout),
    Endpoint("password_change", "password", password_change),
    Endpoint("password_reset", "anonymous", password_reset),
    Endpoint("password_reset_confirm", "browser", password_reset_confirm),
    Endpoint("edit_profile", "user", edit_profile),
    Endpoint("read_notices", "user", read_notices),
    Endpoint("set_language", "user", set_language),
    Endpoint("close_account", "user", close_account),
    Endpoint("follow", "user", lambda ctx: _follow(ctx, "follow")),
    Endpoint("unfollow", "user", lambda ctx: _follow(ctx, "unfollow")),
    Endpoint("block", "user", lambda ctx: _block(ctx, "block")),
    Endpoint("unblock", "user", lambda ctx: _block(ctx, "unblock")),
    Endpoint("report_person", "user", report_person),
    Endpoint("report_message", "user", report_message),
    Endpoint("new_game", "user", new_game),
    Endpoint("game_act", "user", game_act),
    Endpoint("game_undo", "user", game_undo),
    Endpoint("solo_matches", "user", solo_matches),
    Endpoint("solo_match_deal", "user", solo_match_deal),
    Endpoint("game_hint", "user", game_hint),
    Endpoint("game_continue", "user", game_continue),
    Endpoint("odds_switch", "user", odds_switch),
    Endpoint("game_import", "user", game_import),
    Endpoint("daily_play", "user", daily_play),
    Endpoint("table_create", "user", table_create),
    Endpoint("table_sit", "user", table_sit),
    Endpoint("table_leave", "user", table_leave),
    Endpoint("table_add_bot", "user", table_add_bot),
    Endpoint("table_remove_bot", "user", table_remove_bot),
    Endpoint("table_start", "user", table_start),
    Endpoint("table_rematch", "user", table_rematch),
    Endpoint("table_say", "user", table_say),
    Endpoint("table_chat_switch", "user", table_chat_switch),
    Endpoint("chat_visibility", "user", chat_visibility),
    Endpoint("tournament_say", "user", tournament_say),
    Endpoint("invitation_send", "user", invitation_send),
    Endpoint("invitation_accept", "user", lambda ctx: _invitation(ctx, "accept")),
    Endpoint("invitation_decline", "user", lambda ctx: _invitation(ctx, "decline")),
    Endpoint("invitation_cancel", "user", lambda ctx: _invitation(ctx, "cancel")),
    Endpoint("tournament_create", "user", tournament_create),
    Endpoint("tournament_create_solitaire", "user", tournament_create_solitaire),
    Endpoint("tournament_join", "user", lambda ctx: _tournament(ctx, "join", own=False)),
    Endpoint("tournament_withdraw", "user", lambda ctx: _tournament(ctx, "withdraw", own=False)),
    Endpoint("tournament_start", "user", lambda ctx: _tournament(ctx, "start", own=True)),
)

GET_ONLY = frozenset(
    {
        "home",
        "healthz",
        "rules",
        "play",
        "game",
        "game_solution",
        "game_odds",  # the meter's figure: GET only (a JSON-free htmx fragment), 405 otherwise
        "replay",
        "where_lost",
        "game_export",
        "daily_solution_replay",
        "daily",
        "daily_archive",
        "daily_detail",
        "leaderboards",
        "rating_board",
        "solo_match",
        "tables",
        "table",
        "table_join",
        "invitations",
        "invitation",
        "invite_person",
        "tournaments",
        "tournament",
        "tournament_series",
        "tournament_results_json",
        "tournament_results_csv",
        "tournament_matches_csv",
        "tournament_chat_log",
        "profile",
        "profile_ratings",  # the profile's ratings (an htmx section, or a page): GET only
        "followers",
        "following",
        "friends",
        "blocked_people",
        "your_turn",
        "account_data",
        "password_change_done",
        "password_reset_done",
        "password_reset_complete",
        "javascript-catalog",  # the scripts' messages of a language (issue 47)
        # The public JSON API is read-only: GET, and a JSON 405 for any other method.
        "api_user",
        "api_user_games",
        "api_leaderboard",
        "api_not_found",
    }
)
"""URL names that answer GET only (checked by ``uncovered``: a new POST view must be added)."""


def uncovered() -> list[str]:
    """Names of the site's URLs (admin aside) that are neither fuzzed here nor GET-only."""
    from django.urls import URLPattern, URLResolver, get_resolver

    names: set[str] = set()

    def walk(patterns: list[Any]) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.app_name != "admin":
                    walk(pattern.url_patterns)
            elif isinstance(pattern, URLPattern) and pattern.name:
                names.add(pattern.name)

    walk(get_resolver().url_patterns)
    return sorted(names - GET_ONLY - {e.name for e in ENDPOINTS})
