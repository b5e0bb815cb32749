"""The knock-out bracket's shape: pure functions of the number of entrants, no Django.

Entrants are numbered by seed, 0 the first. The bracket has a power-of-two number of
places; the places left over are byes, and the standard seeding order gives them to the
first seeds and keeps the first two seeds apart until the final (``formats.elimination``
lays the brackets out with it).
"""

from __future__ import annotations

MIN_ENTRANTS = 2


def bracket_size(entrants: int) -> int:
    """The smallest power of two that holds ``entrants`` (at least 2)."""
    if entrants < MIN_ENTRANTS:
        raise ValueError(f"a bracket needs at least {MIN_ENTRANTS} entrants, got {entrants}")
    size = 2
    while size < entrants:
        size *= 2
    return size


def round_count(size: int) -> int:
    return size.bit_length() - 1


def seed_order(size: int) -> list[int]:
    """Seeds (0-based) in bracket order: 8 places give 0 7 3 4 1 6 2 5, so seed 0 meets 7."""
    order = [0]
    while len(order) < size:
        mirror = 2 * len(order) - 1
        order = [seed for top in order for seed in (top, mirror - top)]
    return order


def round_name(number: int, rounds: int) -> str:
    """'Final', 'Semi-finals', 'Quarter-finals', else 'Round of N' (``number`` from 1)."""
    left = rounds - number
    if left == 0:
        return "Final"
    if left == 1:
        return "Semi-finals"
    if left == 2:
        return "Quarter-finals"
    return f"Round of {places_in_round(number, rounds)}"


def places_in_round(number: int, rounds: int) -> int:
    """How many places the ``number``-th of ``rounds`` rounds has: 2 in the final."""
    return 2 ** (rounds - number + 1)
