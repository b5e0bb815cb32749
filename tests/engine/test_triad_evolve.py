"""Triad's quick ``dataclasses.replace`` (``base.evolve``, as Triad uses it) makes what ``replace`` makes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.base import evolve
from games.engine.triad import ENGINE


def test_evolve_is_replace() -> None:
    state = ENGINE.initial_state({"players": 3}, 11)
    changed = evolve(state, pot=7, to_act=2)
    assert changed == replace(state, pot=7, to_act=2)
    assert hash(changed) == hash(replace(state, pot=7, to_act=2))
    assert (state.pot, state.to_act) != (7, 2), "the old state is left as it was"
    with pytest.raises(AttributeError):
        changed.pot = 1  # type: ignore[misc]
    with pytest.raises(TypeError, match="no fields"):
        evolve(state, pott=7)
