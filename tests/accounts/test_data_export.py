"""Downloading your data (issue 45): one JSON file, for the signed-in person only, with their
profile, ratings and history, every game they played as the site's own game file, their
notices, follows, blocks (theirs, never who blocked them), invitations and chat messages;
read a bounded number of rows at a time."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.test import Client

from accounts import data_export
from accounts.models import Block, Follow, Notice, User
from games.live import invitations, tables
from talk.models import Message
from tests.accounts.test_closing import person, rated_game, signed_in

pytestmark = pytest.mark.django_db


async def _collect(parts: AsyncIterator[bytes]) -> bytes:
    return b"".join([part async for part in parts])


def downloaded(client: Client) -> tuple[Any, dict[str, Any]]:
    response = client.get("/accounts/data/")
    assert response.status_code == 200 and response.streaming
    return response, json.loads(async_to_sync(_collect)(response.streaming_content))


def test_the_file_holds_everything_about_the_person_and_nothing_of_others() -> None:
    me, rival, fan, idol, foe = (person(f"{n}45x") for n in ("me", "rival", "fan", "idol", "foe"))
    me.bio = "Night owl"
    me.save()
    first, second = rated_game(me, rival), rated_game(rival, me)
    Message.objects.create(room=Message.Room.PLAYERS, table=first, user=me, text="gl <b>hf</b>")
    Message.objects.create(room=Message.Room.PLAYERS, table=first, user=rival, text="not mine")
    Follow.objects.create(follower=fan, followed=me)
    Follow.objects.create(follower=me, followed=idol)
    Block.objects.create(blocker=me, blocked=foe)
    Block.objects.create(blocker=idol, blocked=me)  # the blocked are never told
    Notice.objects.create(user=me, kind=Notice.Kind.RESULTS, text="You won the cup", key="k1")
    Notice.objects.create(user=rival, kind=Notice.Kind.RESULTS, text="not mine either", key="k1")
    table = tables.create_table(game="triad", creator=me, config={"hands": 1})
    invitations.invite(inviter=me, table_id=table.pk, invitee=fan)

    client = signed_in(me)
    response, data = downloaded(client)
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="capstone-{me.pk}-data.json"'
    assert "no-store" in response["Cache-Control"]

    assert data["format"] == "capstone-account-data"
    assert data["profile"]["username"] == "me45x" and data["profile"]["email"] == "me45x@example.com"
    assert data["profile"]["bio"] == "Night owl"
    assert [row["game"] for row in data["ratings"]] == ["triad"] and data["ratings"][0]["games"] == 2
    assert sorted(row["game_id"] for row in data["rating_history"]) == sorted(
        [first.record_id, second.record_id]
    )
    assert [row["text"] for row in data["notices"]] == ["You won the cup"]
    assert [row["username"] for row in data["following"]] == ["idol45x"]
    assert [row["username"] for row in data["followers"]] == ["fan45x"]
    assert [row["username"] for row in data["blocked"]] == ["foe45x"]
    assert "idol45x" not in json.dumps(data["blocked"])
    assert [(row["to"], row["status"]) for row in data["invitations_sent"]] == [("fan45x", "pending")]
    assert data["invitations_received"] == []
    assert [row["text"] for row in data["chat_messages"]] == ["gl <b>hf</b>"]
    # Every game, as the replay page's own download gives it.
    assert sorted(game["id"] for game in data["games"]) == sorted([first.record_id, second.record_id])
    for game in data["games"]:
        assert game["file"] == client.get(f"/games/{game['id']}/export.json").json()
        assert game["replay"] == f"/games/{game['id']}/replay/"
    # Only the person's own: another's download has none of it.
    other = json.dumps(downloaded(signed_in(rival))[1])
    assert "Night owl" not in other and "You won the cup" not in other and "gl <b>hf</b>" not in other


def test_the_file_is_read_a_bounded_number_of_rows_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reads of two games and two rows: the pieces join into the same document as one read."""
    me, rival = person("me45y"), person("rival45y")
    played = sorted(rated_game(me, rival).record_id for _ in range(3))
    table = tables.create_table(game="triad", creator=me, config={"hands": 1})
    for n in range(5):
        Message.objects.create(room=Message.Room.PLAYERS, table=table, user=me, text=f"line {n}")
    client = signed_in(me)
    whole = downloaded(client)[1]
    monkeypatch.setattr(data_export, "GAMES_A_READ", 2)
    monkeypatch.setattr(data_export, "ROWS_A_READ", 2)
    pieces = downloaded(client)[1]
    assert [game["id"] for game in pieces["games"]] == played
    assert [row["text"] for row in pieces["chat_messages"]] == [f"line {n}" for n in range(5)]
    whole.pop("exported_at"), pieces.pop("exported_at")
    assert pieces == whole


def test_a_visitor_has_no_data_to_download() -> None:
    response = Client().get("/accounts/data/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    assert signed_in(User.objects.create_user("nobody45z")).post("/accounts/data/").status_code == 405
