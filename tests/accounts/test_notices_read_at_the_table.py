"""A notice whose matter is done reads itself (issue 41: one player's bell reached 17): a person
who opens the table a notice sent them to has it read, and their open pages hear so at once,
the bell's count with it. Against the real daphne and Redis."""

from __future__ import annotations

import pytest
from websockets.sync.client import connect

from accounts.models import Notice
from tests.accounts.test_notice_socket import open_socket, receive
from tests.games.test_table_servers import session_cookie
from tests.tournaments.support import person
from tests.tournaments.test_services import playing, schedule
from tournaments import services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def test_opening_the_table_reads_the_match_ready_notice_on_every_page_of_that_person(live_site: str) -> None:
    ann, ben = person("ann"), person("ben")
    tournament = schedule(ann)
    services.join(tournament_id=tournament.pk, user=ben)
    services.start_now(tournament_id=tournament.pk, user=ann)
    game = playing(tournament)
    assert game is not None
    ready = Notice.objects.get(user=ann, kind=Notice.Kind.MATCH_READY)
    with open_socket(live_site, session_cookie(ann)) as bell:
        assert receive(bell)["unread"] == 1
        table = live_site.replace("http://", "ws://") + f"/ws/tables/{game.table_id}/"
        with connect(table, origin=live_site, additional_headers={"Cookie": session_cookie(ann)}):
            assert receive(bell) == {"type": "read", "ids": [ready.pk], "unread": 0}
    ready.refresh_from_db()
    assert ready.read_at is not None
    # Ben has not come to the table yet: his notice still waits for him.
    assert Notice.objects.get(user=ben, kind=Notice.Kind.MATCH_READY).read_at is None
