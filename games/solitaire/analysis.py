"""Where a finished solitaire game was lost (issue 46), beside its replay: the player's chance
to win after each move (from their view, LP-11) and the move after which the deal could no
longer be won with every card known (``games.engine.solver.analysis``).

Worked out by a Celery task (``games.tasks.analyse_solitaire_game``: a few seconds of
solving, never in a request) the first time the game's replay is shown, and kept
(``GameAnalysis``); the replay's panel asks again every few seconds until it is there. A
replay is shown only once its deal is public (LP-6), so the figures are too.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import kinds
from games.core import analyses
from games.models import GameAnalysis, GameRecord

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 400, 150, 34, 10, 10, 26
"""The chart's viewBox and margins (room for the percent labels and the move numbers)."""


def wanted(record: GameRecord) -> bool:
    return record.game in kinds.SOLITAIRE_SLUGS and record.is_over and record.imported_by_id is None


def ask(record: GameRecord) -> None:
    from games.tasks import analyse_solitaire_game

    analyses.ask(record, analyse_solitaire_game)


def work_out(record_id: int) -> GameAnalysis | None:
    """Solves the finished game ``record_id`` as it stands and keeps what was found; None if it
    is not a finished solitaire game (an undo may have reopened it), or moved on or went while
    it was solved."""
    from games.engine.solver import analysis

    record = GameRecord.objects.filter(pk=record_id).first()
    if record is None or not wanted(record):
        return None
    deal = (record.game, record.config, record.seed, analyses.texts(record))
    figures = analysis.curve(*deal, deck=record.deck)
    found = analysis.turning_point(*deal, deck=record.deck)
    point = found.point
    return analyses.keep(
        record,
        chances=[[odds.percent, odds.margin, odds.exact, odds.unknown] for odds in figures],
        outcome=found.outcome.value,
        turning_point=None
        if point is None
        else {"step": point.step, "played": point.played, "instead": point.instead},
    )


@dataclass(frozen=True)
class Step:
    move: int
    """Moves made (0: the deal)."""
    percent: int | None
    margin: int | None
    exact: bool
    x: float
    y: float | None


def steps(analysed: GameAnalysis) -> list[Step]:
    """Each step's figure, and where the chart puts it."""
    last = max(1, len(analysed.chances) - 1)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    found = []
    for move, (percent, margin, exact, _unknown) in enumerate(analysed.chances):
        x = LEFT + inner_w * move / last
        y = None if percent is None else TOP + inner_h * (100 - percent) / 100
        found.append(Step(move, percent, margin, exact, round(x, 1), None if y is None else round(y, 1)))
    return found


def polylines(drawn: list[Step]) -> list[str]:
    """The chart's line, broken where a figure is unknown."""
    runs: list[list[str]] = [[]]
    for step in drawn:
        if step.y is None:
            runs.append([])
        else:
            runs[-1].append(f"{step.x},{step.y}")
    return [" ".join(run) for run in runs if len(run) > 1]


def y_of(percent: int) -> float:
    return TOP + (HEIGHT - TOP - BOTTOM) * (100 - percent) / 100
