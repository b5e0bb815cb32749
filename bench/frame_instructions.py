"""What drawing a live table's frames costs, counted in instructions rather than timed.

One Pyramid Poker table, one deal (the same seed every run), played by seeded random legal
moves; at each version every viewer's frame (both seats' and the spectators') drawn once, as
a move's announcement draws them (``table_frames.render_for_viewers``, from the table the
move left). A wall clock on this machine moved by a quarter between runs of the same code;
an instruction count does not, so a change of a few per cent shows. Under callgrind the
drawing is counted alone: each version's is called through a ctypes callback, and callgrind
collects inside ``ffi_call`` only.

    CAPSTONE_DATA_DIR=/tmp/frame-ir PYTHONHASHSEED=0 valgrind --tool=callgrind \\
        --collect-atstart=no --toggle-collect=ffi_call --callgrind-out-file=/tmp/frame-ir/cg.out \\
        .venv/bin/python bench/frame_instructions.py --moves 100

callgrind's "Collected" figure (on stderr), divided by the moves, is a version's instructions.
Without valgrind the script prints the fastest of ``--replays`` timings of each version
instead (each replay from empty caches, as a process that has just started).
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

from accounts.models import User  # noqa: E402
from bench.table_load import CLOCK_SECONDS, CONFIG  # noqa: E402
from games import kinds, table_frames, tables  # noqa: E402
from games.lru import Lru  # noqa: E402
from games.models import GameRecord, Table  # noqa: E402
from games.state_cache import current_state  # noqa: E402

SEED = 12345
"""The deal's: each replay's table is dealt again with it."""
_CALLBACK = ctypes.CFUNCTYPE(None)


def through_ffi(draw: Callable[[], object]) -> None:
    """``draw()`` inside ``ffi_call``, where callgrind counts (``--toggle-collect=ffi_call``)."""

    def call() -> None:
        draw()

    _CALLBACK(call)()


def empty_caches() -> None:
    """Every per-process cache of the site's games code, as in a process just started."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("games"):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, Lru):
                value.clear()
            elif callable(getattr(value, "cache_clear", None)) and getattr(
                value, "__module__", ""
            ).startswith("games"):
                value.cache_clear()


def replay(people: list[User], moves: int, fastest: dict[int, float]) -> None:
    """The deal played from its start, each version's drawing timed into ``fastest``."""
    rng = random.Random(1)
    spec = kinds.get_table_game("blocks")
    table = tables.create_table(game="blocks", creator=people[0], config=CONFIG, clock_seconds=CLOCK_SECONDS)
    tables.sit(table_id=table.pk, user=people[1])
    tables.start(table_id=table.pk, user=people[0])
    record = Table.objects.select_related("record").get(pk=table.pk).record
    # The same deal every run, read afresh.
    GameRecord.objects.filter(pk=record.pk).update(seed=SEED)
    empty_caches()
    viewers = [*people, None]
    version = record.version
    table_frames.render_for_viewers(table.pk, viewers, version)
    for step in range(moves):
        state = current_state(Table.objects.select_related("record").get(pk=table.pk).record)
        seat = spec.engine.current_player(state)
        if seat not in (0, 1):
            break  # the match is over, or the table deals a tie replay
        move = str(rng.choice(spec.engine.legal_actions(state)))
        table_frames.play(table.pk, people[seat], move, version)
        version += 1
        gc.disable()
        start = time.perf_counter()
        through_ffi(lambda v=version: table_frames.render_for_viewers(table.pk, viewers, v))
        spent = time.perf_counter() - start
        gc.enable()
        fastest[step] = min(fastest.get(step, spent), spent)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=300, help="moves played (frames drawn after each)")
    parser.add_argument(
        "--replays", type=int, default=1, help="times the deal is played (the fastest counts)"
    )
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    run = time.time_ns()
    people = [
        get_user_model().objects.create(username=f"ir{run}{n}", email=f"ir{run}{n}@example.com")
        for n in range(2)
    ]
    fastest: dict[int, float] = {}
    for _ in range(args.replays):
        replay(people, args.moves, fastest)
    if fastest:
        mean = sum(fastest.values()) / len(fastest) * 1e6
        print(f"{len(fastest)} versions, 3 frames each, fastest of {args.replays}: {mean:.1f} us a version")


if __name__ == "__main__":
    main()
