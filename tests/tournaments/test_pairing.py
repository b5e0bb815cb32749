"""The bracket's shape and the places: pure functions, no database."""

from __future__ import annotations

import pytest

from games.kinds.words import ordinal
from tournaments import pairing


@pytest.mark.parametrize(("entrants", "size"), [(2, 2), (3, 4), (4, 4), (5, 8), (8, 8), (9, 16), (64, 64)])
def test_the_bracket_is_the_smallest_power_of_two_that_holds_everyone(entrants: int, size: int) -> None:
    assert pairing.bracket_size(entrants) == size


def test_a_bracket_needs_two_entrants() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        pairing.bracket_size(1)


def test_standard_seeding_order() -> None:
    assert pairing.seed_order(2) == [0, 1]
    assert pairing.seed_order(4) == [0, 3, 1, 2]
    assert pairing.seed_order(8) == [0, 7, 3, 4, 1, 6, 2, 5]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_every_seed_once_first_round_pairs_sum_to_the_last_seed_and_the_top_two_meet_last(size: int) -> None:
    order = pairing.seed_order(size)
    assert sorted(order) == list(range(size))
    assert all(order[i] + order[i + 1] == size - 1 for i in range(0, size, 2))
    half = size // 2
    assert (0 in order[:half]) != (1 in order[:half])  # opposite halves: they can only meet in the final


def test_round_names() -> None:
    names = [pairing.round_name(n, 5) for n in range(1, 6)]
    assert names == ["Round of 32", "Round of 16", "Quarter-finals", "Semi-finals", "Final"]
    assert pairing.round_count(8) == 3


def test_ordinals() -> None:
    expected = {
        1: "1st",
        2: "2nd",
        3: "3rd",
        4: "4th",
        11: "11th",
        12: "12th",
        13: "13th",
        21: "21st",
        33: "33rd",
    }
    assert {n: ordinal(n) for n in expected} == expected
