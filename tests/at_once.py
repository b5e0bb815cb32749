"""Work run in several threads at once, as two browser tabs, two workers or two beats of the
scheduler run it: for the tests of what must happen exactly once."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connections

WAIT_S = 60.0
"""How long a thread waits for the others to start, and the test for each thread to end."""


def at_once(*works: Callable[[], object]) -> None:
    """Each of ``works`` in a thread of its own, all let go together (a barrier), each closing
    its own database connections when done; returns once every one has ended."""
    barrier = threading.Barrier(len(works))

    def run(work: Callable[[], object]) -> None:
        try:
            barrier.wait(timeout=WAIT_S)
            work()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(work,)) for work in works]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=WAIT_S)
    assert not any(thread.is_alive() for thread in threads), "a thread did not end"
