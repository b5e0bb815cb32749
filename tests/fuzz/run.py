"""``make fuzz``: adversarial frames into every WebSocket consumer and posts to every POST view.

    .venv/bin/python -m tests.fuzz.run [--frames 10000] [--requests 1000] [--json out.json]

Needs ``DATABASE_URL`` naming a PostgreSQL server whose role may create databases (the
run makes a fresh one and drops it at the end; scripts/fuzz starts the local cluster).
Prints the figures as markdown tables (also written to ``--markdown``) and exits 1 on any
unhandled exception: a 5xx answer, a socket closed with 1011, a traceback in a server log.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from tests.fuzz.harness import FuzzConfig, run_fuzz
from tests.fuzz.report import as_json, markdown, notes, problems
from tests.stack import add_run_arguments


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--frames", type=int, default=10_000, help="frames per consumer (default 10,000)")
    parser.add_argument("--requests", type=int, default=1_000, help="requests per endpoint (default 1,000)")
    add_run_arguments(parser, seeded="every random choice")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else int(time.time())
    config = FuzzConfig(
        frames=args.frames,
        requests=args.requests,
        daphnes=args.daphnes,
        seed=seed,
        keep_database=args.keep_database,
    )
    began = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"fuzz: {args.frames} frames per consumer, {args.requests} requests per endpoint, seed {seed}")
    run = run_fuzz(config)
    header = (
        f"`.venv/bin/python -m tests.fuzz.run --frames {args.frames} --requests {args.requests} "
        f"--seed {seed}`, started {began}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f} at the end."
    )
    tables = markdown(run)
    print(f"\n{header}\n\n{tables}\n", flush=True)
    if args.markdown:
        args.markdown.write_text(f"{header}\n\n{tables}\n")
    if args.json:
        args.json.write_text(json.dumps(as_json(run), indent=1, default=str))
    for note in notes(run):
        print(f"NOTE: {note}")
    for problem in problems(run):
        print(f"PROBLEM: {problem}")
    print(f"logs: {run.log_dir}")
    print("PASS" if run.ok() else "FAIL")
    return 0 if run.ok() else 1


if __name__ == "__main__":
    sys.exit(main())
