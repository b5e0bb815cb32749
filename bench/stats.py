"""The statistics the benchmarks report: Wilson intervals for rates, percentiles of timings."""

from __future__ import annotations

import math
from collections.abc import Sequence


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of ``wins`` out of ``games`` (sound near 0% and 100%)."""
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    # Within [0, 1] in exact arithmetic; the clamp keeps rounding at 0% or 100% from showing.
    return max(0.0, centre - spread), min(1.0, centre + spread)


def percentile(values: Sequence[float], share: float) -> float:
    """The value below which ``share`` of ``values`` fall (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]
