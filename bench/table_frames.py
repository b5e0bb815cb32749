"""How long a live table's frame takes to draw: one Pyramid Poker table played by random
legal moves, and at each version the frame of each seat and of a spectator drawn again and
again, nothing kept between draws but what the site keeps itself (the kept frames are
bypassed). Uses the data folder of the settings it runs with (``CAPSTONE_DATA_DIR``).

    CAPSTONE_DATA_DIR=/tmp/bench-frames .venv/bin/python bench/table_frames.py --moves 120
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

from bench.table_load import MOVE, MY_TURN, make_tables  # noqa: E402
from games import table_frames  # noqa: E402
from games.models import Table  # noqa: E402
from games.started_seats import seats_of  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=120, help="moves played (frames drawn at each version)")
    parser.add_argument("--draws", type=int, default=20, help="draws of each viewer's frame a version")
    parser.add_argument("--seed", type=int, default=1, help="seeds the random moves")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    bench = make_tables(1, f"frames{time.time_ns()}")[0]
    people = [get_user_model().objects.get(pk=pk) for pk, _ in bench.players]
    viewers = [*people, None]
    rng = random.Random(args.seed)
    drawn, spent = 0, 0.0
    for _ in range(args.moves):
        table = Table.objects.select_related("record").get(pk=bench.table_id)
        seats = seats_of(table)
        start = time.perf_counter()
        for _ in range(args.draws):
            for viewer in viewers:
                table_frames._render(table, viewer, "", seats)
        spent += time.perf_counter() - start
        drawn += args.draws * len(viewers)
        frames = [table_frames.render_table(bench.table_id, person) for person in people]
        mover = next((n for n, (frame, _) in enumerate(frames) if MY_TURN.search(frame)), None)
        if mover is None:
            break  # the match is over
        frame, version = frames[mover]
        table_frames.play(
            bench.table_id, people[mover], {"action": rng.choice(MOVE.findall(frame))}, version or 0
        )
    print(f"{drawn} frames over {args.moves} versions: {spent / drawn * 1e6:.1f} us a frame")


if __name__ == "__main__":
    main()
