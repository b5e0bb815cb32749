"""games.lru.Lru is shared by the event loop and Django's database thread (issue 43): finding an
entry while another thread evicts it must not raise."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator

import pytest

from games.lru import Lru

SECONDS = 1.5
KEYS = 16


@pytest.fixture
def thread_switch_often() -> Iterator[None]:
    """Threads change hands every microsecond, so a gap between two steps is met at once
    (without the lock, the first ``KeyError`` came within the first second in every run)."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


def test_finding_and_keeping_from_three_threads_raises_nothing(thread_switch_often: None) -> None:
    cache: Lru[int, int] = Lru(KEYS // 2)
    errors: list[BaseException] = []
    stop = time.monotonic() + SECONDS

    def finder() -> None:
        try:
            while time.monotonic() < stop and not errors:
                for key in range(KEYS):
                    found = cache.find(key)
                    assert found is None or found % KEYS == key
        except BaseException as exc:
            errors.append(exc)

    def keeper(start: int) -> None:
        try:
            n = start
            while time.monotonic() < stop and not errors:
                cache.keep(n % KEYS, n)
                n += 1
        except BaseException as exc:
            errors.append(exc)

    threads = [
        threading.Thread(target=finder),
        threading.Thread(target=keeper, args=(0,)),
        threading.Thread(target=keeper, args=(7,)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(cache) <= KEYS // 2
