"""Issue 47: words the site's Python says, not its templates (the API's errors, a socket's
errors, a seat's name, the sign-up form's rule and messages, a replay's refusals), reach an
Italian reader in Italian; English readers keep their English."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from accounts.models import User
from games.core.errors import GameError
from games.core.moves import check_text
from games.models import Seat, Table
from games.replays import replays
from tests.accounts.test_notice_socket import open_socket, receive, tell
from tests.games.test_socket_limits import flood_until_closed
from tests.games.test_table_servers import session_cookie

ITALIAN = {"HTTP_ACCEPT_LANGUAGE": "it-IT,it;q=0.9"}


@pytest.fixture(autouse=True)
def own_rate_counters(settings: Any) -> None:
    """Rate-limit counters of this test only (the test Redis outlives the test database)."""
    settings.RATELIMIT_CACHE_PREFIX = f"rl-test-{uuid.uuid4().hex}:"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "italian"),
    [
        ("/api/nowhere", "Questo endpoint dell'API non esiste: vedi docs/api.md."),
        ("/api/users/nobody-here", "Nessun giocatore si chiama 'nobody-here'."),
        ("/api/leaderboards/triad?page=0", "page deve essere un numero intero da 1 in su."),
    ],
)
def test_the_apis_errors_in_italian(path: str, italian: str) -> None:
    answer = Client(**ITALIAN).get(path)
    assert answer.status_code in (400, 404) and answer.json() == {"error": italian}
    assert Client(**ITALIAN).post(path).json()["error"].startswith("Il metodo POST non è consentito")
    assert "Questo" not in Client(HTTP_ACCEPT_LANGUAGE="en").get(path).json()["error"]


def test_a_seat_is_named_in_each_readers_language_however_often_it_is_read() -> None:
    """A seat's name is kept on it (frames read it often), but only the username is: one seat
    drawn for an English and an Italian reader says "Empty seat" to one, "Posto libero" to the other."""
    table = Table(game="triad", config={})
    empty, bot = Seat(table=table, number=0), Seat(table=table, number=1, is_bot=True)
    with translation.override("en"):
        assert (empty.name, bot.name) == ("Empty seat", "Bot 2")
    with translation.override("it"):
        assert (empty.name, bot.name) == ("Posto libero", "Bot 2")
    empty.user = User(username="seated")
    with translation.override("it"):
        assert empty.name == "seated"


@pytest.mark.django_db
def test_sign_up_in_italian() -> None:
    User.objects.create_user("taken", "taken@example.com", "pw-long-enough-1")
    client = Client(**ITALIAN)
    form = client.get("/accounts/signup/").content.decode()
    assert "Da 3 a 20 caratteri: solo lettere, cifre e @ . + - _." in form
    answer = client.post(
        "/accounts/signup/",
        {
            "username": "Taken",
            "email": "t@example.com",
            "password1": "a-long-pass-22",
            "password2": "a-long-pass-22",
        },
    ).content.decode()
    assert "Questo nome utente è già preso" in answer
    welcomed = client.post(
        "/accounts/signup/",
        {
            "username": "nuova",
            "email": "n@example.com",
            "password1": "a-long-pass-22",
            "password2": "a-long-pass-22",
        },
        follow=True,
    ).content.decode()
    assert "Benvenuto su Capstone, nuova!" in welcomed


def test_a_moves_and_a_game_files_refusals_in_italian() -> None:
    with translation.override("it"):
        with pytest.raises(GameError, match="Una mossa è un breve testo come draw"):
            check_text("", "draw")
        with pytest.raises(replays.ImportError_, match="era atteso un oggetto JSON"):
            replays.parse_import("[1]")
        with pytest.raises(replays.ImportError_, match="al massimo per 8 livelli"):
            replays.parse_import("[" * 40 + "]" * 40)


@pytest.mark.django_db(transaction=True)
@pytest.mark.services
def test_the_notice_sockets_errors_in_its_persons_language(live_site: str) -> None:
    ann = User.objects.create_user("anna", "anna@example.com", "pw-long-enough-1", language="it")
    tell(ann, "table:7")
    with open_socket(live_site, session_cookie(ann)) as sock:
        receive(sock)
        sock.send("not json")
        assert receive(sock)["error"] == (
            "i frame devono essere oggetti JSON; nessun avviso è stato segnato come letto"
        )
        closing = flood_until_closed(sock, '{"type": "read", "ids": [999999]}', 3000)
    refused = [json.loads(reply) for reply in closing.replies if "troppi" in reply]
    assert refused and refused[0] == {"type": "error", "error": "troppi frame: rallenta"}
