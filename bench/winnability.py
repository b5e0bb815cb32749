"""Win rates of the solitaire variants: the share of deals the exact solver proves winnable.

Run from the project root:

    .venv/bin/python -m bench.winnability pyramid-52-3 --count 100000 --jobs 2
    .venv/bin/python -m bench.winnability --report          # every row measured so far
    .venv/bin/python -m bench.winnability --check           # rows must agree with each other
    .venv/bin/python -m bench.winnability pyramid-52-3 --recheck --count 3000   # solve again, compare
    .venv/bin/python -m bench.winnability --times           # time per deal, as recorded
    .venv/bin/python -m bench.winnability pyramid-52-3 --refresh-above 20000   # after a solver change
    .venv/bin/python -m bench.winnability pyramid-52-3 --count 5000 --out var/scan   # elsewhere

Deal n is the engine's deal of seed n (seeds --start .. --start + --count - 1). Each
verdict is appended to var/winnability/ROW.jsonl as soon as it is known, so a run can
be stopped and started again (seeds already there are skipped) or spread over chunks
with --start/--count. The row printed counts every seed of the file, with a 95% Wilson
interval. No time limit: every verdict is exact.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

from bench.stats import percentile, wilson
from games.engine.solver import solve

OUT_DIR = Path("var/winnability")
CHUNK = 50

ROWS: dict[str, tuple[str, dict[str, Any], str]] = {
    "pyramid-52-3": ("pyramid", {}, "Pyramid, all 52 cards, 3 passes (standard)"),
    "pyramid-52-1": ("pyramid", {"redeals": 0}, "Pyramid, all 52 cards, 1 pass"),
    "pyramid-52-u": ("pyramid", {"redeals": None}, "Pyramid, all 52 cards, unlimited passes"),
    "pyramid-board-3": ("pyramid", {"clear_the_board": True}, "Pyramid, tableau only, 3 passes"),
    "pyramid-board-1": ("pyramid", {"clear_the_board": True, "redeals": 0}, "Pyramid, tableau only, 1 pass"),
    "pyramid-board-u": (
        "pyramid",
        {"clear_the_board": True, "redeals": None},
        "Pyramid, tableau only, unlimited passes",
    ),
    "pyramid-52-3-overlap": ("pyramid", {"overlap_pairs": True}, "Pyramid, all 52, 3 passes, overlap pairs"),
    "pyramid-52-1-overlap": (
        "pyramid",
        {"redeals": 0, "overlap_pairs": True},
        "Pyramid, all 52, 1 pass, overlap pairs",
    ),
    "pyramid-52-u-overlap": (
        "pyramid",
        {"redeals": None, "overlap_pairs": True},
        "Pyramid, all 52, unlimited passes, overlap pairs",
    ),
    "pyramid-board-3-overlap": (
        "pyramid",
        {"clear_the_board": True, "overlap_pairs": True},
        "Pyramid, tableau only, 3 passes, overlap pairs",
    ),
    "pyramid-board-1-overlap": (
        "pyramid",
        {"clear_the_board": True, "redeals": 0, "overlap_pairs": True},
        "Pyramid, tableau only, 1 pass, overlap pairs",
    ),
    "pyramid-board-u-overlap": (
        "pyramid",
        {"clear_the_board": True, "redeals": None, "overlap_pairs": True},
        "Pyramid, tableau only, unlimited passes, overlap pairs",
    ),
    "pyramid-6rows-reserve": (
        "pyramid",
        {"rows": 6, "reserve": True},
        "Pyramid, 6 rows + 6-card reserve, all 52, 3 passes",
    ),
    "pyramid-52-3-reshuffle": (
        "pyramid",
        {"reshuffle": True},
        "Pyramid, all 52 cards, 3 passes, each redeal shuffled",
    ),
    "tripeaks": ("tripeaks", {}, "Tri-Peaks (all cards known)"),
}


def _solve_chunk(job: tuple[str, dict[str, Any], list[int]]) -> list[dict[str, Any]]:
    game, config, seeds = job
    out = []
    for seed in seeds:
        start, cpu = time.perf_counter(), time.process_time()
        sol = solve(game, config, seed)
        out.append(
            {
                "seed": seed,
                "winnable": sol.winnable,
                "nodes": sol.nodes,
                "seconds": time.perf_counter() - start,
                # The process's own time, which other processes sharing the cores change less.
                "cpu": time.process_time() - cpu,
            }
        )
    return out


def load(row: str) -> dict[int, dict[str, Any]]:
    path = OUT_DIR / f"{row}.jsonl"
    if not path.exists():
        return {}
    records = {}
    for text in path.read_text().splitlines():
        if text.strip():
            record = json.loads(text)
            records[record["seed"]] = record
    return records


def markdown_row(row: str) -> str | None:
    records = load(row)
    if not records:
        return None
    _, config, title = ROWS[row]
    seeds = sorted(records)
    wins = sum(records[s]["winnable"] is True for s in seeds)
    low, high = wilson(wins, len(seeds))
    span = (
        f"{seeds[0]}..{seeds[-1]}"
        if seeds[-1] - seeds[0] + 1 == len(seeds)
        else f"{len(seeds)} seeds in {seeds[0]}..{seeds[-1]}"
    )
    return (
        f"| `{row}` | {title} | `{json.dumps(config)}` | {len(seeds):,} ({span}) | {wins:,} | "
        f"{100 * wins / len(seeds):.2f}% | {100 * low:.2f}% - {100 * high:.2f}% |"
    )


# Easier variant first: on every seed both rows hold, a deal winnable in the first must be
# winnable in the second (more passes, a smaller goal, or more legal pairs).
EASIER = [
    ("pyramid-52-1", "pyramid-52-3"),
    ("pyramid-52-3", "pyramid-52-u"),
    ("pyramid-board-1", "pyramid-board-3"),
    ("pyramid-board-3", "pyramid-board-u"),
    ("pyramid-52-1", "pyramid-board-1"),
    ("pyramid-52-3", "pyramid-board-3"),
    ("pyramid-52-u", "pyramid-board-u"),
    *[(row, f"{row}-overlap") for row in ("pyramid-52-1", "pyramid-52-3", "pyramid-52-u")],
    *[(row, f"{row}-overlap") for row in ("pyramid-board-1", "pyramid-board-3", "pyramid-board-u")],
    # A one-pass win never redeals, so it is a win whatever the redeals would shuffle.
    ("pyramid-52-1", "pyramid-52-3-reshuffle"),
]


def check() -> int:
    """Cross-check the rows on file against each other; the number of contradictions."""
    problems = 0
    for easy, hard in EASIER:
        a, b = load(easy), load(hard)
        common = sorted(set(a) & set(b))
        bad = [s for s in common if a[s]["winnable"] and not b[s]["winnable"]]
        problems += len(bad)
        print(
            f"{easy} winnable => {hard} winnable: {len(common)} seeds, contradictions: {bad[:10] or 'none'}"
        )
    return problems


def solve_again(
    row: str, done: dict[int, dict[str, Any]], seeds: list[int], jobs: int
) -> tuple[list[dict[str, Any]], list[int]]:
    """Solve seeds of ``done`` (the records on file) again, with the solver as it is now, and
    say how many differ: (new records, seeds whose verdict differs from the one on file)."""
    game, config, _ = ROWS[row]
    chunks = [(game, config, seeds[i : i + CHUNK]) for i in range(0, len(seeds), CHUNK)]
    fresh: list[dict[str, Any]] = []
    with multiprocessing.Pool(jobs) as pool:
        for records in pool.imap(_solve_chunk, chunks):
            fresh += records
    differ = [r["seed"] for r in fresh if r["winnable"] != done[r["seed"]]["winnable"]]
    print(f"{row}: {len(seeds)} seeds solved again, verdicts that differ: {differ[:10] or 'none'}")
    return fresh, differ


def recheck(row: str, seeds: range, jobs: int) -> int:
    """Solve seeds on file again and compare; 1 if a verdict differs."""
    done = load(row)
    todo = [s for s in seeds if s in done]
    _, differ = solve_again(row, done, todo, jobs)
    return 1 if differ else 0


def refresh(row: str, above: int, jobs: int) -> int:
    """Solve again every seed on file whose search examined more than ``above`` positions and
    file the new positions and times in place of the old (the verdicts must not change, or
    the file is kept as it was). After a change to the search past its first smaller-game
    stage (pyramid_search.RELAX_STAGES) only those deals are searched differently."""
    done = load(row)
    todo = sorted(s for s, r in done.items() if r["nodes"] > above)
    fresh, differ = solve_again(row, done, todo, jobs)
    if differ:
        return 1
    done.update((r["seed"], r) for r in fresh)
    path = OUT_DIR / f"{row}.jsonl"
    partial = path.with_suffix(".jsonl.partial")
    partial.write_text("".join(json.dumps(done[seed]) + "\n" for seed in sorted(done)))
    partial.replace(path)
    return 0


def print_times() -> None:
    """Wall-clock seconds per deal as recorded while the rows were solved (so under whatever
    load the machine had then), and the slowest deal of each row."""
    print("| row | deals | median | p95 | p99 | p99.9 | max (seed, verdict, positions) | mean |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for row in ROWS:
        records = sorted(load(row).values(), key=lambda r: r["seconds"])
        if not records:
            continue
        times = [r["seconds"] for r in records]

        def at(share: float, times: list[float] = times) -> str:
            return f"{1000 * percentile(times, share):.1f} ms"

        slowest = records[-1]
        print(
            f"| `{row}` | {len(times):,} | {at(0.5)} | {at(0.95)} | {at(0.99)} | {at(0.999)} | "
            f"{slowest['seconds']:.2f} s (#{slowest['seed']}, {'won' if slowest['winnable'] else 'lost'}, "
            f"{slowest['nodes']:,}) | {1000 * sum(times) / len(times):.1f} ms |"
        )


HEADER = (
    "| row | variant | config | seeds solved | winnable | win rate | 95% CI (Wilson) |\n"
    "| --- | --- | --- | --- | --- | --- | --- |"
)


def main() -> int:
    # --out: a scan of some seeds (a solver's slowest deals, say) keeps apart from the rows.
    global OUT_DIR
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("row", nargs="?", choices=sorted(ROWS))
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--report", action="store_true", help="print the table of every row measured so far")
    parser.add_argument("--check", action="store_true", help="check the rows on file against each other")
    parser.add_argument("--times", action="store_true", help="the solving times on file, per row")
    parser.add_argument(
        "--out", type=Path, default=OUT_DIR, help=f"the directory of the rows' files (default: {OUT_DIR})"
    )
    parser.add_argument(
        "--recheck",
        action="store_true",
        help="solve ROW's seeds --start .. --start + --count - 1 that are on file again and compare",
    )
    parser.add_argument(
        "--refresh-above",
        type=int,
        metavar="POSITIONS",
        help="solve ROW's seeds on file that took more than POSITIONS again and file the new records",
    )
    args = parser.parse_args()
    OUT_DIR = args.out
    if args.check:
        return 1 if check() else 0
    if args.times:
        print_times()
        return 0
    if args.report:
        print(HEADER)
        for row in ROWS:
            line = markdown_row(row)
            if line:
                print(line)
        return 0
    if args.row is None:
        parser.error("name a row, or use --report")

    game, config, _ = ROWS[args.row]
    if args.recheck:
        return recheck(args.row, range(args.start, args.start + args.count), args.jobs)
    if args.refresh_above is not None:
        return refresh(args.row, args.refresh_above, args.jobs)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    done = load(args.row)
    todo = [s for s in range(args.start, args.start + args.count) if s not in done]
    jobs = [(game, config, todo[i : i + CHUNK]) for i in range(0, len(todo), CHUNK)]
    print(f"{args.row}: {len(done)} seeds on file, {len(todo)} to solve", file=sys.stderr, flush=True)
    with (OUT_DIR / f"{args.row}.jsonl").open("a") as out, multiprocessing.Pool(args.jobs) as pool:
        for records in pool.imap(_solve_chunk, jobs):
            for record in records:
                out.write(json.dumps(record) + "\n")
            out.flush()
    print(HEADER)
    print(markdown_row(args.row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
