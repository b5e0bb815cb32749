"""TN-1, TN-3: round robins, heads-up (circle method) and at balanced tables."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.results import Round, TableResult
from tournaments.formats.round_robin import (
    GUARANTEED_EXTRA_ROUNDS,
    heads_up_round_robin,
    rounds_lower_bound,
    table_round_robin,
)
from tournaments.formats.seating import table_sizes
from tournaments.formats.standings import table_points

FAST = settings(max_examples=40, deadline=None)
IDS = st.lists(st.integers(0, 10**6), min_size=2, max_size=64, unique=True)


def meetings(rounds: tuple[Round, ...]) -> Counter[frozenset[int]]:
    return Counter(
        frozenset(pair) for r in rounds for table in r.tables for pair in itertools.combinations(table, 2)
    )


def check_everyone_once_a_round(rounds: tuple[Round, ...], entrants: list[int]) -> None:
    for r in rounds:
        seated = [*r.players_at_tables(), *r.byes]
        assert sorted(seated) == sorted(entrants)


@FAST
@given(entrants=IDS)
def test_heads_up_everyone_meets_everyone_exactly_once(entrants: list[int]) -> None:
    rounds = heads_up_round_robin(entrants)
    n = len(entrants)
    assert len(rounds) == (n if n % 2 else n - 1)
    check_everyone_once_a_round(rounds, entrants)
    assert all(len(table) == 2 for r in rounds for table in r.tables)
    met = meetings(rounds)
    assert set(met.values()) == {1}
    assert len(met) == n * (n - 1) // 2
    byes = Counter(p for r in rounds for p in r.byes)
    assert byes == (Counter(entrants) if n % 2 else Counter())  # odd: each exactly one bye
    first_seats = Counter(table[0] for r in rounds for table in r.tables)
    assert max(first_seats.values()) - min(first_seats[p] for p in entrants) <= 2


def test_heads_up_four() -> None:
    assert heads_up_round_robin([1, 2, 3, 4]) == (
        Round(tables=((1, 4), (2, 3))),
        Round(tables=((3, 1), (4, 2))),
        Round(tables=((1, 2), (3, 4))),
    )
    assert heads_up_round_robin([1, 2, 3]) == (
        Round(tables=((2, 3),), byes=(1,)),
        Round(tables=((3, 1),), byes=(2,)),
        Round(tables=((1, 2),), byes=(3,)),
    )


@FAST
@given(entrants=IDS, table_size=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_tables_every_pair_meets_at_balanced_tables_and_each_table_gives_its_points(
    entrants: list[int], table_size: int, seed: int
) -> None:
    rounds = table_round_robin(entrants, table_size)
    n = len(entrants)
    check_everyone_once_a_round(rounds, entrants)
    assert set(meetings(rounds)) == {frozenset(p) for p in itertools.combinations(entrants, 2)}
    for r in rounds:
        sizes = sorted((len(table) for table in r.tables), reverse=True)
        assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 2 and max(sizes) <= table_size
        if table_size > 2:
            assert tuple(sizes) == table_sizes(n, table_size) and not r.byes
    if n <= table_size:
        assert rounds == (Round(tables=(tuple(entrants),)),)
    if table_size > 2:
        assert len(rounds) <= rounds_lower_bound(n, table_size) + GUARANTEED_EXTRA_ROUNDS
    # TN-3: any finish of a table of k (ties included) hands out k(k - 1)/2 points.
    rng = random.Random(seed)
    for table in (t for r in rounds for t in r.tables):
        places = {p: rng.randint(1, len(table)) for p in table}
        ranked = sorted(places, key=places.__getitem__)
        finish = TableResult.from_places({p: 1 + sum(places[q] < places[p] for q in table) for p in ranked})
        assert sum(table_points(finish).values()) == len(table) * (len(table) - 1) // 2


@FAST
@given(entrants=IDS, table_size=st.integers(3, 6))
def test_the_schedule_depends_on_the_order_of_entrants_only(entrants: list[int], table_size: int) -> None:
    """So the bound checked below on 0..n-1 holds for any ids."""
    plain = table_round_robin(list(range(len(entrants))), table_size)
    named = table_round_robin(entrants, table_size)
    assert named == tuple(
        Round(tables=tuple(tuple(entrants[i] for i in table) for table in r.tables)) for r in plain
    )


@pytest.mark.parametrize("table_size", [3, 4, 5, 6])
def test_the_guaranteed_bound_for_every_field_of_2_to_64(table_size: int) -> None:
    """The schedule is deterministic, so checking every field size proves the bound for them."""
    for n in range(2, 65):
        rounds = table_round_robin(list(range(n)), table_size)
        assert len(rounds) <= rounds_lower_bound(n, table_size) + GUARANTEED_EXTRA_ROUNDS, n


def test_lower_bound_examples() -> None:
    # 9 at tables of 3: three tables; each player meets 2 a round and needs 8: 4 rounds.
    assert rounds_lower_bound(9, 3) == 4
    # 7 at tables of 6: tables of 4 and 3; 6 others at 3 a round: 2 rounds. Pairs: 21 / (6 + 3): 3.
    assert rounds_lower_bound(7, 6) == 3
    assert rounds_lower_bound(6, 6) == 1
    assert table_sizes(7, 6) == (4, 3)
    assert table_sizes(13, 4) == (4, 3, 3, 3)
    assert table_sizes(5, 2) == (2, 2)  # the fifth has a bye


def test_refused() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        heads_up_round_robin([1])
    with pytest.raises(ValueError, match="twice"):
        table_round_robin([1, 1, 2], 3)
    with pytest.raises(ValueError, match="2 to 6"):
        table_round_robin([1, 2, 3], 7)
