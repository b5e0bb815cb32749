"""The fault run: scripted play at several tables while daphne, the worker and Redis die.

``run_faults`` starts an isolated stack (tests/stack.py), seats two scripted players
(tests/faults/players.py) at each of ``tables`` tables, Triad and Pyramid Poker in turn,
and deals a new table to a pair whenever its game ends. Meanwhile the killer SIGKILLs
one component at a time at random moments (a random daphne of the two, the Celery
worker, or Redis, each ``kills`` times in a shuffled order), waits a little and starts
it again with the same command. After the last restart the run waits until every table
has moved again (a table that never does is reported stalled), stops the players once
their moves are settled, and checks the database (tests/faults/check.py).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.faults.check import Verdict, check
from tests.faults.players import Events, Player
from tests.stack import Component, Stack, session_cookie

COMPONENTS = ("daphne", "worker", "redis")
GAMES = (("triad", {"players": 2}), ("blocks", {}))
CLOCK_S = 600  # the longest clock: no seat ever times out, so every person's move is a client's


@dataclass
class FaultConfig:
    kills: int = 10
    """Per component."""
    tables: int = 5
    daphnes: int = 2
    seed: int = 0
    between_s: tuple[float, float] = (1.0, 4.0)
    """Play between one restart and the next kill."""
    down_s: tuple[float, float] = (0.2, 2.0)
    """How long a killed component stays down."""
    settle_moves: int = 3
    settle_timeout_s: float = 120.0
    keep_database: bool = False


@dataclass
class Window:
    """From one kill to the next: what happened is attributed to the component killed."""

    component: str
    start: float
    downtime_s: float = 0.0
    recovery_s: float = 0.0


@dataclass
class FaultRun:
    config: FaultConfig
    windows: list[Window] = field(default_factory=list)
    events: Events = field(default_factory=Events)
    game_ids: list[int] = field(default_factory=list)
    traces: dict[tuple[int, int], list[str]] = field(default_factory=dict)
    """(game, seat) -> what that player saw and did."""
    stalled: list[str] = field(default_factory=list)
    unexpected_exits: dict[str, int] = field(default_factory=dict)
    verdict: Verdict = field(default_factory=Verdict)
    seconds: float = 0.0
    log_dir: str = ""


@dataclass
class Slot:
    """Two people who play table after table; ``acks`` counts their acknowledged moves."""

    index: int
    cookies: tuple[str, str]
    users: tuple[Any, Any]
    acks: int = 0
    players: list[Player] = field(default_factory=list)

    def acknowledged(self) -> int:
        return self.acks + sum(p.acks for p in self.players)


def run_faults(config: FaultConfig) -> FaultRun:
    run = FaultRun(config)
    started = time.monotonic()
    stack = Stack("faults", daphnes=config.daphnes, keep_database=config.keep_database)
    run.log_dir = str(stack.log_dir)
    try:
        stack.start()
        stack.setup_django()
        slots = _make_slots(config.tables)
        asyncio.run(_play(stack, run, slots))
        run.verdict = check(run.events.moves, run.game_ids)
    finally:
        stack.close()
    run.seconds = time.monotonic() - started
    return run


def _make_slots(count: int) -> list[Slot]:
    from django.contrib.auth import get_user_model

    User = get_user_model()
    slots = []
    for n in range(count):
        a, b = (User.objects.create_user(f"fault{n}{side}", f"fault{n}{side}@example.com") for side in "ab")
        slots.append(Slot(n, (session_cookie(a), session_cookie(b)), (a, b)))
    return slots


def _new_table(game: str, config: dict[str, Any], users: tuple[Any, Any]) -> tuple[int, int]:
    """A started table with the two users seated; (table id, game id).

    One transaction, so that a failure after commit (the lobby announcement when Redis is
    down) leaves a whole table behind, never half of one: then we use it.
    """
    from django.db import close_old_connections, transaction

    from games.live import tables
    from games.models import Table

    close_old_connections()
    made: list[Table] = []
    try:
        with transaction.atomic():
            table = tables.create_table(game=game, creator=users[0], config=config, clock_seconds=CLOCK_S)
            tables.sit(table_id=table.pk, user=users[1])
            tables.start(table_id=table.pk, user=users[0])
            made.append(table)
    except Exception:
        if not made or not Table.objects.filter(pk=made[0].pk, record__isnull=False).exists():
            raise
    table = Table.objects.get(pk=made[0].pk)
    assert table.record_id is not None
    return table.pk, table.record_id


def _canonical(game: str) -> Callable[[dict[str, Any]], str]:
    from games.engine import get_engine

    engine = get_engine(game)
    return lambda message: str(engine.action_from_fields(message))


async def _play(stack: Stack, run: FaultRun, slots: list[Slot]) -> None:
    rng = random.Random(run.config.seed)
    stopping = asyncio.Event()
    tasks = [asyncio.create_task(_slot(stack, run, slot, rng, stopping)) for slot in slots]
    try:
        await _kill_loop(stack, run, slots, rng)
        await _settle(stack, run, slots)
    finally:
        stopping.set()
        done, pending = await asyncio.wait(tasks, timeout=60)
        for task in pending:
            task.cancel()
            run.stalled.append("a table's players did not stop within 60 s of the end")
        for task in done:
            task.result()  # a harness error must not pass silently


async def _slot(stack: Stack, run: FaultRun, slot: Slot, rng: random.Random, stopping: asyncio.Event) -> None:
    number = 0
    while not stopping.is_set():
        game, config = GAMES[(slot.index + number) % len(GAMES)]
        number += 1
        table_id, game_id = await _retry(lambda g=game, c=config: _new_table(g, c, slot.users), stopping)
        run.game_ids.append(game_id)
        slot.players = [
            Player(
                urls=stack.urls,
                table_id=table_id,
                game_id=game_id,
                seat=seat,
                cookie=slot.cookies[seat],
                canonical=_canonical(game),
                events=run.events,
                rng=random.Random(rng.random()),
                stopping=stopping,
            )
            for seat in (0, 1)
        ]
        for player in slot.players:
            run.traces[(game_id, player.seat)] = player.trace
        await asyncio.gather(*(player.play() for player in slot.players))
        slot.acks += sum(player.acks for player in slot.players)
        slot.players = []


async def _retry(make: Any, stopping: asyncio.Event) -> Any:
    """The database stays up throughout; Redis may be down while a table is dealt."""
    delay = 0.1
    for _ in range(100):
        try:
            return await asyncio.to_thread(make)
        except Exception:
            await asyncio.sleep(delay)
            delay = min(2.0, delay * 2)
    raise RuntimeError("could not deal a new table in 100 tries")


def _target(stack: Stack, kind: str, rng: random.Random) -> Component:
    if kind == "daphne":
        return rng.choice(stack.daphne_components())
    return stack.components[kind]


async def _kill_loop(stack: Stack, run: FaultRun, slots: list[Slot], rng: random.Random) -> None:
    config = run.config
    plan = [kind for kind in COMPONENTS for _ in range(config.kills)]
    rng.shuffle(plan)
    run.windows.append(Window("warm-up", time.time()))
    for kind in plan:
        await _wait_playing(stack, run, slots, rng.uniform(*config.between_s))
        component = _target(stack, kind, rng)
        window = Window(kind, time.time())
        run.windows.append(window)
        killed = time.monotonic()
        await asyncio.to_thread(component.kill)
        await asyncio.sleep(rng.uniform(*config.down_s))
        window.downtime_s = time.monotonic() - killed
        await asyncio.to_thread(component.start)
        window.recovery_s = time.monotonic() - killed


async def _wait_playing(stack: Stack, run: FaultRun, slots: list[Slot], seconds: float) -> None:
    """Let play go on for ``seconds`` and until some move was acknowledged since the last
    restart, so that every kill lands during play; restart whatever died on its own."""
    before = sum(slot.acknowledged() for slot in slots)
    deadline = time.monotonic() + seconds
    give_up = deadline + run.config.settle_timeout_s
    while time.monotonic() < deadline or (
        sum(slot.acknowledged() for slot in slots) == before and time.monotonic() < give_up
    ):
        await _restart_exited(stack, run)
        await asyncio.sleep(0.1)


async def _restart_exited(stack: Stack, run: FaultRun) -> None:
    for name, component in stack.components.items():
        if not component.alive():
            run.unexpected_exits[name] = run.unexpected_exits.get(name, 0) + 1
            await asyncio.to_thread(component.start)


async def _settle(stack: Stack, run: FaultRun, slots: list[Slot]) -> None:
    """After the last restart every table must move again (or have finished its games)."""
    run.windows.append(Window("after the last kill", time.time()))
    start = [slot.acknowledged() for slot in slots]
    deadline = time.monotonic() + run.config.settle_timeout_s
    while time.monotonic() < deadline:
        await _restart_exited(stack, run)
        moved = [slot.acknowledged() - s for slot, s in zip(slots, start, strict=True)]
        if min(moved) >= run.config.settle_moves:
            return
        await asyncio.sleep(0.2)
    for slot, s in zip(slots, start, strict=True):
        moved = slot.acknowledged() - s
        if moved < run.config.settle_moves:
            run.stalled.append(
                f"table pair {slot.index} made {moved} moves in the {run.config.settle_timeout_s:.0f} s "
                "after the last restart"
            )
