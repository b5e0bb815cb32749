"""bench/tables.py in small (issue 21): three Pyramid Poker tables, two players and a spectator
each, against a real daphne with the bench route on, paced, then the bare fan-out with the
same clients. Fails on errors, dropped sockets and moves not seen by every socket of their
table; never on time (the figures belong to docs/benchmarks.md, on a quiet machine)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings

from bench.table_load import Results, make_tables, run_tables
from config.routing import websocket_urlpatterns
from tests.support import running_daphne, service_env

TABLES = 3
MOVES = 8
"""Per table: at a pace of 0.25 s, a few seconds of play."""


@pytest.fixture
def bench_site(django_db_setup: None, celery_worker: Any) -> Iterator[str]:
    # The worker deals a tie replay, should a match end equal within the run.
    with running_daphne("daphne-bench.log", {**service_env(), "CAPSTONE_BENCH_ROUTES": "1"}) as url:
        yield url


def assert_clean(results: Results) -> None:
    assert results.errors == 0, results.notes
    assert results.dropped == 0, results.notes
    assert results.moves == TABLES * MOVES
    assert results.seen_by_all == results.moves  # every socket of the table held each new version
    assert len(results.latencies_ms) == results.moves


@pytest.mark.django_db(transaction=True)
@pytest.mark.services
def test_paced_tables_and_the_bare_fanout_lose_nothing(bench_site: str) -> None:
    made = make_tables(TABLES, "small")
    real = asyncio.run(run_tables(bench_site, made, bare=False, pace=0.25, seconds=None, moves=MOVES))
    assert_clean(real)  # run_tables also holds the moves against the database's Action rows
    assert real.frame_chars and real.too_fast == 0

    bare = asyncio.run(run_tables(bench_site, made, bare=True, pace=0.25, seconds=None, moves=MOVES))
    assert_clean(bare)


def test_the_bare_fanout_is_routed_only_when_asked_for() -> None:
    if settings.BENCH_ROUTES:
        pytest.skip("this run was started with CAPSTONE_BENCH_ROUTES set")
    assert not any("bench" in str(pattern.pattern) for pattern in websocket_urlpatterns)


def test_rounds_of_one_kind_pool_their_moves_over_the_time_played() -> None:
    """``bench/tables.py --rounds``: each mode's runs pooled, the rate over all their play."""
    first = Results(kind="tables", tables=2, latencies_ms=[10.0, 30.0], moves=2, seen_by_all=2, elapsed_s=1.0)
    first.started, first.ended, first.table_ids = 5.0, 6.0, [1, 2]
    later = Results(kind="tables", tables=2, latencies_ms=[20.0], moves=1, seen_by_all=1, elapsed_s=2.0)
    later.errors = 1
    later.started, later.ended, later.table_ids = 9.0, 11.0, [2, 3]
    first.absorb(later)
    assert (first.moves, first.seen_by_all, first.errors, first.elapsed_s) == (3, 3, 1, 3.0)
    assert first.moves_per_s == 1.0  # 3 moves in 3 s of play, not the 2 s + 0.5 s of the two rates
    assert sorted(first.latencies_ms) == [10.0, 20.0, 30.0]
    assert (first.started, first.ended, first.table_ids) == (5.0, 11.0, [1, 2, 3])
