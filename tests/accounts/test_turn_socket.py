"""The header's "Your turn (3)" kept live over the notice socket (LP-8), against the real daphne
and Redis: the socket's first frame says how many games wait, a turn reaching the person brings
the notice and the new count, and the count falls when they move."""

from __future__ import annotations

import pytest

from accounts.models import Notice
from games.models import Turn
from tests.accounts.test_notice_socket import open_socket, receive
from tests.accounts.turn_support import game_waiting_for, person, play_one
from tests.games.test_table_servers import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def test_the_count_follows_the_turns_reaching_the_person_and_leaving(live_site: str) -> None:
    alice, bob = person("alice"), person("bob")
    game_waiting_for(alice, bob)
    with (
        open_socket(live_site, session_cookie(alice)) as hers,
        open_socket(live_site, session_cookie(bob)) as his,
    ):
        sync = receive(hers)
        assert (sync["type"], sync["unread"], sync["turns"]) == ("sync", 1, 1)
        assert receive(his)["turns"] == 0

        table = game_waiting_for(alice, bob)  # a second game's turn reaches her
        notice = receive(hers)
        assert notice["type"] == "notice" and notice["notice"]["text"] == "Your move against bob in Triad"
        assert notice["notice"]["url"] == table.get_absolute_url()
        assert receive(hers) == {"type": "turns", "count": 2}
        assert receive(his) == {"type": "turns", "count": 0}

        play_one(table, alice)  # the turn leaves her: her notice of it is read, bob's arrives
        assert Turn.objects.get(table=table).user == bob
        read = Notice.objects.get(user=alice, url=table.get_absolute_url())
        assert receive(hers) == {"type": "read", "ids": [read.pk], "unread": 1}
        assert receive(hers) == {"type": "turns", "count": 1}
        assert receive(his)["type"] == "notice"
        assert receive(his) == {"type": "turns", "count": 1}
