"""betting's small helpers, rewritten for the broadcast playouts' speed (issue 46), answer as the
plain versions they replaced, kept here as the reference."""

from __future__ import annotations

import itertools
from types import SimpleNamespace
from typing import Any

from games.engine.betting import bump, next_to_act, put


def plain_put(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return tuple(value if i == seat else old for i, old in enumerate(values))


def plain_bump(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    return tuple(value + delta if i == seat else value for i, value in enumerate(values))


def plain_next_to_act(state: Any) -> int | None:
    high = max(state.bets)
    live = [seat for seat in state.order if not state.folded[seat]]
    waiting = [seat for seat in live if not state.acted[seat] or state.bets[seat] < high]
    if not waiting:
        return None
    current = state.order.index(state.to_act)
    ring = state.order[current + 1 :] + state.order[: current + 1]
    return next(seat for seat in ring if seat in waiting)


def test_put_and_bump_are_the_plain_ones() -> None:
    for values in ((), (5,), (1, 2, 3), (0, 7, 0, 9, 4, 4)):
        for seat in range(-2, len(values) + 2):
            assert put(values, seat, 8) == plain_put(values, seat, 8)
            assert bump(values, seat, -3) == plain_bump(values, seat, -3)


def test_next_to_act_is_the_plain_one_in_every_small_round() -> None:
    """Every round of three seats dealt in out of four (each seat folded or not, acted or
    not, at one of two bets), from each seat dealt in."""
    checked = 0
    for order in ((1, 2, 3), (3, 0, 2), (2, 0, 1)):
        for folded, acted, bets in itertools.product(
            itertools.product((False, True), repeat=4),
            itertools.product((False, True), repeat=4),
            itertools.product((0, 2), repeat=4),
        ):
            for to_act in order:
                state = SimpleNamespace(order=order, folded=folded, acted=acted, bets=bets, to_act=to_act)
                assert next_to_act(state) == plain_next_to_act(state), state  # type: ignore[arg-type]
                checked += 1
    assert checked == 3 * 16 * 16 * 16 * 3
