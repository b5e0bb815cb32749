"""How long a live table's frame takes to draw: one Pyramid Poker table played by random
legal moves, and at each version the frame of each seat and of a spectator drawn again and
again, nothing kept between draws but what the site keeps itself (the kept frames are
bypassed). Then what a move costs its sockets' process: at each version, every viewer's
frame drawn once, as an announcement draws them (``render_for_viewers``, from the table the
move left: what is drawn once a version, such as the log, is in this figure and not in the
first). Uses the data folder of the settings it runs with (``CAPSTONE_DATA_DIR``).

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
    parser.add_argument(
        "--draws",
        type=int,
        default=20,
        help="draws of each viewer's frame a version (0: only the figure as announced)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seeds the random moves")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    bench = make_tables(1, f"frames{time.time_ns()}")[0]
    people = [get_user_model().objects.get(pk=pk) for pk, _ in bench.players]
    viewers = [*people, None]
    rng = random.Random(args.seed)
    drawn, spent = 0, 0.0
    announced, announced_spent, version = 0, 0.0, None
    for _ in range(args.moves):
        if version is not None:
            start = time.perf_counter()
            table_frames.render_for_viewers(bench.table_id, viewers, version)
            announced_spent += time.perf_counter() - start
            announced += 1
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
        frame, shown = frames[mover]
        table_frames.play(
            bench.table_id, people[mover], {"action": rng.choice(MOVE.findall(frame))}, shown or 0
        )
        version = (shown or 0) + 1
    if drawn:
        print(f"{drawn} frames over {args.moves} versions: {spent / drawn * 1e6:.1f} us a frame")
    if announced:
        print(
            f"{announced} versions drawn as announced, {len(viewers)} frames each: "
            f"{announced_spent / announced * 1e6:.1f} us a version"
        )


if __name__ == "__main__":
    main()
