"""TN-3: how many tables a round needs, and a local search that seats players at them.

A round uses the fewest tables of at most ``table_size`` seats, their sizes as equal as
possible (they differ by at most one). Which players sit together is left to a cost on
pairs: both the table round robin (seat together those who have not met) and table
Swiss (avoid repeat meetings, keep scores close) are sums over the pairs at each table,
so one search serves both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

MIN_TABLE_SIZE = 2
MAX_TABLE_SIZE = 6

PairCost = Callable[[int, int], int]


def check_table_size(table_size: int) -> None:
    if not MIN_TABLE_SIZE <= table_size <= MAX_TABLE_SIZE:
        raise ValueError(f"a table seats {MIN_TABLE_SIZE} to {MAX_TABLE_SIZE} players, not {table_size}")


def table_sizes(players: int, table_size: int) -> tuple[int, ...]:
    """TN-3: the sizes of a round's tables, bigger first, for ``players`` at tables of at most
    ``table_size``. Heads-up (2) with an odd number of players leaves one out: their bye.

    With 3 or more seats a table of one never happens: ``m = ceil(n / t)`` tables hold at
    least two players each whenever n > t >= 3 (then n(t - 2) >= 2t - 2, so n >= 2m).
    """
    check_table_size(table_size)
    if players < MIN_TABLE_SIZE:
        raise ValueError(f"a round needs at least {MIN_TABLE_SIZE} players, got {players}")
    if table_size == MIN_TABLE_SIZE:
        return (2,) * (players // 2)
    tables = -(-players // table_size)
    small, bigger = divmod(players, tables)
    return (small + 1,) * bigger + (small,) * (tables - bigger)


def improve(tables: Sequence[Sequence[int]], pair_cost: PairCost) -> tuple[tuple[int, ...], ...]:
    """Lower the summed cost of the pairs sharing a table by swapping two players between
    tables, or moving one from a bigger table to a smaller (the sizes stay balanced), until
    no such step lowers it: a local minimum, reached in a deterministic order.
    ``pair_cost`` must be symmetric.

    Integer costs keep it exact, and every step strictly lowers the total, so it ends.
    """
    players = [player for table in tables for player in table]
    index = {player: i for i, player in enumerate(players)}
    count = len(players)
    cost = [[0] * count for _ in range(count)]
    for i, a in enumerate(players):  # a pair's cost is the same both ways round
        for j in range(i + 1, count):
            cost[i][j] = cost[j][i] = pair_cost(a, players[j])
    members = [[index[player] for player in table] for table in tables]
    where = [0] * count
    for t, table in enumerate(members):
        for i in table:
            where[i] = t
    # at[i][t]: the cost player i would pay with table t's players (those of i's own table
    # excluding i, since cost[i][i] is 0).
    at = [[sum(map(cost[i].__getitem__, table)) for table in members] for i in range(count)]

    def shift(i: int, source: int, target: int) -> None:
        for at_p, cost_p in zip(at, cost, strict=True):
            at_p[source] -= cost_p[i]
            at_p[target] += cost_p[i]
        where[i] = target

    improved = True
    while improved:
        improved = False
        for a in range(count):
            at_a, cost_a = at[a], cost[a]
            for b in range(a + 1, count):
                ta, tb = where[a], where[b]
                if ta == tb:
                    continue
                at_b = at[b]
                if at_a[tb] + at_b[ta] - 2 * cost_a[b] < at_a[ta] + at_b[tb]:
                    members[ta][members[ta].index(a)] = b
                    members[tb][members[tb].index(b)] = a
                    shift(a, ta, tb)
                    shift(b, tb, ta)
                    improved = True
            for t in range(len(members)):
                source = where[a]
                if len(members[source]) == len(members[t]) + 1 and at_a[t] < at_a[source]:
                    members[source].remove(a)
                    members[t].append(a)
                    shift(a, source, t)
                    improved = True
    return tuple(tuple(players[i] for i in table) for table in members)


def pair_total(tables: Sequence[Sequence[int]], pair_cost: PairCost) -> int:
    """The summed cost of every pair sharing a table."""
    return sum(
        pair_cost(table[i], table[j])
        for table in tables
        for i in range(len(table))
        for j in range(i + 1, len(table))
    )
