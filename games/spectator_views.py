"""A state's spectator view (``engine.view(state, None)``), kept per state.

A move's frames and its words in a table's log look at the same states: the spectators'
frame at the new state, and the log's sentence at that state and the one before (whose
spectators' frame was drawn at the last version). Each view was made again; kept by the
state object itself, each is made once a process. Only a spectator's view is kept: it holds
nothing hidden (LP-3), whoever asks for it.
"""

from __future__ import annotations

from typing import Any

from games.engine import Engine
from games.lru import Lru

CACHE_SIZE = 512
_views: Lru[int, tuple[Any, Any]] = Lru(CACHE_SIZE)
"""By the state's ``id``, with the state itself: kept alive, its id is not another's."""


def spectator_view(engine: Engine[Any, Any], state: Any) -> Any:
    kept = _views.find(id(state))
    if kept is not None and kept[0] is state:
        return kept[1]
    view = engine.view(state, None)
    _views.keep(id(state), (state, view))
    return view
