"""Frames for the fuzzed WebSockets, and what their answers are.

Each maker returns ``(data, text)``: ``data`` is ``str`` or ``bytes``, ``text`` whether
it goes in a text frame (bytes in a text frame are invalid UTF-8 on purpose).
"""

from __future__ import annotations

import json
import random
import urllib.parse

from tests.faults.frames import Frame, choose
from tests.fuzz import inputs

Data = tuple[str | bytes, bool]


def protocol_abuse(rng: random.Random) -> Data | None:
    """Rarely: a frame the WebSocket layer itself must refuse (the socket then closes)."""
    roll = rng.random()
    if roll < 0.004:
        return b"\xff\xfe{not utf-8}" + inputs.random_bytes(rng, 20), True  # 1007
    if roll < 0.006:
        return "x" * (1024 * 1024 + 10), True  # over daphne's 1 MiB message limit: 1009
    return None


def common(rng: random.Random) -> Data:
    """Anything at all: a value, deep nesting, not JSON, binary, big."""
    roll = rng.random()
    if roll < 0.25:
        return inputs.dumps(inputs.value(rng)), False
    if roll < 0.4:
        return inputs.nested(rng), False
    if roll < 0.6:
        return inputs.text(rng, 80), False
    if roll < 0.75:
        return inputs.random_bytes(rng), False
    if roll < 0.8:
        return inputs.dumps(inputs.value(rng)).encode(), False  # JSON, but in a binary frame
    if roll < 0.9:
        return json.dumps({inputs.text(rng, 8): inputs.text(rng, 4000)}), False
    return "".join(rng.choice("[{\"'}]:,\\ ") for _ in range(rng.randint(1, 200))), False


def ping(rng: random.Random) -> Data:
    abuse = protocol_abuse(rng)
    if abuse:
        return abuse
    roll = rng.random()
    if roll < 0.3:
        return inputs.dumps({"type": "ping", "echo": inputs.value(rng)}), False
    if roll < 0.45:
        return inputs.dumps({"type": inputs.value(rng), "echo": inputs.value(rng)}), False
    return common(rng)


def lobby(rng: random.Random) -> Data:
    return protocol_abuse(rng) or common(rng)


CHAT_SAID = (
    "good game",
    "<script>alert(1)</script>",
    "<a href='javascript:alert(1)'>x</a>",
    "\u202eevil\u200b\u200d",
    "x" * 301,
    "",
    "a\x00b",
)
CHAT_ROOMS: tuple[object, ...] = ("players", "players", "spectators", "tournament", "", None, 1, [], {"a": 1})


def chat(rng: random.Random) -> Data:
    """A chat frame (LP-10): words or a preset's key, well formed or not, in any room."""
    message: dict[str, object] = {}
    if rng.random() < 0.3:
        message["preset"] = (
            rng.choice(("gg", "gl", "wp", "thanks", "hello", "GG", ""))
            if rng.random() < 0.8
            else inputs.value(rng)
        )
    else:
        message["chat"] = rng.choice(CHAT_SAID) if rng.random() < 0.6 else inputs.value(rng)
        if isinstance(message["chat"], str) and rng.random() < 0.2:
            message["chat"] = inputs.text(rng, 400)
    if rng.random() < 0.8:
        message["room"] = rng.choice(CHAT_ROOMS)
    return inputs.dumps(message), False


def table(rng: random.Random, last: Frame | None, player: bool) -> Data:
    """A player's frames include the legal moves of their last frame (so games go on),
    moves with a wrong version, and messages with the right keys and wrong values."""
    abuse = protocol_abuse(rng)
    if abuse:
        return abuse
    if rng.random() < 0.12:
        return chat(rng)
    version = last.version if last is not None and last.version is not None else 0
    roll = rng.random()
    if roll < 0.25 and last is not None:
        move = choose(last, rng) if player else None
        move = move or {"action": rng.choice(("check", "fold", "take 0,0", "place 0,0", "hand 1"))}
        move.setdefault("version", str(version))
        return inputs.dumps(move), False
    if roll < 0.35:
        wrong = rng.choice((version - 1, version + 1, -1, 10**30, "", "x", 1.5, None, [], {}))
        return inputs.dumps({"action": "check", "version": wrong}), False
    if roll < 0.55:
        message: dict[str, object] = {"action": inputs.value(rng), "version": inputs.value(rng)}
        for key in ("amount", "discard"):
            if rng.random() < 0.4:
                message[key] = inputs.value(rng)
        if rng.random() < 0.3:
            message["action"] = rng.choice(("bet", "raise", "discard"))
        return inputs.dumps(message), False
    if roll < 0.6:
        edge = rng.choice(
            (
                {"action": "bet", "amount": float("inf"), "version": str(version)},
                {"action": "raise", "amount": 1e300, "version": str(version)},
                {"action": "bet", "amount": "9" * 5000, "version": str(version)},
                {"action": "check", "version": float("inf")},
                {"action": "check", "version": float("nan")},
                {"action": "discard", "discard": ["x"] * 100, "version": str(version)},
                {"action": "discard", "discard": {"a": 1}, "version": str(version)},
                {"action": "\ud800", "version": str(version)},
                {"action": "a\x00b", "version": str(version)},
                {"action": "check " * 12, "version": str(version)},
            )
        )
        return inputs.dumps(edge), False
    return common(rng)


