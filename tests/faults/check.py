"""The verdict of a fault run: the clients' moves against the database's ``Action`` rows.

Definitions (per game; a move is identified by the version it was made at, and resends
of it are the same move):

* **gap**: the game's ``Action`` seqs are not exactly 0..n-1, or its ``action_count`` or
  ``version`` is not n. At a table every applied move bumps the version by one and
  nothing else does, so the move made at version v is the row with seq v.
* **lost**: a move the client saw acknowledged (a frame at a later version) with no row
  at seq v holding the same seat and text, although its seat was the one to act at v.
* **out of turn**: such a move whose seat was *not* the one to act at v, by the
  database's own rows: the frame it was chosen from showed the seat a turn that was not
  its own (the server refused the move as stale, and the client, trusting the frame, took
  the next version for its acknowledgement). Not a lost move, but a frame that did not
  show the table as it stood: a failure of its own.
* **duplicated**: a row made for a person's seat that is not a move its client made at
  that version with that text: a second copy of a resent move, or one nobody sent.
  Rows of the table's own seat (tie replays, dealt by the worker) are counted apart.
* **replay**: the rows, folded over the deal by the engine, must be legal throughout.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from tests.faults.players import Move


@dataclass
class Extra:
    game_id: int
    seq: int
    seat: int
    text: str
    created_at: float


@dataclass
class Verdict:
    games: int = 0
    finished: int = 0
    rows: int = 0
    server_rows: int = 0
    lost: list[Move] = field(default_factory=list)
    duplicated: list[Extra] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    bad_replays: list[str] = field(default_factory=list)
    out_of_turn: list[Move] = field(default_factory=list)
    details: list[str] = field(default_factory=list)
    """For each lost or out-of-turn move: what the database holds at its place instead."""
    applied_unacknowledged: int = 0
    """Moves in the database whose acknowledgement the client never saw (a run stopping)."""


def check(moves: list[Move], game_ids: list[int]) -> Verdict:
    from games.engine import TABLE_SEAT, get_engine
    from games.models import Action, GameRecord

    # A version can hold several moves of one seat when the server refused the first
    # (say, a rate limit): at most one of them can have been applied.
    by_game: dict[int, dict[int, list[Move]]] = defaultdict(lambda: defaultdict(list))
    for move in moves:
        by_game[move.game_id][move.version].append(move)
    verdict = Verdict()
    records = GameRecord.objects.in_bulk(game_ids)
    rows_by_game: dict[int, list[Action]] = defaultdict(list)
    for row in Action.objects.filter(game_id__in=game_ids).order_by("game_id", "seq"):
        rows_by_game[row.game_id].append(row)
    for game_id in game_ids:
        record = records[game_id]
        rows = rows_by_game[game_id]
        verdict.games += 1
        verdict.finished += record.is_over
        verdict.rows += len(rows)
        if [row.seq for row in rows] != list(range(len(rows))) or not (
            record.action_count == record.version == len(rows)
        ):
            verdict.gaps.append(
                f"game {game_id}: seqs {[row.seq for row in rows][:5]}..., {len(rows)} rows, "
                f"action_count {record.action_count}, version {record.version}"
            )
        made = by_game[game_id]
        matched: set[int] = set()  # id() of the moves found in the database
        for row in rows:
            if row.seat == TABLE_SEAT:
                verdict.server_rows += 1
                continue
            move = next((m for m in made.get(row.seq, []) if m.seat == row.seat and m.text == row.text), None)
            if move is not None and id(move) not in matched:
                matched.add(id(move))
                verdict.applied_unacknowledged += move.acked_at is None
            else:
                verdict.duplicated.append(
                    Extra(game_id, row.seq, row.seat, row.text, row.created_at.timestamp())
                )
        unmatched = [m for at in made.values() for m in at if m.acked_at is not None and id(m) not in matched]
        _judge_unmatched(verdict, record, rows, made, unmatched)
        try:
            get_engine(record.game).replay(record.config, record.seed, [row.text for row in rows])
        except ValueError as exc:
            verdict.bad_replays.append(f"game {game_id}: {exc}")
    return verdict


def _judge_unmatched(
    verdict: Verdict, record: Any, rows: list[Any], made: dict[int, list[Move]], unmatched: list[Move]
) -> None:
    """Lost, or out of turn: who was to act at the move's version, by the rows before it."""
    from games.engine import get_engine

    engine = get_engine(record.game)
    texts = [row.text for row in rows]
    by_seq = {row.seq: row for row in rows}
    for move in unmatched:
        before = engine.replay(record.config, record.seed, texts[: move.version])[-1]
        to_act = engine.current_player(before) if move.version <= len(texts) else None
        row = by_seq.get(move.version)
        found = f"seat {row.seat} {row.text!r}" if row is not None else "no row"
        others = [(m.seat, m.text) for m in made[move.version] if m is not move]
        detail = (
            f"game {record.pk} seq {move.version}: seat {move.seat} sent {move.text!r}, taken as "
            f"acknowledged by a frame at {move.acked_by}; the database has {found} there, seat "
            f"{to_act} was to act; other moves sent at that version: {others}"
        )
        if to_act is not None and to_act != move.seat:
            verdict.out_of_turn.append(move)
            verdict.details.append(f"out of turn: {detail}")
        else:
            verdict.lost.append(move)
            verdict.details.append(f"lost: {detail}")
