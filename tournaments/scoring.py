"""Places in a knock-out: pure functions, no Django.

The winner is first and the final's loser second; everyone knocked out in the same
round shares a place, as in tennis draws: semi-final losers are 3rd, quarter-final
losers 5th, and so on.
"""

from __future__ import annotations


def place_of_loser(round_number: int, rounds: int) -> int:
    """The place of an entrant knocked out in ``round_number`` (from 1) of ``rounds``."""
    if not 1 <= round_number <= rounds:
        raise ValueError(f"round {round_number} is not one of 1..{rounds}")
    return 2 ** (rounds - round_number) + 1


def place_label(place: int, rounds: int) -> str:
    """'1st', '2nd', then the shared range: '3rd-4th', '5th-8th' ..."""
    if place <= 2:
        return ordinal(place)
    last = min(2 * place - 2, 2**rounds)
    return f"{ordinal(place)}-{ordinal(last)}"


def ordinal(number: int) -> str:
    teens = 10 <= number % 100 <= 20
    suffix = "th" if teens else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
