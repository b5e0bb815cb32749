"""TN-2: seeds by rating, higher first, unrated after rated, then by entry time."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.seeding import SeedEntry, seed_order


def test_rating_then_entry_time_and_the_unrated_last() -> None:
    entries = [
        (10, None, 0),  # first in, but unrated
        (11, 1500.0, 3),
        (12, 1700.0, 5),
        (13, 1500.0, 1),  # same rating as 11, entered earlier
        (14, None, 2),
    ]
    assert seed_order(entries) == (12, 13, 11, 10, 14)
    assert seed_order([SeedEntry(1, 1200.0, 0)]) == (1,)
    assert seed_order([]) == ()


def test_an_entrant_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        seed_order([(1, 1500.0, 0), (1, 1400.0, 1)])


ENTRIES = st.lists(
    st.tuples(st.one_of(st.none(), st.integers(1000, 1010).map(float)), st.integers(0, 5)),
    min_size=2,
    max_size=64,
)


@settings(max_examples=100, deadline=None)
@given(entries=ENTRIES, data=st.data())
def test_the_order_is_sorted_and_does_not_depend_on_the_input_order(
    entries: list[tuple[float | None, int]], data: st.DataObject
) -> None:
    listed = [(entrant, rating, joined) for entrant, (rating, joined) in enumerate(entries)]
    order = seed_order(listed)
    assert sorted(order) == list(range(len(entries)))
    assert seed_order(data.draw(st.permutations(listed))) == order
    by_id = {entrant: (rating, joined) for entrant, rating, joined in listed}
    for better, worse in itertools.pairwise(order):
        (rating_a, joined_a), (rating_b, joined_b) = by_id[better], by_id[worse]
        if rating_a is None:
            assert rating_b is None  # nobody rated after an unrated entrant
        if rating_a is not None and rating_b is not None:
            assert rating_a >= rating_b
        if rating_a == rating_b:
            assert (joined_a, better) < (joined_b, worse)
