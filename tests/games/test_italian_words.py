"""Issue 47: the games' own words reach each reader in their language: an engine's refusal
(worded by the site from the engine's template and values, never parsed back from English),
and a live table's narration of a move, said to an Italian and an English reader of the
same table each in their own language."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from config.asgi import application
from games.models import Action, GameRecord
from tests.games.table_moments import dealt_heads_up_triad
from tests.games.test_solitaire_views import HTMX, start
from tests.games.test_table_consumers import ORIGIN, seat_to_act

pytestmark = pytest.mark.django_db(transaction=True)


def italian(message: str) -> str:
    """The catalogue's Italian for an English message; one with none yet fails here."""
    with translation.override("it"):
        said = gettext(message)
    assert said != message, f"locale/it has no Italian for {message!r}"
    return said


def redeal(client: Client, record: GameRecord) -> str:
    response = client.post(f"/games/{record.pk}/act/", {"action": "redeal", "version": 0}, **HTMX)
    return response.content.decode()


def test_an_engine_refusal_reaches_an_italian_player_in_italian() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    record = start(client)  # Pyramid, 7 rows: 24 cards in the stock
    body = redeal(client, record)
    template = "the stock still holds %(count)s cards: redeal only when it is empty"
    refusal = italian(template) % {"count": 24}
    assert "is-error" in body
    assert refusal[:1].upper() + refusal[1:] + "." in body
    assert "the stock still holds" not in body
    record.refresh_from_db()
    assert record.version == 0 and not Action.objects.filter(game=record).exists()
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.cookies = client.cookies  # the same player, reading English now
    body = redeal(english, record)
    assert "The stock still holds 24 cards: redeal only when it is empty." in body


def latest_moves(frame: str) -> list[str]:
    log = re.search(r'data-testid="table-log">(.*?)</section>', frame, re.S)
    assert log is not None, frame[-3000:]
    return re.findall(r"<li data-seq=\"\d+\"[^>]*>(.*?)</li>", log.group(1), re.S)


async def reader(table_id: int, language: bytes, client: Any = None) -> WebsocketCommunicator:
    headers = [ORIGIN, (b"accept-language", language)]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    await communicator.receive_from()  # the table as it stands
    return communicator


async def test_two_readers_of_one_table_read_the_same_move_each_in_their_language(async_client: Any) -> None:
    table, alice, bob = await sync_to_async(dealt_heads_up_triad)()
    mover = alice if await seat_to_act(table) == 0 else bob
    await async_client.aforce_login(mover)
    player = await reader(table.pk, b"en", async_client)
    italian_reader, english_reader = await reader(table.pk, b"it"), await reader(table.pk, b"en")

    await player.send_to(text_data=json.dumps({"action": "check", "version": "0"}))
    italian_frame = await italian_reader.receive_from(timeout=5)
    english_frame = await english_reader.receive_from(timeout=5)

    assert latest_moves(english_frame) == [f"{mover.username} checks"]
    assert latest_moves(italian_frame) == [italian("%(who)s checks") % {"who": mover.username}]
    assert italian("Latest moves") in italian_frame and "Latest moves" not in italian_frame
    # Said once per language, and kept: a reader of either language hears the move again alike.
    record = await sync_to_async(GameRecord.objects.get)(pk=table.record_id)
    assert record.version == 1
    for communicator in (player, italian_reader, english_reader):
        await communicator.disconnect()


async def test_a_refused_move_at_a_table_is_said_in_the_movers_language(async_client: Any) -> None:
    table, alice, bob = await sync_to_async(dealt_heads_up_triad)()
    seat = await seat_to_act(table)
    await async_client.aforce_login(alice if seat == 0 else bob)
    player = await reader(table.pk, b"it", async_client)

    await player.send_to(text_data=json.dumps({"action": "call", "version": "0"}))  # no bet to call yet
    frame = await player.receive_from(timeout=5)

    said = italian("seat %(seat)s has nothing to call; check instead") % {"seat": seat}
    assert said[:1].upper() + said[1:] + "." in frame
    assert "nothing to call" not in frame
    await player.disconnect()
