"""``make faults``: kill daphne, the Celery worker and Redis during live play; prove nothing is lost.

    .venv/bin/python -m tests.faults.run [--kills 10] [--tables 5] [--json out.json]

Needs ``DATABASE_URL`` naming a PostgreSQL server whose role may create databases (the
run makes a fresh one and drops it at the end; scripts/faults starts the local cluster).
Prints the figures as a markdown table (also written to ``--markdown``) and exits 1
unless every acknowledged move is in the database exactly once, the sequence numbers
have no gaps, and every table moved again after the last restart.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from tests.faults.harness import FaultConfig, run_faults
from tests.faults.report import as_json, markdown, ok
from tests.stack import add_run_arguments


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--kills", type=int, default=10, help="SIGKILLs per component (default 10)")
    parser.add_argument("--tables", type=int, default=5, help="two-person tables played at once (default 5)")
    add_run_arguments(parser, seeded="the kill plan and the moves")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else int(time.time())
    config = FaultConfig(
        kills=args.kills,
        tables=args.tables,
        daphnes=args.daphnes,
        seed=seed,
        keep_database=args.keep_database,
    )
    began = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"faults: {args.kills} kills per component, {args.tables} tables, seed {seed}", flush=True)
    run = run_faults(config)
    table = markdown(run)
    load = os.getloadavg()[0]
    header = (
        f"`.venv/bin/python -m tests.faults.run --kills {args.kills} --tables {args.tables} --seed {seed}`, "
        f"started {began}, {os.cpu_count()} cores, load average {load:.1f} at the end."
    )
    print(f"\n{header}\n\n{table}\n")
    if args.markdown:
        args.markdown.write_text(f"{header}\n\n{table}\n")
    if args.json:
        args.json.write_text(json.dumps(as_json(run), indent=1, default=str))
    verdict = run.verdict
    for detail in verdict.details:
        print(f"PROBLEM: {detail}")
    for extra in verdict.duplicated:
        print(f"DUPLICATED: {extra}")
    for problem in (*verdict.gaps, *verdict.bad_replays, *run.stalled):
        print(f"PROBLEM: {problem}")
    print(f"logs: {run.log_dir}")
    passed = ok(run)
    print("PASS" if passed else "FAIL")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
