"""Bad input never escapes: deep JSON in a WebSocket frame or a game file is refused with
a clear message, never a crash (before, a socket closed with 1011 and an import answered 500).

``web.safe_json`` is checked on its own first (pure); then the import page through
Django's test client, and every socket through the real daphne.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from games.core.players import Player
from games.engine import get_engine
from games.models import Action, GameRecord
from games.replays.replays import IMPORT_DEPTH
from games.solitaire import services
from tests.games.test_table_servers import heads_up, mover_and_move, session_cookie, version_of
from web import safe_json
from web.consumers import FRAME_DEPTH

DEEP = "[" * 100_000

# safe_json


def depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((depth(item) for item in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth(item) for item in value.values()), default=0)
    return 0


# JSON has no Infinity or NaN (Python writes them; safe_json refuses them).
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=30,
)


@given(json_values, st.integers(0, 8))
def test_reads_what_json_reads_up_to_the_depth_and_refuses_deeper(value: Any, max_depth: int) -> None:
    text = json.dumps(value, ensure_ascii=False)
    if depth(value) <= max_depth:
        assert safe_json.loads(text, max_depth=max_depth) == json.loads(text)
    else:
        with pytest.raises(safe_json.TooDeeplyNested, match=f"at most {max_depth} levels"):
            safe_json.loads(text, max_depth=max_depth)


@pytest.mark.parametrize(
    "text",
    [
        '"[[[[[[[[[["',  # brackets inside a string are text
        '["\\"[[[[[[[[[["]',  # ... after an escaped quote too
        '{"a": "]]]]", "b": [1]}',
        '"\\\\"',
    ],
)
def test_brackets_inside_strings_do_not_count(text: str) -> None:
    assert safe_json.loads(text, max_depth=2) == json.loads(text)


@pytest.mark.parametrize(
    "text", [DEEP, "{" + '"a":{' * 50_000, "]" * 10 + "[" * 50_000, '["x", ' * 50_000, DEEP.encode()]
)
def test_deep_or_broken_nesting_is_a_value_error_never_a_recursion_error(text: str | bytes) -> None:
    with pytest.raises(ValueError):
        safe_json.loads(text, max_depth=32)


def test_an_unterminated_string_hides_no_bracket() -> None:
    with pytest.raises(json.JSONDecodeError):
        safe_json.loads('["never closed ' + "[" * 100, max_depth=3)


# Importing a game file


def import_page(client: Client, **data: Any) -> tuple[int, str]:
    response = client.post("/games/import/", data)
    return response.status_code, response.content.decode()


def game_file(game: str, **fields: Any) -> str:
    data = {"game": game, "engine_version": get_engine(game).version, "config": {}, "seed": 1, "actions": []}
    return json.dumps({**data, **fields})


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("make_text", "words"),
    [
        (lambda: DEEP, f"at most {IMPORT_DEPTH} levels"),
        (lambda: '{"game": ' * 20_000, f"at most {IMPORT_DEPTH} levels"),
        (lambda: "1" * 10_000, "not valid JSON"),
        (lambda: game_file("pyramid", deck=5), "&#x27;deck&#x27; must be a list of card texts"),
        (lambda: game_file("triad", actions=["bet \u00b3"]), "Move 1"),
    ],
    ids=["deep-array", "deep-object", "huge-number", "deck-not-a-list", "superscript-bet"],
)
def test_a_bad_game_file_is_answered_400_with_a_clear_message(
    client: Client, make_text: Any, words: str
) -> None:
    status, body = import_page(client, text=make_text())
    assert status == 400
    assert 'data-testid="import-error"' in body and words in body
    assert not GameRecord.objects.filter(kind=GameRecord.Kind.IMPORTED).exists()


@pytest.mark.django_db
def test_a_deep_uploaded_file_is_answered_400(client: Client) -> None:
    status, body = import_page(client, file=SimpleUploadedFile("game.json", DEEP.encode()))
    assert status == 400 and f"at most {IMPORT_DEPTH} levels" in body


# Sockets, through the real daphne


def open_socket(live_site: str, path: str, cookie: str | None = None) -> ClientConnection:
    headers = {"Cookie": cookie} if cookie else {}
    return connect(live_site.replace("http://", "ws://") + path, origin=live_site, additional_headers=headers)


DEEP_FRAME = "[" * 4000  # under the table socket's 4 KB, so only the nesting refuses it


@pytest.mark.django_db(transaction=True)
@pytest.mark.services
def test_deep_frames_get_an_error_frame_and_the_sockets_stay_open(live_site: str) -> None:
    table, alice, bob = heads_up()
    mover, move = mover_and_move(table, alice, bob)
    with open_socket(live_site, f"/ws/tables/{table.pk}/", session_cookie(mover)) as seat:
        assert version_of(str(seat.recv(timeout=15))) == 0
        seat.send(DEEP_FRAME)
        reply = str(seat.recv(timeout=15))
        assert 'data-testid="table-error"' in reply and f"at most {FRAME_DEPTH} levels" in reply
        assert not Action.objects.exists()
        seat.send(json.dumps({"action": move, "version": "0"}))  # still open, still playing
        assert version_of(str(seat.recv(timeout=15))) == 1

    with open_socket(live_site, "/ws/ping/") as ping:
        ping.send(DEEP_FRAME)
        error = json.loads(ping.recv(timeout=15))
        assert error["type"] == "error" and f"at most {FRAME_DEPTH} levels" in error["error"]
        ping.send(json.dumps({"type": "ping"}))
        assert json.loads(ping.recv(timeout=15))["type"] == "pong"

    with open_socket(live_site, "/ws/lobby/") as lobby:  # its frames are never parsed: any asks for the list
        lobby.send(DEEP_FRAME)
        assert 'id="lobby-tables"' in str(lobby.recv(timeout=15))


@pytest.mark.parametrize("text", ['{"a": Infinity}', '{"a": -Infinity}', '{"a": NaN}', '{"a": 1e400}'])
def test_numbers_json_does_not_have_are_a_value_error(text: str) -> None:
    with pytest.raises(ValueError, match="number"):
        safe_json.loads(text)


@pytest.mark.django_db(transaction=True)
@pytest.mark.services
def test_infinite_numbers_in_a_frame_get_an_error_frame_and_play_nothing(live_site: str) -> None:
    """Found by `make fuzz`: int() of Infinity raised OverflowError and closed the socket with 1011."""
    table, alice, bob = heads_up()
    mover, move = mover_and_move(table, alice, bob)
    with open_socket(live_site, f"/ws/tables/{table.pk}/", session_cookie(mover)) as seat:
        assert version_of(str(seat.recv(timeout=15))) == 0
        for frame in (
            '{"action": "bet", "amount": Infinity, "version": "0"}',
            '{"action": "check", "version": Infinity}',
            '{"action": "bet", "amount": 1e400, "version": "0"}',
        ):
            seat.send(frame)
            assert 'data-testid="table-error"' in str(seat.recv(timeout=15)), frame
        assert not Action.objects.exists()
        seat.send(json.dumps({"action": move, "version": "0"}))
        assert version_of(str(seat.recv(timeout=15))) == 1


FORGED_NUMBERS = ["\u00b2", "\u0663", "1" * 5000, "-1", "12a"]


@pytest.mark.django_db
@pytest.mark.parametrize("forged", FORGED_NUMBERS)
def test_forged_numbers_in_forms_and_addresses_are_never_a_500(client: Client, forged: str) -> None:
    """Found by `make fuzz`: str.isdigit accepts superscripts and other scripts' digits, which
    int() refuses, and int() refuses thousands of digits."""
    from django.contrib.auth import get_user_model

    from games.live import tables

    alice = get_user_model().objects.create_user("alice", "a@example.com", "pw-long-enough-1")
    client.force_login(alice)
    table = tables.create_table(game="triad", creator=alice, config={"players": 3})
    for action in ("bot", "unbot", "leave", "sit"):
        response = client.post(f"/tables/{table.pk}/{action}/", {"seat": forged})
        assert response.status_code < 500, (action, response.status_code)
    assert client.get(f"/play/pyramid/?deal={forged}").status_code == 200
    record = services.start_solitaire(game="pyramid", player=Player(user=alice, token=""), seed=7)
    client.post(f"/games/{record.pk}/act/", {"action": "resign", "version": "0"})
    assert client.get(f"/games/{record.pk}/replay/?step={forged}").status_code == 200
    assert client.post(f"/games/{record.pk}/continue/", {"step": forged}).status_code == 302