BAD_NOTICE_IDS: tuple[object, ...] = (
    0,
    -1,
    2**63,  # one past the largest id a notice can have (a bigint's)
    2**64,
    10**30,
    -(2**63) - 1,
    1.0,
    1.5,
    float("nan"),
    True,
    None,
    "1",
    "all",
    [1],
    {},
)
"""What a "read" frame's list of ids must not hold."""
BAD_IDS: tuple[object, ...] = (0, 1, 2**63, 1.5, True, None, "1", "ALL", "", [], {}, {"all": True}, [[1]])
"""What a "read" frame's ids must not be (a list of notice ids or "all")."""


def notice_id(rng: random.Random, own: list[int]) -> int:
    """An id a "read" frame may carry: the person's own notice, anyone's, or the largest."""
    roll = rng.random()
    if own and roll < 0.3:
        return rng.choice(own)
    if roll < 0.5:
        return rng.choice((1, 2**31, 2**63 - 1))
    return rng.randint(1, 10**6)


PRESENCE_TABLES = (
    "1",
    "2",
    "999999999",
    str(2**63 - 1),
    str(2**63),
    "0",
    "-1",
    "9" * 40,
    "x",
    "",
    "\u0661",  # an Arabic-Indic digit one: str.isdigit says yes, the site must say no
    "%ff",
)


def presence_query(rng: random.Random) -> str:
    """The notice socket's query string: as a table's page sends it (``?table=12``), none, or
    forged (accounts.presence.table_in_query reads any as "no table")."""
    roll = rng.random()
    if roll < 0.5:
        return ""
    if roll < 0.9:
        return "?table=" + rng.choice(PRESENCE_TABLES)
    return "?" + urllib.parse.quote(inputs.text(rng, 40).encode("utf-8", "surrogatepass"), safe="=&%")


def table_query(rng: random.Random) -> str:
    """A table socket's query string without ``seen``/``me`` (so the table is always sent
    first): none, the newest chat message its page shows (``?said=12``, games.live.consumers:
    the messages since then are sent), or forged."""
    roll = rng.random()
    if roll < 0.6:
        return ""
    if roll < 0.9:
        said = rng.choice(("0", "1", "-1", str(2**63), "1e9", "", "x", "0&said=1"))
        return "?said=" + said
    return "?" + urllib.parse.quote(inputs.text(rng, 40).encode("utf-8", "surrogatepass"), safe="=&%")


def notices(rng: random.Random, own: list[int]) -> tuple[str | bytes, bool, bool]:
    """``(data, text, answered)``: the notice socket answers every frame but a well-formed
    "read" of at most 1 KB, which marks what it names read and is answered, by a "read" frame
    to each of the person's pages, only when that changed something (accounts/consumers.py).
    ``own``: ids of the person's own notices."""
    abuse = protocol_abuse(rng)
    if abuse:
        return (*abuse, True)
    if rng.random() < 0.1:
        # The heartbeat: taken quietly when exact, answered as an error when not.
        if rng.random() < 0.7:
            return '{"type": "here"}', False, False
        here: dict[str, object] = {"type": "here", inputs.text(rng, 8): inputs.value(rng)}
        return inputs.dumps(here), False, True
    roll = rng.random()
    if roll < 0.15:
        ids: object = [notice_id(rng, own) for _ in range(rng.randint(1, 50))]
        if rng.random() < 0.1:
            ids = "all"
        read = inputs.dumps({"type": "read", "ids": ids})
        return read, False, len(read) > 1024
    message: dict[str, object] = {"type": "read"}
    if roll < 0.45:
        good = [notice_id(rng, own) for _ in range(rng.randint(0, 5))]
        good.insert(rng.randint(0, len(good)), rng.choice(BAD_NOTICE_IDS))
        message["ids"] = good
    elif roll < 0.5:
        message["ids"] = [notice_id(rng, own) for _ in range(rng.choice((0, 51, 1000)))]
    elif roll < 0.6:
        message["ids"] = rng.choice(BAD_IDS)
    elif roll < 0.7:
        message = {"type": inputs.value(rng), "ids": "all"}
        if rng.random() < 0.5:
            message[inputs.text(rng, 8)] = inputs.value(rng)
    else:
        return (*common(rng), True)
    return inputs.dumps(message), False, True


def classify(kind: str, answer: str | bytes) -> str:
    """What a server frame was: ``limited`` (a rate-limit notice), or the kind of answer."""
    text = answer.decode("utf-8", "replace") if isinstance(answer, bytes) else answer
    if kind in ("ping", "notices"):
        try:
            data = json.loads(text)
        except ValueError:
            return "not JSON"
        if not isinstance(data, dict):
            return "not an object"
        if data.get("type") == "error" and "too many" in str(data.get("error")):
            return "limited"
        return str(data.get("type"))
    if 'data-testid="too-fast"' in text:
        return "limited"
    if kind == "lobby":
        return "lobby"
    if 'id="table-live"' not in text:
        return "notice"  # a short answer instead of the table (a spectator's frame, say)
    return "table error" if 'data-testid="table-error"' in text else "table"
