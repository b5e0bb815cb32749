"""Where a solitaire game was lost, beside its replay (issue 46): worked out by the task the
first replay asks for, kept for the game as it stands, drawn as a chart with a table and the
turning point, and closed wherever the replay is (LP-6)."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import pytest
from django.test import Client

from games.core import analyses
from games.core.players import Player
from games.engine.solver import solve
from games.models import GameAnalysis, GameRecord
from games.solitaire import analysis, services
from tests.engine.test_analysis import thrown_away as lost_line
from tests.games.test_daily_integrity import as_daily, person, signed_in, steady_day

pytestmark = pytest.mark.django_db
__all__ = ["steady_day"]  # a fixture, used by name
HTMX = {"HTTP_HX_REQUEST": "true"}


def winnable_seed() -> tuple[int, tuple[str, ...]]:
    for seed in range(1, 50):
        found = solve("pyramid", seed=seed)
        if found.winnable:
            return seed, found.actions
    raise AssertionError("no winnable deal in the first 50")


def thrown_away(player: Player) -> tuple[GameRecord, tuple[str, ...]]:
    """A casual Pyramid game that followed a winning line three moves, then resigned."""
    seed, line = winnable_seed()
    record = services.start_solitaire(game="pyramid", player=player, seed=seed)
    for version, move in enumerate([*line[:3], "resign"]):
        services.submit_action(game_id=record.pk, player=player, move=move, expected_version=version)
    record.refresh_from_db()
    assert record.is_over and not record.won
    return record, line


def test_the_panel_asks_then_shows_the_chart_and_the_move_that_lost_the_deal() -> None:
    owner = person("olga")
    record, line = thrown_away(Player(user=owner, token="o"))
    client = signed_in(owner)
    end = client.get(f"/games/{record.pk}/").content.decode()
    assert f'href="/games/{record.pk}/replay/#where-lost"' in end  # the end panel leads there
    page = client.get(f"/games/{record.pk}/replay/").content.decode()
    assert 'data-testid="where-lost-working"' in page
    assert f'data-hx-get="/games/{record.pk}/analysis/"' in page  # asks again until it is there

    analysed = analysis.work_out(record.pk)
    assert analysed is not None and analysed.version == record.version
    assert len(analysed.chances) == 5 and analysed.chances[-1] == [0, 0, True, 0]  # resigned: lost
    assert analysed.outcome == "lost at"
    assert analysed.turning_point == {"step": 3, "played": "resign", "instead": line[3]}
    panel = client.get(f"/games/{record.pk}/analysis/", **HTMX).content.decode()
    assert "Winnable until move 4" in panel and 'data-testid="chance-chart"' in panel
    assert "the game was resigned there, when" in panel and "there the game played" not in panel
    assert "data-hx-get" not in panel  # there: no more asking
    assert panel.count("<tr") == 1 + 5  # the table: a row a step
    assert 'name="step" value="3"' in panel  # play on from before the move that lost it
    page = client.get(f"/games/{record.pk}/replay/").content.decode()
    assert "Winnable until move 4" in page and "<polyline" in page
    assert Client().get(f"/games/{record.pk}/analysis/").status_code == 200  # a replay is public


def test_the_panel_names_the_move_that_lost_the_deal() -> None:
    """Pyramid deal 2 lost by pairing the 4 of spades with the 9 of hearts at move 23, where
    the 4 of clubs wins (tests/engine/test_analysis.py: THROWN)."""
    owner = person("olga")
    player = Player(user=owner, token="o")
    step, move, moves = lost_line("pyramid", 2)
    assert (step, move) == (22, "4s+9h")
    record = services.start_solitaire(game="pyramid", player=player, seed=2)
    for version, played in enumerate(moves):
        services.submit_action(game_id=record.pk, player=player, move=played, expected_version=version)
    analysed = analysis.work_out(record.pk)
    assert analysed is not None and analysed.turning_point == {
        "step": 22,
        "played": "4s+9h",
        "instead": "4c+9h",
    }
    panel = signed_in(owner).get(f"/games/{record.pk}/analysis/", **HTMX).content.decode()
    assert "Winnable until move 23: there the game played" in panel and "resigned" not in panel
    assert "4 of spades" in panel and "4 of clubs" in panel


def test_an_undo_leaves_the_analysis_behind_and_a_won_game_says_so() -> None:
    owner = person("olga")
    player = Player(user=owner, token="o")
    record, line = thrown_away(player)
    analysis.work_out(record.pk)
    services.undo(game_id=record.pk, player=player, expected_version=record.version)
    record.refresh_from_db()
    assert analyses.kept(record) is None and analysis.work_out(record.pk) is None  # reopened
    for version, move in enumerate(line[3:], start=record.version):
        services.submit_action(game_id=record.pk, player=player, move=move, expected_version=version)
    record.refresh_from_db()
    assert record.won
    analysed = analysis.work_out(record.pk)
    assert analysed is not None and analysed.outcome == "won" and analysed.turning_point is None
    assert GameAnalysis.objects.count() == 1  # the same row, brought up to date
    panel = signed_in(owner).get(f"/games/{record.pk}/analysis/", **HTMX).content.decode()
    assert "Won: the deal was winnable at every move." in panel


@pytest.mark.django_db(transaction=True)
def test_a_game_deleted_while_it_is_solved_leaves_nothing_and_raises_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from games.engine.solver import analysis as engine_analysis

    record, _line = thrown_away(Player(user=person("olga"), token="o"))
    solve_curve = engine_analysis.curve

    def curve_then_gone(*args: Any, **kwargs: Any) -> Any:
        figures = solve_curve(*args, **kwargs)
        GameRecord.objects.filter(pk=record.pk).delete()  # as a test's flush did under the task
        return figures

    monkeypatch.setattr(engine_analysis, "curve", curve_then_gone)
    assert analysis.work_out(record.pk) is None and not GameAnalysis.objects.exists()


def test_closed_wherever_the_replay_is(steady_day: dt.date) -> None:
    owner = person("olga")
    record, _line = thrown_away(Player(user=owner, token="o"))
    as_daily(record, steady_day)  # its number is today's daily deal (LP-6)
    client = signed_in(owner)
    assert client.get(f"/games/{record.pk}/analysis/", **HTMX).status_code == 404
    assert client.get("/games/999999999/analysis/", **HTMX).status_code == 404
    running = services.start_solitaire(game="pyramid", player=Player(user=owner, token="o"), seed=3)
    assert client.get(f"/games/{running.pk}/analysis/", **HTMX).status_code == 404  # not over
    assert client.post(f"/games/{record.pk}/analysis/").status_code == 405


@pytest.mark.django_db(transaction=True)
def test_the_task_works_it_out_once_the_replay_asks(analysis_worker: Any) -> None:
    owner = person("olga")
    record, _line = thrown_away(Player(user=owner, token="o"))
    client = signed_in(owner)
    client.get(f"/games/{record.pk}/replay/")
    client.get(f"/games/{record.pk}/replay/")  # asked for once, however many look
    deadline = time.monotonic() + 60
    while "Winnable until move 4" not in client.get(f"/games/{record.pk}/analysis/", **HTMX).content.decode():
        assert time.monotonic() < deadline, "the task did not work it out"
        time.sleep(0.5)
    assert GameAnalysis.objects.get().record_id == record.pk
