"""LP-9 private tables: listed nowhere, reached by their link, and refused to everyone else
exactly as a table that does not exist (page, seats, socket, replay)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from accounts.models import User
from config.asgi import application
from games.core import finishes
from games.live import table_access, tables
from games.models import Seat, Table
from tests.games.table_moments import build_table, find_game

ORIGIN = (b"origin", b"http://127.0.0.1:8000")
PASSWORD = "pw-long-enough-1"


def person(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", PASSWORD)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def private_triad(creator: User) -> Table:
    return tables.create_table(game="triad", creator=creator, config={"players": 2}, private=True)


def link(table: Table) -> str:
    assert table.private_key is not None
    return reverse("table_join", args=[table.private_key])


def same_page(a: Any, b: Any, path_a: str, path_b: str) -> bool:
    """Whether two responses are one page but for their address and per-request CSRF masks."""

    def shape(response: Any, path: str) -> str:
        return re.sub(r"[A-Za-z0-9]{64}", "T", response.content.decode().replace(path, "P"))

    return bool(a.status_code == b.status_code and shape(a, path_a) == shape(b, path_b))


def finished_game(alice: User, bob: User, *, private: bool = True) -> Table:
    config = {"players": 2, "hands": 1}
    seed, actions = find_game("triad", config, lambda e, s, a: e.current_player(s) is None)
    table = build_table("triad", config, {0: alice, 1: bob}, seed, actions)
    assert table.record is not None
    finishes.sync(table.record)  # its players' rows, now that the game is the table's
    if private:
        table.private_key = table_access.new_key()
        table.save(update_fields=["private_key"])
    return table


@pytest.mark.django_db
def test_the_form_opens_a_private_table_whose_page_gives_its_link() -> None:
    """LP-9: the lobby's form makes a private table; its creator's page shows the link to copy."""
    alice = person("alice")
    client = signed_in(alice)
    response = client.post(
        reverse("table_create"), {"game": "triad", "clock_seconds": 30, "triad_players": 2, "private": "on"}
    )
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert table.is_private and table.private_key is not None and len(table.private_key) >= 22
    page = client.get(table.get_absolute_url()).content.decode()
    field = re.search(r'id="private-link-field"[^>]*value="([^"]+)"', page)
    assert field is not None and field.group(1) == "http://testserver" + link(table)
    assert "Private table" in client.get(reverse("tables")).content.decode()  # the checkbox


@pytest.mark.django_db
def test_a_table_opened_without_the_box_is_public_as_before() -> None:
    alice = person("alice")
    client = signed_in(alice)
    client.post(reverse("table_create"), {"game": "triad", "clock_seconds": 30, "triad_players": 2})
    table = Table.objects.get()
    assert not table.is_private
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'data-testid="private-link"' not in page
    assert table.get_absolute_url() in Client().get(reverse("tables")).content.decode()
    assert Client().get(table.get_absolute_url()).status_code == 200


@pytest.mark.django_db
def test_a_private_table_is_not_in_the_lobby_nor_its_key_anywhere_public() -> None:
    alice = person("alice")
    public = tables.create_table(game="triad", creator=alice, config={"players": 2})
    private = private_triad(alice)
    assert private.private_key is not None
    lobby = Client().get(reverse("tables")).content.decode()
    assert public.get_absolute_url() in lobby
    assert private.get_absolute_url() not in lobby and private.private_key not in lobby
    # Its own creator's lobby does not list it either: the link is on the table's page.
    assert private.get_absolute_url() not in signed_in(alice).get(reverse("tables")).content.decode()


@pytest.mark.django_db
def test_a_stranger_gets_the_404_of_a_table_that_does_not_exist() -> None:
    alice, mallory = person("alice"), person("mallory")
    table = private_triad(alice)
    stranger = signed_in(mallory)
    nowhere = reverse("table", args=[table.pk + 1000])
    missing, hidden = stranger.get(nowhere), stranger.get(table.get_absolute_url())
    assert hidden.status_code == 404 and same_page(hidden, missing, table.get_absolute_url(), nowhere)
    assert Client().get(table.get_absolute_url()).status_code == 404

    sat = stranger.post(reverse("table_sit", args=[table.pk]), follow=True)
    assert not Seat.objects.filter(table=table, user=mallory).exists()
    gone = stranger.post(reverse("table_sit", args=[table.pk + 1000]), follow=True)
    assert sat.status_code == 404 and same_page(sat, gone, table.get_absolute_url(), nowhere)
    htmx = stranger.post(reverse("table_sit", args=[table.pk]), headers={"HX-Request": "true"})
    assert htmx.status_code == 204 and not Seat.objects.filter(table=table, user=mallory).exists()


@pytest.mark.django_db
def test_the_link_lets_a_person_watch_and_sit_and_the_session_remembers_it() -> None:
    alice, bob = person("alice"), person("bob")
    table = private_triad(alice)
    client = signed_in(bob)
    response = client.get(link(table))
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    page = client.get(table.get_absolute_url())  # no key in this address: the session has it
    assert page.status_code == 200
    assert 'data-testid="private-link"' not in page.content.decode()  # a spectator: no copy box
    assert client.post(reverse("table_sit", args=[table.pk])).status_code == 302
    assert Seat.objects.filter(table=table, user=bob).exists()
    seated = client.get(table.get_absolute_url()).content.decode()
    assert 'data-testid="private-link"' in seated  # a player may pass the link on
    # Anyone with the link may watch, signed in or not; logging in keeps what the session knew.
    anonymous = Client()
    anonymous.get(link(table))
    assert anonymous.get(table.get_absolute_url()).status_code == 200
    carol = person("carol")
    anonymous.post(reverse("login"), {"username": "carol", "password": PASSWORD})
    assert anonymous.session.get("_auth_user_id") == str(carol.pk)
    assert anonymous.get(table.get_absolute_url()).status_code == 200


@pytest.mark.django_db
def test_a_wrong_or_forged_key_opens_nothing() -> None:
    alice, mallory = person("alice"), person("mallory")
    table = private_triad(alice)
    other = private_triad(person("zed"))
    assert table.private_key is not None and other.private_key is not None
    client = signed_in(mallory)
    forged = [
        table.private_key[:-1] + ("A" if table.private_key[-1] != "A" else "B"),
        table.private_key.upper() if table.private_key.upper() != table.private_key else "x" * 32,
        str(table.pk),
        "x" * 500,
    ]
    for key in forged:
        assert client.get(reverse("table_join", args=[key])).status_code == 404
    assert client.get(f"{table.get_absolute_url()}?key={table.private_key}").status_code == 404
    assert client.get(table.get_absolute_url()).status_code == 404
    # Another table's link opens that table only.
    client.get(link(other))
    assert client.get(other.get_absolute_url()).status_code == 200
    assert client.get(table.get_absolute_url()).status_code == 404
    assert table.pk not in client.session.get(table_access.SESSION_KEY, [])


@pytest.mark.django_db
def test_keys_are_long_random_and_not_made_from_the_id() -> None:
    alice = person("alice")
    made = [private_triad(alice) for _ in range(5)]
    keys = [table.private_key for table in made]
    assert len(set(keys)) == len(keys)
    for key in keys:
        assert key is not None and len(key) >= 22 and re.fullmatch(r"[A-Za-z0-9_-]+", key)
    assert tables.create_table(game="triad", creator=alice, config={"players": 2}).private_key is None


@pytest.mark.django_db
def test_a_finished_private_game_is_replayed_by_its_players_and_the_link_only() -> None:
    alice, bob, mallory = person("alice"), person("bob"), person("mallory")
    table = finished_game(alice, bob)
    assert table.record is not None
    replay = reverse("replay", args=[table.record.pk])
    export = reverse("game_export", args=[table.record.pk])
    assert signed_in(alice).get(replay).status_code == 200
    assert signed_in(bob).get(export).status_code == 200
    stranger = signed_in(mallory)
    nowhere = reverse("replay", args=[table.record.pk + 1000])
    missing, hidden = stranger.get(nowhere), stranger.get(replay)
    assert hidden.status_code == 404 and same_page(hidden, missing, replay, nowhere)
    assert stranger.get(export).status_code == 404
    asked = stranger.post(reverse("table_rematch", args=[table.pk]), follow=True)
    nobody = stranger.post(reverse("table_rematch", args=[table.pk + 1000]), follow=True)
    assert asked.redirect_chain == nobody.redirect_chain == [(reverse("tables"), 302)]
    told = [[str(m) for m in response.context["messages"]] for response in (asked, nobody)]
    assert told[0] == told[1] == ["There is no such table."]  # as if it were not there
    assert not Table.objects.filter(rematch_of=table).exists()
    assert Client().get(replay).status_code == 404
    stranger.get(link(table))
    assert stranger.get(replay).status_code == 200


@pytest.mark.django_db
def test_a_private_game_is_in_no_public_list_of_games() -> None:
    """The API's and the profile's lists of a person's games leave a private table's out."""
    alice, bob = person("alice"), person("bob")
    public, table = finished_game(alice, bob, private=False), finished_game(alice, bob)
    assert public.record is not None and table.record is not None and table.private_key is not None
    games = Client().get("/api/users/alice/games")
    assert games.status_code == 200
    body = games.content.decode()
    assert [game["id"] for game in json.loads(body)["games"]] == [public.record.pk]
    assert table.private_key not in body
    profile = Client().get(reverse("profile", args=["alice"])).content.decode()
    assert reverse("replay", args=[public.record.pk]) in profile
    assert reverse("replay", args=[table.record.pk]) not in profile


@pytest.mark.django_db
def test_the_rematch_of_a_private_table_is_private_and_open_to_its_players() -> None:
    alice, bob = person("alice"), person("bob")
    old = finished_game(alice, bob)
    new = tables.rematch(table_id=old.pk, user=alice)
    assert new.is_private and new.private_key not in (None, old.private_key)
    assert signed_in(bob).get(new.get_absolute_url()).status_code == 200  # asked to it
    assert signed_in(person("mallory")).get(new.get_absolute_url()).status_code == 404
    assert new.get_absolute_url() not in Client().get(reverse("tables")).content.decode()


# The sockets, through the real ASGI stack and the Redis channel layer.


def _cookie(client: Client) -> tuple[bytes, bytes]:
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


async def _table_socket(table_id: int, client: Client | None = None) -> WebsocketCommunicator:
    headers = [ORIGIN] if client is None else [ORIGIN, _cookie(client)]
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def _closed_code(communicator: WebsocketCommunicator) -> int | None:
    message: dict[str, Any] = await communicator.receive_output(timeout=5)
    await communicator.wait()
    return message.get("code") if message["type"] == "websocket.close" else None


@pytest.mark.django_db(transaction=True)
async def test_the_socket_refuses_a_stranger_as_an_unknown_table_and_serves_the_link() -> None:
    alice = await sync_to_async(person)("alice")
    mallory = await sync_to_async(person)("mallory")
    table = await sync_to_async(private_triad)(alice)
    stranger = await sync_to_async(signed_in)(mallory)

    assert await _closed_code(await _table_socket(table.pk + 1000, stranger)) == 4404
    assert await _closed_code(await _table_socket(table.pk, stranger)) == 4404
    assert await _closed_code(await _table_socket(table.pk)) == 4404

    await sync_to_async(stranger.get)(link(table))
    watching = await _table_socket(table.pk, stranger)
    frame = await watching.receive_from(timeout=5)
    assert table.private_key is not None
    assert 'id="table-live"' in frame and table.private_key not in frame
    await watching.disconnect()
    creator = await _table_socket(table.pk, await sync_to_async(signed_in)(alice))
    assert 'id="table-live"' in await creator.receive_from(timeout=5)
    await creator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_never_draws_a_private_table() -> None:
    alice = await sync_to_async(person)("alice")
    lobby = WebsocketCommunicator(application, "/ws/lobby/", headers=[ORIGIN])
    assert (await lobby.connect())[0]
    private = await sync_to_async(private_triad)(alice)
    drawn = await lobby.receive_from(timeout=5)  # its opening announced: the list drawn again
    assert private.get_absolute_url() not in drawn
    assert private.private_key is not None and private.private_key not in drawn
    public = await sync_to_async(tables.create_table)(game="triad", creator=alice, config={"players": 2})
    for _ in range(3):  # the list is drawn again after each announcement, spaced
        drawn = await lobby.receive_from(timeout=5)
        if public.get_absolute_url() in drawn:
            break
    assert public.get_absolute_url() in drawn and private.get_absolute_url() not in drawn
    await sync_to_async(tables.sit)(table_id=private.pk, user=await sync_to_async(person)("bob"))
    drawn = await lobby.receive_from(timeout=5)
    assert private.get_absolute_url() not in drawn
    await lobby.disconnect()
