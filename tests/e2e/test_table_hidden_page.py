"""A table's page in a hidden tab is drawn nothing (issue 21), and shows the table as it
stands the moment it is in sight again: table.js tells the server through the socket."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from playwright.sync_api import expect

from games.core import move_path
from games.core.snapshots import state_of
from games.engine import get_engine
from games.live import tables
from games.models import GameRecord, Table
from tests.e2e.test_tournament_journey import in_thread
from tests.tournaments.support import person

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SET_HIDDEN = """hidden => {
  Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_hidden_tab_catches_up_when_shown(live_site: str, new_context: Any) -> None:
    alice, bob = person("alice"), person("bob")

    def open_table() -> Table:
        table = tables.create_table(game="triad", creator=alice, config={"players": 2})
        tables.sit(table_id=table.pk, user=bob)
        tables.start(table_id=table.pk, user=alice)
        return table

    table = in_thread(open_table)  # the services announce through async_to_sync
    page = new_context().new_page()
    page.goto(live_site + table.get_absolute_url())
    live = page.locator("#table-live")
    expect(live).to_have_attribute("data-version", "0")

    def move(version: int) -> None:
        record = GameRecord.objects.get(table__pk=table.pk)
        engine, state = get_engine("triad"), state_of(record)
        mover = alice if engine.current_player(state) == 0 else bob
        text = str(engine.legal_actions(state)[0])
        in_thread(
            partial(
                move_path.play_at_table, table_id=table.pk, user=mover, move=text, expected_version=version
            )
        )

    move(0)
    expect(live).to_have_attribute("data-version", "1")
    page.evaluate(SET_HIDDEN, True)
    page.wait_for_timeout(300)  # the word reaches the server before the next move
    move(1)
    page.wait_for_timeout(1000)
    expect(live).to_have_attribute("data-version", "1")  # nothing was drawn for the hidden tab
    page.evaluate(SET_HIDDEN, False)
    expect(live).to_have_attribute("data-version", "2")
    move(2)
    expect(live).to_have_attribute("data-version", "3")  # shown again, it follows every move
