"""A finished table game's odds beside its replay (issue 46): worked out by a task on the
analysis queue when the game ends, kept, shown at each step as a bar per seat and a chart of
the hand; never for a running game."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.test import Client

from games.live import tables
from games.models import GameAnalysis, GameRecord, Table
from games.replays import table_odds
from tests.tournaments.support import person, play_out

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def heads_up_triad(hands: int = 2) -> Table:
    """ann against the bot, a short Triad match, dealt."""
    ann = person("ann")
    table = tables.create_table(game="triad", creator=ann, config={"players": 2, "hands": hands})
    tables.add_bot(table_id=table.pk, user=ann)
    tables.start(table_id=table.pk, user=ann)
    table.refresh_from_db()
    return table


def signed_in(username: str) -> Client:
    client = Client()
    client.force_login(person(username))
    return client


def test_each_step_shows_every_seats_chance_and_the_hands_chart() -> None:
    record = play_out(heads_up_triad())
    analysed = table_odds.work_out(record.pk)
    assert analysed is not None and len(analysed.chances) == record.action_count + 1
    first_hand = [entry for entry in analysed.chances if entry is not None and entry[0] == 0]
    # Every figure a share of the hand: the seats' chances add up to about 100 at each step.
    for entry in first_hand:
        assert abs(sum(figure[0] for figure in entry[1]) - 100) <= 2, entry
        assert all(figure[1] <= 3 for figure in entry[1]), entry  # the issue's ±3 points
    page = signed_in("viewer").get(f"/games/{record.pk}/replay/?step=1").content.decode()
    bars = re.findall(r'data-testid="odds-bar".*?class="odds-figure">([^<]+)<', page, re.S)
    assert len(bars) == 2 and all(re.fullmatch(r"\d+%( ± \d)?|folded", bar.strip()) for bar in bars)
    assert 'data-testid="odds-chart"' in page and "Hand 1" in page
    assert page.count('class="seat-line') == 2  # a line a seat
    last = signed_in("other").get(f"/games/{record.pk}/replay/?step={record.action_count}", **HTMX)
    assert 'data-testid="odds-bar"' in last.content.decode()


def test_a_running_game_gets_no_odds_anywhere() -> None:
    table = heads_up_triad(hands=12)
    record = GameRecord.objects.get(pk=table.record_id)
    assert not record.is_over
    assert table_odds.work_out(record.pk) is None and not GameAnalysis.objects.exists()
    client = signed_in("viewer")
    for path in (f"/games/{record.pk}/replay/", f"/games/{record.pk}/replay/?step=0", f"/games/{record.pk}/"):
        page = client.get(path).content.decode()
        assert "table-odds" not in page and "odds-bar" not in page, path
    export = client.get(f"/games/{record.pk}/export/")
    assert export.status_code == 404 or "chances" not in export.content.decode()


def test_an_imported_game_asks_for_nothing() -> None:
    record = play_out(heads_up_triad())
    GameRecord.objects.filter(pk=record.pk).update(kind=GameRecord.Kind.IMPORTED)
    record.refresh_from_db()
    assert not table_odds.wanted(record) and table_odds.work_out(record.pk) is None


@pytest.mark.django_db(transaction=True)
def test_the_games_end_asks_the_analysis_queue_and_its_worker_keeps_the_figures(
    celery_worker: Any, analysis_worker: Any
) -> None:
    """Nobody opens the replay: the game's end alone has them worked out."""
    record = play_out(heads_up_triad())
    deadline = time.monotonic() + 60
    while not GameAnalysis.objects.filter(record_id=record.pk, version=record.version).exists():
        assert time.monotonic() < deadline, "the game's end did not have its odds worked out"
        time.sleep(0.3)
