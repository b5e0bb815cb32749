"""Figures of a fault run, per component killed: a table for the terminal and docs/benchmarks.md."""

from __future__ import annotations

import bisect
import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Any

from tests.faults.harness import COMPONENTS, FaultRun
from tests.faults.players import IDLE_RECONNECT_S

QUIET = "no fault (before the first kill, after the last)"


@dataclass
class Row:
    name: str
    kills: int = 0
    acknowledged: int = 0
    lost: int = 0
    duplicated: int = 0
    out_of_turn: int = 0
    reconnects: int = 0
    resends: int = 0
    stale_refused: int = 0
    idle_reconnects: int = 0
    refused: int = 0
    down_s: float = 0.0
    recovery_mean_s: float = 0.0
    recovery_max_s: float = 0.0


def rows(run: FaultRun) -> list[Row]:
    """One row per component (what happened from each of its kills to the next kill),
    one for the quiet windows, and the total."""
    starts = [w.start for w in run.windows]

    def name_at(t: float) -> str:
        index = bisect.bisect_right(starts, t) - 1
        kind = run.windows[max(0, index)].component
        return kind if kind in COMPONENTS else QUIET

    table = {name: Row(name) for name in (*COMPONENTS, QUIET)}
    for kind in COMPONENTS:
        windows = [w for w in run.windows if w.component == kind]
        row = table[kind]
        row.kills = len(windows)
        if windows:
            row.down_s = statistics.fmean(w.downtime_s for w in windows)
            row.recovery_mean_s = statistics.fmean(w.recovery_s for w in windows)
            row.recovery_max_s = max(w.recovery_s for w in windows)
    for move in run.events.moves:
        if move.acked_at is not None:
            table[name_at(move.sent_at)].acknowledged += 1
    for move in run.verdict.lost:
        table[name_at(move.sent_at)].lost += 1
    for move in run.verdict.out_of_turn:
        table[name_at(move.sent_at)].out_of_turn += 1
    for extra in run.verdict.duplicated:
        table[name_at(extra.created_at)].duplicated += 1
    fields = {
        "reconnect": "reconnects",
        "resend": "resends",
        "stale_refused": "stale_refused",
        "idle": "idle_reconnects",
        "refused": "refused",
    }
    for at, kind in run.events.log:
        if kind in fields:
            row = table[name_at(at)]
            setattr(row, fields[kind], getattr(row, fields[kind]) + 1)
    total = Row("total")
    counted = ("kills", "acknowledged", "lost", "duplicated", "out_of_turn", "reconnects", "resends")
    for row in table.values():
        for name in (*counted, "stale_refused", "idle_reconnects", "refused"):
            setattr(total, name, getattr(total, name) + getattr(row, name))
    return [*table.values(), total]


def ok(run: FaultRun) -> bool:
    verdict = run.verdict
    return not (
        verdict.lost
        or verdict.duplicated
        or verdict.out_of_turn
        or verdict.gaps
        or verdict.bad_replays
        or run.stalled
    ) and all(row.kills >= run.config.kills for row in rows(run) if row.name in COMPONENTS)


def markdown(run: FaultRun) -> str:
    lines = [
        "| component killed | kills | moves acknowledged | lost | duplicated | offered out of turn "
        "| reconnects | resends | refused as stale | down (mean) | back up after (mean / max) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    table = rows(run)
    total = table[-1]
    for row in table:
        timing = (
            f"{row.down_s:.1f} s | {row.recovery_mean_s:.1f} / {row.recovery_max_s:.1f} s"
            if row.kills and row.name in COMPONENTS
            else " | "
        )
        lines.append(
            f"| {row.name} | {row.kills} | {row.acknowledged:,} | {row.lost} | {row.duplicated} "
            f"| {row.out_of_turn} | {row.reconnects} | {row.resends} | {row.stale_refused} | {timing} |"
        )
    verdict = run.verdict
    sent = len(run.events.moves)
    closes = ", ".join(f"{code}: {n}" for code, n in sorted(run.events.close_codes.items(), key=str))
    lines += [
        "",
        f"{verdict.games} games ({verdict.finished} played to the end) at {run.config.tables} tables "
        "at once, "
        f"{verdict.rows:,} `Action` rows (tie replays dealt by the worker: {verdict.server_rows}), "
        f"{sent:,} moves sent, {verdict.applied_unacknowledged} applied but not yet acknowledged when "
        f"the run stopped; {run.seconds:.0f} s in all.",
        f"Sequence gaps: {len(verdict.gaps)}; games whose rows do not replay: {len(verdict.bad_replays)}; "
        f"tables stalled after the last restart: {len(run.stalled)}; moves the server refused "
        f"other than as stale: {total.refused}; reconnects after {IDLE_RECONNECT_S:.0f} s of "
        f"silence: {total.idle_reconnects}.",
        f"Moves refused by a socket's rate limit (sent again after a pause): "
        f"{sum(1 for _, kind in run.events.log if kind == 'rate_limited')}. "
        f"Components that exited on their own (restarted): {dict(run.unexpected_exits) or 'none'}. "
        f"How client sockets ended (close code or error): {closes or 'none'}.",
    ]
    return "\n".join(lines)


def as_json(run: FaultRun) -> dict[str, Any]:
    verdict = run.verdict
    return {
        "ok": ok(run),
        "seconds": round(run.seconds, 1),
        "rows": [vars(row) for row in rows(run)],
        "games": verdict.games,
        "finished": verdict.finished,
        "action_rows": verdict.rows,
        "server_rows": verdict.server_rows,
        "moves_sent": len(run.events.moves),
        "lost": [vars(m) for m in verdict.lost],
        "out_of_turn": [vars(m) for m in verdict.out_of_turn],
        "details": verdict.details,
        "traces": {
            f"game {m.game_id} seat {m.seat}": run.traces.get((m.game_id, m.seat), [])
            for m in (*verdict.lost, *verdict.out_of_turn)
        },
        "duplicated": [vars(e) for e in verdict.duplicated],
        "gaps": verdict.gaps,
        "bad_replays": verdict.bad_replays,
        "stalled": run.stalled,
        "unexpected_exits": run.unexpected_exits,
        "close_codes": {str(k): v for k, v in run.events.close_codes.items()},
        "event_counts": dict(Counter(kind for _, kind in run.events.log)),
        "log_dir": run.log_dir,
    }
