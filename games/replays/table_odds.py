"""Each seat's chance to win the hand at every step of a finished table game, as a poker
broadcast shows it (issue 46): with every card known, the rest of the hand played out many
times over the cards not dealt yet, the site's bots deciding (``games.engine.broadcast``).

Worked out once when the game ends (``games.tasks.analyse_table_game``, on the analysis
queue), or when its replay is first shown if that task was lost, and kept
(``GameAnalysis.chances``). Only a finished game has figures: a replay of a running game
never asks, and the task refuses one. A finished game's replay shows every card, so the
figures tell nothing it does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from games import kinds
from games.core import analyses
from games.models import GameAnalysis, GameRecord

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 400, 150, 34, 10, 10, 26
"""The hand's chart: its viewBox and margins (room for the percent labels and step numbers)."""
SEAT_COLOURS = 6
"""Seats are told apart by as many colours (static/css/game.css ``.seat-colour-N``) and by name."""


def wanted(record: GameRecord) -> bool:
    return record.game in kinds.TABLE_BY_SLUG and record.is_over and record.kind != GameRecord.Kind.IMPORTED


def ask(record: GameRecord) -> None:
    from games.tasks import analyse_table_game

    analyses.ask(record, analyse_table_game)


def work_out(record_id: int) -> GameAnalysis | None:
    """Plays out every step of the finished table game ``record_id`` and keeps the figures;
    None if it is not a finished table game, or it went while it was worked out."""
    from games.engine import broadcast

    record = GameRecord.objects.filter(pk=record_id).first()
    if record is None or not wanted(record):
        return None
    figures = broadcast.table_odds(record.game, record.config, record.seed, analyses.texts(record))
    chances = [None if odds is None else stored(odds) for odds in figures]
    return analyses.keep(record, chances=chances, outcome="", turning_point=None)


def stored(odds: Any) -> list[Any]:
    """One step's figures as kept (``broadcast.StepOdds``): ``[deal, [[percent, margin,
    standing], ...], hand, kind, result]``, the result (each seat's share in percent) only on
    the step whose action ended the deal."""
    result = None if odds.result is None else [round(100 * share) for share in odds.result]
    return [
        odds.deal,
        [[seat.percent, seat.margin, seat.standing] for seat in odds.seats],
        odds.hand,
        odds.kind,
        result,
    ]


@dataclass(frozen=True)
class SeatFigure:
    seat: int
    name: str
    percent: int
    margin: int
    standing: str
    """in, folded or out (not dealt into this deal)."""

    @property
    def colour(self) -> int:
        return self.seat % SEAT_COLOURS


def _name(names: list[str], seat: int) -> str:
    return names[seat] if seat < len(names) else str(seat + 1)


def at_step(analysed: GameAnalysis, step: int, names: list[str]) -> list[SeatFigure]:
    """Each seat's figure at ``step``; none where a game ended by forfeit has no deal."""
    entry = analysed.chances[step] if 0 <= step < len(analysed.chances) else None
    if entry is None:
        return []
    return [
        SeatFigure(seat, _name(names, seat), percent, margin, standing)
        for seat, (percent, margin, standing) in enumerate(entry[1])
    ]


def deal_label(game: str, hand: int, kind: str) -> str:
    """Which deal a chart is of, as a player says it."""
    if kind == "place-tie":
        return gettext("The tie replay for a place")
    if kinds.TABLE_BY_SLUG[game].tie_replay_word == "game":  # a match of games, not of hands
        if kind == "tie-replay":
            return gettext("The tie replay of game %(number)s") % {"number": hand}
        return gettext("Game %(number)s") % {"number": hand}
    if kind == "tie-replay":
        return gettext("The tie replay of hand %(number)s") % {"number": hand}
    return gettext("Hand %(number)s") % {"number": hand}


def hand_chart(analysed: GameAnalysis, step: int, names: list[str]) -> dict[str, Any] | None:
    """The chart of the deal ``step`` belongs to: a line per seat dealt in, ending on the deal's
    result when its last action is in the game, the step marked."""
    chances = analysed.chances
    entry = chances[step] if 0 <= step < len(chances) else None
    if entry is None:
        return None
    deal, _seats, hand, kind, _result = entry
    steps = [n for n, other in enumerate(chances) if other is not None and other[0] == deal]
    # (step, each seat's percent) along the deal, then its result one step on, if it ended.
    points = [(n, [figure[0] for figure in chances[n][1]]) for n in steps]
    ended = chances[steps[-1]][4]
    if ended is not None:
        points.append((steps[-1] + 1, ended))
    first, last = points[0][0], points[-1][0]
    span = max(1, last - first)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(n: int) -> float:
        return round(LEFT + inner_w * (n - first) / span, 1)

    def y(percent: int) -> float:
        return round(TOP + inner_h * (100 - percent) / 100, 1)

    dealt = [seat for seat, figure in enumerate(entry[1]) if figure[2] != "out"]
    lines = [
        {
            "seat": seat,
            "name": _name(names, seat),
            "colour": seat % SEAT_COLOURS,
            "points": " ".join(f"{x(n)},{y(shares[seat])}" for n, shares in points),
        }
        for seat in dealt
    ]
    rows = [{"step": n, "figures": [chances[n][1][seat][:2] for seat in dealt]} for n in steps]
    return {
        "label": deal_label(analysed.record.game, hand, kind),
        "rows": rows,
        "result": None if ended is None else [ended[seat] for seat in dealt],
        "lines": lines,
        "first": first,
        "last": last,
        "marker": x(step),
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "y50": y(50),
    }
