"""A started table's page is not sent the table again when its socket connects and nothing
has moved since the page was drawn (table.js names the version and seat in the socket's
address): no frame is swapped in under a first click. Then every move reaches it as before."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from playwright.sync_api import expect

from games.core import move_path
from games.core.snapshots import state_of
from games.engine import get_engine
from games.models import GameRecord
from tests.e2e.test_replay_journey import logged_in_context
from tests.e2e.test_tournament_journey import in_thread
from tests.games.table_moments import dealt_heads_up_triad
from tests.support import artifacts_dir

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SOCKET_OPENS = "document.addEventListener('htmx:wsOpen', function () { window.socketOpened = true; });"


def test_a_current_page_is_not_sent_the_table_on_connecting(live_site: str, new_context: Any) -> None:
    table, alice, bob = in_thread(dealt_heads_up_triad)  # the services announce through async_to_sync
    record = GameRecord.objects.get(table__pk=table.pk)
    engine = get_engine("triad")
    waiting = bob if engine.current_player(state_of(record)) == 0 else alice
    context = logged_in_context(new_context, live_site, waiting)
    context.add_init_script(SOCKET_OPENS)
    page = context.new_page()
    sockets: list[Any] = []
    page.on("websocket", lambda socket: sockets.append(socket))
    page.goto(live_site + table.get_absolute_url())
    live = page.locator("#table-live")
    expect(live).to_have_attribute("data-version", "0")
    seat = live.get_attribute("data-me")
    assert seat in ("0", "1")
    page.wait_for_function("() => window.socketOpened === true")
    assert [ws.url for ws in sockets if "/ws/tables/" in ws.url] == [
        live_site.replace("http", "ws") + f"/ws/tables/{table.pk}/?said=0&seen=0&me={seat}"
    ]
    page.wait_for_timeout(1000)  # what a frame sent on connecting would take to arrive
    assert page.evaluate("window.socketFrames || 0") == 0

    mover = alice if waiting == bob else bob
    text = str(engine.legal_actions(state_of(record))[0])
    in_thread(partial(move_path.play_at_table, table_id=table.pk, user=mover, move=text, expected_version=0))
    expect(live).to_have_attribute("data-version", "1")
    expect(page.get_by_test_id("turn")).to_contain_text("Your turn")
    assert page.evaluate("window.socketFrames") == 1
    page.screenshot(path=str(artifacts_dir() / "table-connect.png"), full_page=True)
