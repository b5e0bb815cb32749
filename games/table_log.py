"""A live table's "Latest moves": the last few moves in words, as every spectator may know them.

A table's actions are never undone and its versions only grow, so each version costs only
what is new: the states go on from the window kept for the last version (one ``apply`` a
move, not a replay of the match), each move is put into words once (LP-3: ``reveal=False``
at every moment, the end included), and an action is read from the database once per
process, not at all by the process that stored it (``games.action_rows``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup

from config.live_templates import live_template
from games import action_rows, kinds, narration
from games.lru import Lru
from games.models import GameRecord
from games.state_cache import kept_state

LOG_LENGTH = 8
"""How many of the latest moves the table's log lists (the replay has them all)."""
CACHE_SIZE = 256
_logs: Lru[tuple[int, int], list[dict[str, Any]]] = Lru(CACHE_SIZE)
_windows: Lru[tuple[int, int], tuple[int, list[Any]]] = Lru(CACHE_SIZE)
_said: Lru[tuple[int, int], str] = Lru(CACHE_SIZE * LOG_LENGTH)
_sections: Lru[tuple[int, int], Markup] = Lru(CACHE_SIZE)


def log_section(record: GameRecord, names: Sequence[str]) -> Markup:
    """The log as the table's HTML (none before the first move): the same for the seats and
    the spectators of a version, so drawn once for them all."""
    key = (record.pk, record.version)
    section = _sections.find(key)
    if section is None:
        log = table_log(record, names)
        template = live_template("games/partials/table_log.html")
        section = Markup(template.render(log=log)) if log else Markup("")
        _sections.keep(key, section)
    return section


def table_log(record: GameRecord, names: Sequence[str]) -> list[dict[str, Any]]:
    """``[{"seq", "text", "timed_out"}]``, oldest first; a move the turn clock made says so."""
    key = (record.pk, record.version)
    log = _logs.find(key)
    if log is not None:
        return log
    count = record.action_count
    first_shown = max(0, count - LOG_LENGTH)
    kept = _windows.get((record.pk, record.seed))
    applied = kept[0] if kept is not None and kept[0] <= count else 0
    rows = action_rows.rows(record, min(applied, first_shown), count)
    window = _last_states(record, applied, [rows[seq][0] for seq in range(applied, count)])
    first_state = count + 1 - len(window)  # window[0] is the state after this many actions
    log = []
    for seq in range(first_shown, count):
        text, timed_out = rows[seq]
        said = _said.find((record.pk, seq))
        if said is None:
            before, after = window[seq - first_state], window[seq - first_state + 1]
            said = narration.narrate(record.game, before, text, after, names, reveal=False)
            _said.keep((record.pk, seq), said)
        text = f"Time ran out: {said}" if timed_out else said
        log.append({"seq": seq, "text": text, "timed_out": timed_out})
    _logs.keep(key, log)
    return log


def _last_states(record: GameRecord, applied: int, texts: Sequence[str]) -> list[Any]:
    """The states around the last ``LOG_LENGTH`` actions, the last one the current state;
    ``texts`` are the actions from ``applied`` on: those the kept window has not applied, or
    all of them (``applied`` is 0) when no window is kept, or not one that goes on to them."""
    engine = kinds.get_table_game(record.game).engine
    key = (record.pk, record.seed)
    kept = _windows.get(key)
    # The state the frames draw at this version, if this process keeps it: the same object
    # here, so its spectators' view is made once for both (games.spectator_views).
    current = kept_state(record)
    if kept is not None and kept[0] == applied:
        window = list(kept[1])
        for n, text in enumerate(texts):
            last = n == len(texts) - 1
            window.append(current if last and current is not None else engine.apply(window[-1], text))
    else:
        window = engine.replay(record.config, record.seed, list(texts), deck=record.deck)
        if current is not None:
            window[-1] = current
    window = window[-(LOG_LENGTH + 1) :]
    _windows.keep(key, (applied + len(texts), window))
    return window
