"""Live tables under load: scripted WebSocket players at N tables, beside a bare fan-out.

Start the site first, with the bench route on and a data folder of its own:

    CAPSTONE_DATA_DIR=/tmp/bench-data CAPSTONE_BENCH_ROUTES=1 make run PORT=8771

then run this with the same settings and data (it creates the tables and sessions in the
site's database, and announces them through its Redis; give both CAPSTONE_REDIS_PORT=…
if another site holds the embedded Redis's port):

    CAPSTONE_DATA_DIR=/tmp/bench-data .venv/bin/python bench/tables.py --url http://127.0.0.1:8771 \\
        --tables 100 --pace 2 --seconds 60 --json

Each table is a Pyramid Poker match between two scripted players (a socket each) with a
spectator socket; the player to act sends a random legal move from its own frame. Each
move is timed from its send until all three sockets of the table hold the new version.
Modes (several may be given; they run one after the other, on the same tables):

  --pace S       each table moves every S seconds on average (exponential gaps, seeded)
  --saturate     each table moves as soon as the last move reached its three sockets
  --bare         the same clients against /ws/bench/fanout/<id>/ (web/bench_consumers.py:
                 one fixed frame to the table's group per move, no database, no render), at
                 --pace S if given, else saturated; with --saturate, the ratio of the
                 two runs' moves per second (the issue's goal: at least 0.5)
  --idle N       N idle sockets (spectators of the tables, every --idle-lobby-every'th the
                 lobby's) held --idle-hold seconds: the server's RSS before and after. Run
                 first, and meaningful on a freshly started server only (memory that earlier
                 sockets freed is reused, and hides what these cost)

With none of --pace, --saturate, --bare and --idle: --saturate. A run ends after --seconds
of play, or --moves moves per table. --rounds K runs the modes K times in turns, every other
round in the other order (ABBA: saturated, bare, bare, saturated for K = 2), and pools each
mode's runs: the ratio is then less a matter of how fast the machine was during one of them
(JSON: each round's ratio under round_ratios). Errors are error frames, sockets closed under a
table, versions that do not arrive in 30 s and a database whose count of the players'
moves differs from the clients'; a move refused as stale is played again, not lost. The
exit status is 1 if there was an error or a dropped socket.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

import django

django.setup()

from bench.table_load import (  # noqa: E402
    IdleResults,
    Results,
    hold_idle,
    in_thread,
    listening_pid,
    make_tables,
    raise_fd_limit,
    run_tables,
)


def row(name: str, results: Results) -> str:
    return (
        f"| {name} | {results.moves} | {results.moves_per_s:.1f} | {results.quantile(0.5)} | "
        f"{results.quantile(0.99)} | {results.max_ms} | {results.errors} | {results.dropped} |"
    )


def report(
    args: argparse.Namespace,
    runs: dict[str, Results],
    idle: IdleResults | None,
    load_before: list[float],
    round_ratios: list[float],
) -> dict[str, Any]:
    """Prints the runs as a markdown table; returns the JSON summary."""
    if runs:
        print("| run | moves | moves/s | p50 ms | p99 ms | max ms | errors | dropped |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for name, results in runs.items():
            print(row(name, results))
    for results in runs.values():
        if results.elapsed_s and results.client_cpu_s > 0.8 * results.elapsed_s:
            print(
                f"  {results.kind}: the harness used {results.client_cpu_s:.1f} s of CPU in"
                f" {results.elapsed_s:.1f} s: the client may have been the limit, not the server",
                file=sys.stderr,
            )
        if results.too_fast:
            print(
                f"  {results.kind}: {results.too_fast} moves refused as too fast by the players' frame"
                " limit all the same, and played again",
                file=sys.stderr,
            )
        if results.held_back:
            print(
                f"  {results.kind}: {results.held_back} moves held back {results.held_back_s:.1f} s in all"
                " to keep within the players' frame limit: some tables were faster than a socket may"
                " send, more tables would load the server more",
                file=sys.stderr,
            )
        for note in results.notes:
            print(f"  {results.kind}: {note}", file=sys.stderr)
    # The top-level figures are the saturated run's if there was one (the run the bare one is
    # compared with), else the paced run's; "runs" has them all.
    real = runs.get("saturate") or runs.get("pace")
    bare = runs.get("bare")
    # Only saturated runs have a ratio: a paced run's moves per second is the pace asked for.
    saturated = runs.get("saturate")
    ratio = saturated.moves_per_s / bare.moves_per_s if saturated and bare and bare.moves_per_s else None
    if ratio is not None:
        print(f"\nreal / bare moves per second: {ratio:.2f}")
    if len(round_ratios) > 1:
        print("each round's: " + ", ".join(f"{each:.3f}" for each in round_ratios))
    frames = [n for r in runs.values() if r.kind == "tables" for n in r.frame_chars]
    if frames:
        print(
            f"real frames received: {len(frames)}, mean {statistics.mean(frames):.0f} chars,"
            f" max {max(frames)}"
        )
    if idle is not None:
        print(
            f"\n{idle.opened} of {idle.sockets} idle sockets opened in {idle.open_s:.1f} s; server RSS "
            f"{idle.rss_before_kb} kB -> {idle.rss_after_kb} kB: {idle.kb_per_socket} kB per socket; "
            f"{idle.dropped} dropped, {idle.errors} errors"
        )
        for note in idle.notes:
            print(f"  idle: {note}", file=sys.stderr)
    everything = [*runs.values()]
    return {
        "mode": "+".join([*runs, *(["idle"] if idle else [])]),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        # Before the run: what else loaded the machine; after: that and the run itself.
        "load_avg_before": load_before,
        "load_avg": [round(x, 2) for x in os.getloadavg()],
        "tables": args.tables,
        "pace_s": args.pace,
        "seconds": args.seconds if runs else None,
        "moves_per_table": args.moves,
        "moves": real.moves if real else None,
        "moves_per_s": round(real.moves_per_s, 2) if real else None,
        "p50_ms": real.quantile(0.5) if real else None,
        "p99_ms": real.quantile(0.99) if real else None,
        "max_ms": real.max_ms if real else None,
        "bare_moves_per_s": round(bare.moves_per_s, 2) if bare else None,
        "bare_p50_ms": bare.quantile(0.5) if bare else None,
        "bare_p99_ms": bare.quantile(0.99) if bare else None,
        "ratio": round(ratio, 3) if ratio is not None else None,
        "rounds": args.rounds,
        "round_ratios": [round(each, 3) for each in round_ratios],
        "errors": sum(r.errors for r in everything) + (idle.errors if idle else 0),
        "dropped": sum(r.dropped for r in everything) + (idle.dropped if idle else 0),
        "stale_retries": sum(r.stale_retries for r in everything),
        "too_fast": sum(r.too_fast for r in everything),
        "held_back": sum(r.held_back for r in everything),
        "held_back_s": round(sum(r.held_back_s for r in everything), 1),
        "rollovers": sum(r.rollovers for r in everything),
        "frame_chars": round(statistics.mean(frames)) if frames else None,
        "idle_sockets": idle.opened if idle else None,
        "kb_per_socket": idle.kb_per_socket if idle else None,
        "rss_before_kb": idle.rss_before_kb if idle else None,
        "rss_after_kb": idle.rss_after_kb if idle else None,
        "runs": {
            name: {
                "moves": r.moves,
                "moves_per_s": round(r.moves_per_s, 2),
                "p50_ms": r.quantile(0.5),
                "p99_ms": r.quantile(0.99),
                "max_ms": r.max_ms,
                "errors": r.errors,
                "dropped": r.dropped,
                "client_cpu_share": round(r.client_cpu_s / r.elapsed_s, 2) if r.elapsed_s else None,
            }
            for name, r in runs.items()
        },
    }


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    real_modes = [name for name, on in (("pace", args.pace is not None), ("saturate", args.saturate)) if on]
    if not (real_modes or args.bare or args.idle):
        real_modes = ["saturate"]
    load_before = [round(x, 2) for x in os.getloadavg()]
    made = await in_thread(make_tables, args.tables, f"{int(time.time())}x")
    length = {"seconds": args.seconds, "moves": args.moves}
    idle = None
    if args.idle:
        # First, on a server that has not yet held the runs' sockets: memory they freed would
        # be reused by the idle ones and hide what those cost.
        pid = args.server_pid or listening_pid(urlsplit(args.url).port or 80)
        if pid is None:
            raise SystemExit("cannot find the server's process: pass --server-pid")
        margin = args.idle + 1024
        mine = raise_fd_limit(margin)
        theirs = raise_fd_limit(margin, pid)
        if min(mine, theirs) < args.idle + 64:
            print(f"warning: open files limited to {mine} here and {theirs} in the server", file=sys.stderr)
        idle = await hold_idle(
            args.url,
            [table.table_id for table in made],
            args.idle,
            lobby_every=args.idle_lobby_every,
            hold_s=args.idle_hold,
            server_pid=pid,
        )
    runs: dict[str, Results] = {}
    round_ratios: list[float] = []
    modes = [*real_modes, *(["bare"] if args.bare else [])]
    for number in range(args.rounds):
        # ABBA: every other round runs the modes in the other order, so that a machine whose
        # speed drifts during the rounds (seen here: a quarter within a session) favours none.
        this_round: dict[str, Results] = {}
        for mode in modes if number % 2 == 0 else modes[::-1]:
            # Saturated beside --saturate (the ratio); else at the pace, if one was given.
            pace = args.pace if mode == "pace" or (mode == "bare" and not args.saturate) else None
            # A table whose match ended in an earlier run is dealt again when this one finds it over.
            this_round[mode] = await run_tables(
                args.url, made, bare=mode == "bare", pace=pace, seed=args.seed + number, **length
            )
        if "saturate" in this_round and "bare" in this_round and this_round["bare"].moves_per_s:
            round_ratios.append(this_round["saturate"].moves_per_s / this_round["bare"].moves_per_s)
        for mode, results in this_round.items():
            if mode in runs:
                runs[mode].absorb(results)
            else:
                runs[mode] = results
    return report(args, runs, idle, load_before, round_ratios)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--pace", type=float, metavar="S", help="seconds between a table's moves, on average")
    parser.add_argument("--saturate", action="store_true", help="tables move as fast as they can")
    parser.add_argument("--bare", action="store_true", help="the same clients against the bare fan-out")
    parser.add_argument("--seconds", type=float, metavar="D", help="play for D seconds (default 20)")
    parser.add_argument("--moves", type=int, metavar="N", help="or N moves per table")
    parser.add_argument("--seed", type=int, default=1, help="seeds the moves and the pace's gaps")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        metavar="K",
        help="the modes K times over, in turns (ABBA), each run --seconds long; figures pooled",
    )
    parser.add_argument("--idle", type=int, default=0, metavar="N", help="hold N idle sockets")
    parser.add_argument("--idle-hold", type=float, default=10.0, metavar="S", help="for S seconds")
    parser.add_argument(
        "--idle-lobby-every",
        type=int,
        default=10,
        metavar="K",
        help="every K-th idle socket the lobby's (0: none)",
    )
    parser.add_argument("--server-pid", type=int, help="daphne's pid (default: what listens on --url's port)")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of the figures")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds is 1 or more")
    if args.seconds is None and args.moves is None:
        args.seconds = 20.0
    summary = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(summary))
    sys.exit(1 if summary["errors"] or summary["dropped"] else 0)


if __name__ == "__main__":
    main()
