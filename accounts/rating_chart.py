"""A rating history as the geometry of a small SVG line chart: pure, no Django.

``rating_chart(values)`` takes the rating before the first rated game followed by the
rating after each game (oldest first) and returns where the line, the axis ticks and the
labels go in a ``WIDTH`` x ``HEIGHT`` viewBox. A long history is thinned to at most
``max_points`` points (evenly spaced, always keeping the first, the last, the lowest and
the highest), so the SVG stays small whatever the number of games.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

WIDTH = 400
HEIGHT = 200
LEFT = 44  # room for the rating labels
RIGHT = 40  # room for the last value's label
TOP = 14
BOTTOM = 34  # room for the game numbers and the axis title
MAX_POINTS = 120


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    game: int  # rated games played at this point (0 = before the first)
    value: int


@dataclass(frozen=True)
class Tick:
    position: float  # x for a game tick, y for a rating tick
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    points: tuple[Point, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    lowest: Point | None
    highest: Point | None
    last: Point | None
    games: int

    @property
    def empty(self) -> bool:
        return not self.points

    @property
    def polyline(self) -> str:
        """The ``points`` attribute of an SVG polyline."""
        return " ".join(f"{point.x:g},{point.y:g}" for point in self.points)

    @property
    def middle_x(self) -> float:
        return round((self.left + self.right) / 2, 1)


def nice_step(span: float, target_ticks: int = 4) -> int:
    """A round tick step (1, 2 or 5 times a power of ten, at least 1) giving about
    ``target_ticks`` ticks over ``span``."""
    raw = max(span / max(target_ticks, 1), 1.0)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return int(factor * power)
    return int(10 * power)  # pragma: no cover - the loop always returns


def thin(count: int, keep: Sequence[int], max_points: int) -> list[int]:
    """At most about ``max_points`` indices of ``range(count)``, evenly spaced, with the
    first, the last and every index of ``keep``."""
    if count <= max_points:
        return list(range(count))
    step = (count - 1) / (max_points - 1)
    chosen = {round(n * step) for n in range(max_points)} | {0, count - 1} | set(keep)
    return sorted(chosen)


def rating_chart(values: Sequence[float], *, max_points: int = MAX_POINTS) -> Chart:
    """The chart of ``values`` (see the module's description); empty when there are none."""
    return thinned_chart(dict(enumerate(values)), len(values), max_points=max_points)


def thinned_chart(values: Mapping[int, float], count: int, *, max_points: int = MAX_POINTS) -> Chart:
    """The chart of ``count`` values of which only some are given, by index: at least those
    ``thin`` keeps and the first index of the lowest and of the highest rounded value (so a
    database can send the few points drawn rather than a busy player's thousands,
    ``accounts.selectors``). The same chart as ``rating_chart`` of every value."""
    left, right, top, bottom = float(LEFT), float(WIDTH - RIGHT), float(TOP), float(HEIGHT - BOTTOM)
    if not count:
        return Chart(WIDTH, HEIGHT, left, right, top, bottom, (), (), (), None, None, None, 0)
    rounded = {index: round(values[index]) for index in sorted(values)}
    games = count - 1
    # In index order, so that a tie goes to the first, as over every value.
    low_index = min(rounded, key=rounded.__getitem__)
    high_index = max(rounded, key=rounded.__getitem__)
    low, high = rounded[low_index], rounded[high_index]
    step = nice_step(max(high - low, 40))
    floor_value = math.floor(low / step) * step
    ceiling_value = math.ceil(high / step) * step
    if ceiling_value == floor_value:
        ceiling_value += step

    def y_of(value: float) -> float:
        return round(bottom - (value - floor_value) / (ceiling_value - floor_value) * (bottom - top), 1)

    def x_of(game: int) -> float:
        return round(left + (game / games if games else 0.5) * (right - left), 1)

    indices = thin(count, (low_index, high_index), max_points)
    points = tuple(Point(x_of(n), y_of(rounded[n]), n, rounded[n]) for n in indices)
    by_game = {point.game: point for point in points}
    y_ticks = tuple(Tick(y_of(value), str(value)) for value in range(floor_value, ceiling_value + 1, step))
    x_step = nice_step(games, 4) if games else 1
    x_ticks = tuple(Tick(x_of(game), str(game)) for game in range(0, games + 1, x_step))
    if games and x_ticks[-1].label != str(games):
        if x_of(games) - x_ticks[-1].position < 24:  # too close to read both
            x_ticks = x_ticks[:-1]
        x_ticks += (Tick(x_of(games), str(games)),)
    return Chart(
        WIDTH,
        HEIGHT,
        left,
        right,
        top,
        bottom,
        points,
        y_ticks,
        x_ticks,
        by_game[low_index],
        by_game[high_index],
        points[-1],
        games,
    )
