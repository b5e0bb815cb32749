"""What a round is and what a service records of it: plain values, no Django.

A heads-up game is a table of two, so one shape serves every format: a round seats
entrants at tables (``Round``), and each table's result is the order its players
finished in, ties allowed (``TableResult``). Entrants are ints (the service's ids).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

MIN_TABLE = 2


def _distinct(players: Iterable[int], what: str) -> None:
    seen = list(players)
    if len(set(seen)) != len(seen):
        raise ValueError(f"an entrant appears twice in {what}")


@dataclass(frozen=True)
class Round:
    """A round's draw: who sits at which table (seat order as listed) and who has a bye."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        _distinct([*self.players_at_tables(), *self.byes], "a round")
        if any(len(table) < MIN_TABLE for table in self.tables):
            raise ValueError("a table seats at least two entrants; a lone entrant has a bye")

    def players_at_tables(self) -> tuple[int, ...]:
        return tuple(player for table in self.tables for player in table)

    def players(self) -> frozenset[int]:
        return frozenset(self.players_at_tables()) | frozenset(self.byes)


@dataclass(frozen=True)
class TableResult:
    """How one table finished: groups of entrants, best first; a group of several tied.

    ``((7,), (3, 9), (4,))`` is 7 first, 3 and 9 tied for second, 4 last (4th).
    """

    finish: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        if any(not group for group in self.finish):
            raise ValueError("an empty group in a table's finish")
        _distinct(self.players, "a table")
        if len(self.players) < MIN_TABLE:
            raise ValueError("a table seats at least two entrants")

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(player for group in self.finish for player in group)

    @classmethod
    def win(cls, winner: int, loser: int) -> TableResult:
        return cls(((winner,), (loser,)))

    @classmethod
    def draw(cls, first: int, second: int) -> TableResult:
        return cls(((first, second),))

    @classmethod
    def in_order(cls, players: Iterable[int]) -> TableResult:
        """No ties: first listed finished first."""
        return cls(tuple((player,) for player in players))

    @classmethod
    def from_places(cls, places: Mapping[int, int]) -> TableResult:
        """From places as a game reports them, ties sharing the better place: {a: 1, b: 2, c: 2, d: 4}."""
        ordered = sorted(places.items(), key=lambda item: (item[1], item[0]))
        groups: list[list[int]] = []
        group_place = 0
        for player, place in ordered:
            if groups and place == group_place:
                groups[-1].append(player)
                continue
            seated = sum(len(group) for group in groups)
            if place != seated + 1:
                raise ValueError(
                    f"place {place} cannot follow {seated} players (ties share the better place)"
                )
            groups.append([player])
            group_place = place
        return cls(tuple(tuple(group) for group in groups))

    def places(self) -> dict[int, int]:
        """Each player's place, ties sharing the better place (1, 2, 2, 4)."""
        out: dict[int, int] = {}
        place = 1
        for group in self.finish:
            for player in group:
                out[player] = place
            place += len(group)
        return out


@dataclass(frozen=True)
class RoundResult:
    """A played round: every table's result and the byes given."""

    tables: tuple[TableResult, ...]
    byes: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        _distinct([*(p for table in self.tables for p in table.players), *self.byes], "a round")

    def players(self) -> frozenset[int]:
        return frozenset(p for table in self.tables for p in table.players) | frozenset(self.byes)
