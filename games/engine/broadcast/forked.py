"""Work shared out to forked processes: a game's broadcast figures on both of a machine's cores.

The figures are worked out where the analysis queue's worker runs them, a Celery prefork child,
which ``multiprocessing`` refuses to give children of its own ("daemonic processes are not
allowed to have children"), and the queue's one worker process (docs/operations.md) would run
a group of tasks one after another. So the process forks by itself: ``os.fork`` is all it takes
here, the work being pure functions of what the process already holds (``Playouts``), and each
item's result the same whichever process works it out.

Measured (bench/broadcast.py, 6-player Triad matches, seeds 0-2, A/B in one run, twice): in
two processes the busier one spends 0.53-0.57 of the CPU time one process takes for the whole
(p95 12.5 s against 23.5 s, and 13.4 s against 25.0 s), which is the wall-clock time when
each has a core of its own.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import struct
import traceback
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

WORKERS = min(2, os.cpu_count() or 1)
"""Processes a game's figures are worked out in, this one included: two, as the issue's machine
has two cores (one, on a machine of one); more cores are left to the site's other processes."""

_INDEX = struct.Struct("<I")
_QUEUE_LENGTH = 4096 // _INDEX.size
"""Entries the queue holds at most: it is written whole before anyone reads it, so it must fit
the smallest buffer a pipe may have (a page: Linux gives no more once a user's pipes use their
share). Past that, an entry stands for a run of items."""


def map_forked(work: Callable[[int], T], count: int, workers: int = WORKERS) -> list[T]:
    """``[work(i) for i in range(count)]``, each item worked out in one of ``workers`` processes:
    this one and forked children. Items are taken from a shared queue as each process frees up,
    so a slow item doesn't hold the others back. ``work`` must be deterministic; what it changes
    in a child stays there. A child's exception is raised here as a ``RuntimeError``."""
    children = min(workers, count) - 1
    if children < 1 or not hasattr(os, "fork"):
        return [work(index) for index in range(count)]
    run = -(-count // _QUEUE_LENGTH)
    queue, feed = os.pipe()
    # Every entry is in the pipe before anyone reads, and a read of 4 bytes takes one whole
    # entry: each item goes to exactly one process.
    os.write(feed, b"".join(_INDEX.pack(start) for start in range(0, count, run)))
    os.close(feed)
    forked: list[tuple[int, int]] = []
    try:
        for _ in range(children):
            reply, answer = os.pipe()
            pid = os.fork()
            if pid == 0:  # pragma: no cover: the child's coverage isn't collected
                os.close(reply)
                _child(work, queue, answer, run, count)
            os.close(answer)
            forked.append((pid, reply))
        results: dict[int, T] = dict(_take(work, queue, run, count))
        for _pid, reply in forked:
            status, payload = pickle.loads(_read_all(reply))
            if status != "ok":
                raise RuntimeError(f"a forked process of the broadcast figures failed:\n{payload}")
            results.update(payload)
        return [results[index] for index in range(count)]
    finally:
        os.close(queue)
        for pid, reply in forked:
            os.close(reply)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)  # done already unless this process failed first
            os.waitpid(pid, 0)


def _take(work: Callable[[int], T], queue: int, run: int, count: int) -> list[tuple[int, T]]:
    done = []
    while data := os.read(queue, _INDEX.size):
        (start,) = _INDEX.unpack(data)
        done += [(index, work(index)) for index in range(start, min(start + run, count))]
    return done


def _child(
    work: Callable[[int], T], queue: int, answer: int, run: int, count: int
) -> None:  # pragma: no cover
    """Work items until the queue is empty, send the results and exit, never returning into
    the parent's code (``os._exit``: no clean-up of the parent's, no buffered output twice)."""
    status = 1
    try:
        try:
            payload = pickle.dumps(("ok", _take(work, queue, run, count)))
            status = 0
        except BaseException:
            payload = pickle.dumps(("error", traceback.format_exc()))
        view = memoryview(payload)
        while view:
            view = view[os.write(answer, view) :]
    finally:
        os._exit(status)


def _read_all(reply: int) -> bytes:
    chunks = []
    while chunk := os.read(reply, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)
