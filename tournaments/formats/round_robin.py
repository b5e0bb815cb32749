"""TN-1, TN-3: round robin schedules, heads-up and at tables.

Heads-up: the circle (Berger) method, everyone meets everyone exactly once; with an odd
number of entrants each round one sits out (a bye), each entrant exactly once.

At tables of up to ``table_size`` (Triad, Tauron Hold-Em): every round seats everyone at
balanced tables (``seating.table_sizes``: no table of one), and rounds are added until
every pair has met at least once. The fewest such rounds is a covering-design problem
with no general formula. Each round here is chosen greedily: it seats together as many
pairs who have not met as it can find, a pair counting more the more meetings its
players still lack (a greedy seating and a shuffled one, each improved by
``seating.improve``, the better kept). Every round seats at least one new pair, so the
schedule always ends.

The bound: ``rounds_lower_bound`` is what no schedule can beat; this one takes at most
``GUARANTEED_EXTRA_ROUNDS`` (4) rounds more for every field of 2 to 64 entrants and every
table size, checked for each of them by the tests (the schedule depends only on the
number of entrants, so that check proves it). Over those 248 fields it is the bound
itself 23 times, 1 more 41 times, 2 more 81, 3 more 72 and 4 more 21 times (how far
the best possible schedules are from that simple bound is not known here). Beyond 64
entrants nothing is promised but the end.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tournaments.formats.results import Round
from tournaments.formats.seating import PairCost, check_table_size, improve, pair_total, table_sizes

GUARANTEED_EXTRA_ROUNDS = 4
_TIE_BREAK_SEED = 0  # the bound above is checked for this order of tie-breaks


def _check_entrants(entrants: Sequence[int]) -> None:
    if len(entrants) < 2:
        raise ValueError(f"a round robin needs at least 2 entrants, got {len(entrants)}")
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is listed twice")


def heads_up_round_robin(entrants: Sequence[int]) -> tuple[Round, ...]:
    """Every pair of ``entrants`` once, in n - 1 rounds (n rounds with one bye each if n is odd).

    The first entrant stays put while the others turn round the circle; the fixed
    entrant's seat alternates so that everyone sits first about as often as second.
    """
    _check_entrants(entrants)
    circle: list[int | None] = list(entrants)
    if len(circle) % 2:
        circle.append(None)  # whoever faces the gap has the bye
    size = len(circle)
    rounds = []
    for number in range(size - 1):
        pairs: list[tuple[int, ...]] = []
        byes: list[int] = []
        for i in range(size // 2):
            first, second = circle[i], circle[size - 1 - i]
            if i == 0 and number % 2:
                first, second = second, first
            if first is None or second is None:
                byes += [player for player in (first, second) if player is not None]
            else:
                pairs.append((first, second))
        rounds.append(Round(tables=tuple(pairs), byes=tuple(byes)))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return tuple(rounds)


def rounds_lower_bound(entrants: int, table_size: int) -> int:
    """No schedule of balanced tables makes every pair meet in fewer rounds: in a round a
    player meets at most (largest table - 1) others, and all the tables together hold at
    most the sum of their pairs."""
    if entrants <= table_size:
        return 1
    sizes = table_sizes(entrants, table_size)
    per_player = -(-(entrants - 1) // (sizes[0] - 1))
    pairs_per_round = sum(size * (size - 1) // 2 for size in sizes)
    per_pair = -(-(entrants * (entrants - 1) // 2) // pairs_per_round)
    return max(per_player, per_pair)


def table_round_robin(entrants: Sequence[int], table_size: int) -> tuple[Round, ...]:
    """TN-3: rounds of balanced tables until every pair of ``entrants`` has shared a table.

    A field that fits one table plays one round; tables of two are the heads-up round
    robin. Ties in the search are broken by a fixed pseudo-random order of the positions
    in ``entrants``, so the schedule is a function of that order alone (not of the ids):
    the bound checked on 0..n-1 holds for every field, and a service wanting a different
    draw for the same field shuffles ``entrants`` with its own seed first.
    """
    _check_entrants(entrants)
    check_table_size(table_size)
    if table_size == 2:
        return heads_up_round_robin(entrants)
    if len(entrants) <= table_size:
        return (Round(tables=(tuple(entrants),)),)
    rng = random.Random(_TIE_BREAK_SEED)
    unmet = {player: set(entrants) - {player} for player in entrants}
    sizes = table_sizes(len(entrants), table_size)
    rounds = []
    while any(unmet.values()):
        cost = _unmet_cost(unmet)
        # Two local searches, from the greedy seating and from a shuffled one: a second
        # start saves about a round in four for twice the time; more starts save little.
        shuffled = list(entrants)
        rng.shuffle(shuffled)
        starts = [_greedy_tables(list(entrants), sizes, unmet, rng), _cut(shuffled, sizes)]
        tables = min((improve(start, cost) for start in starts), key=lambda seated: pair_total(seated, cost))
        for table in tables:
            for player in table:
                unmet[player] -= set(table)
        rounds.append(Round(tables=tables))
    return tuple(rounds)


def _unmet_cost(unmet: dict[int, set[int]]) -> PairCost:
    """This round's cost of seating two players together: a pair yet to meet is worth more
    the more meetings its players still lack, those players being the hardest to finish."""
    lacking = {player: len(others) for player, others in unmet.items()}

    def cost(a: int, b: int) -> int:
        return -(lacking[a] + lacking[b]) if b in unmet[a] else 0

    return cost


def _cut(players: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    tables = []
    start = 0
    for size in sizes:
        tables.append(list(players[start : start + size]))
        start += size
    return tables


def _greedy_tables(
    players: list[int], sizes: Sequence[int], unmet: dict[int, set[int]], rng: random.Random
) -> list[list[int]]:
    """Fill the tables one by one: open with the player lacking most meetings, then add
    whoever has not met the most of those seated."""
    order = {player: rng.random() for player in players}
    left = set(players)
    tables = []
    for size in sizes:
        first = max(left, key=lambda p: (len(unmet[p]), order[p]))
        table = [first]
        left.remove(first)
        with_table = dict.fromkeys(left, 0)  # how many seated players each has not met
        while len(table) < size:
            for player in unmet[table[-1]] & left:
                with_table[player] += 1
            best = max(left, key=lambda p: (with_table[p], len(unmet[p]), order[p]))
            table.append(best)
            left.remove(best)
        tables.append(table)
    return tables
