"""TN-4 (with TN-3 and TN-7): the next round of a Swiss event, from the results so far.

The pairing order ranks the active players by points, then by seed (the usual Swiss
"pairing number": tie-breaks rank the final standings, not the draw). Players group by
points into score groups, the best group first.

Heads-up rounds. With an odd number of players, the bye goes to the lowest-ranked
player who has not had one (TN-4); if all have had one (more rounds than players,
which TN-4 does not foresee), to the lowest-ranked among those with the fewest. The
bye is settled first, as TN-4 names its player outright; so in a rare field a rematch
that another bye would have avoided is kept, the no-rematch rule applying to the rest.
The others are paired by a maximum-weight perfect matching (``networkx``, Edmonds' blossom
algorithm) where each pair's weight is ``K - cost`` and the cost is, by weight scheme::

    cost(a, b) = REMATCH * meetings(a, b)
               + GROUP * (group(a) - group(b)) ** 2
               + split(a, b)

    split(a, b) = | |pos(a) - pos(b)| - size(a) // 2 |       a and b in one score group
                = (size(a) - 1 - pos(a)) + pos(b)             a floats down to b's group

``meetings`` counts earlier tables the two shared; ``group`` is the score group's index
(0 the best); ``pos`` is a player's place within their score group in pairing order (0
its top), ``size`` that group's size. The matching has n/2 pairs whatever it is, so the
heaviest one has the least total cost. ``GROUP`` exceeds the largest total of ``split``
(n/2 pairs of at most 2n each), and ``REMATCH`` the largest total of the two terms below
it, so the totals compare lexicographically: first the fewest meetings repeated (none
whenever a pairing without a rematch exists), then the closest score groups (squared,
so two floats to the next group beat one across two groups), then within a group the
top half against the bottom half (1st v (size/2+1)th ...), a float being the lowest of
its group and meeting the highest of the group below, as Swiss systems do.

Table rounds (TN-3). Players are seated in pairing order into balanced tables, the best
at the first table, then a local search (``seating.improve``) swaps players between
tables while that lowers ``REMATCH * meetings + (group(a) - group(b)) ** 2`` summed
over the pairs at each table, ``REMATCH`` exceeding the largest total of the second
term: first fewer repeat meetings, then tables closer in score. It is a local minimum,
not a proven optimum. Tables of 3 or more never need a bye.

Late entrants (TN-7) are in ``active`` with no results (zero points for the rounds
missed); withdrawn players are left out of ``active``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import networkx as nx

from tournaments.formats.results import Round, RoundResult
from tournaments.formats.seating import check_table_size, improve, table_sizes
from tournaments.formats.standings import points as total_points

Pair = frozenset[int]


@dataclass(frozen=True)
class SwissField:
    """What the draw needs to know of the event so far."""

    ranked: tuple[int, ...]  # the active players in pairing order, best first
    points: Mapping[int, Fraction]
    meetings: Mapping[Pair, int]
    byes: Mapping[int, int]

    def score(self, player: int) -> Fraction:
        return self.points.get(player, Fraction(0))

    def groups(self, players: Collection[int]) -> dict[int, int]:
        """Each of ``players``' score group index among them, 0 the best (the bye's player is
        left out, so that their score makes no group of its own between the others)."""
        levels = sorted({self.score(player) for player in players}, reverse=True)
        index = {level: i for i, level in enumerate(levels)}
        return {player: index[self.score(player)] for player in players}


def meetings(rounds: Sequence[RoundResult]) -> Counter[Pair]:
    """How many times each pair has shared a table."""
    met: Counter[Pair] = Counter()
    for round_result in rounds:
        for table in round_result.tables:
            players = table.players
            for i, player in enumerate(players):
                for other in players[i + 1 :]:
                    met[frozenset((player, other))] += 1
    return met


def swiss_field(seeds: Sequence[int], active: Collection[int], rounds: Sequence[RoundResult]) -> SwissField:
    """The field for the next round: ``seeds`` lists every entrant in seed order (late
    entrants too), ``active`` those who play it."""
    seed = {entrant: i for i, entrant in enumerate(seeds)}
    if len(seed) != len(seeds):
        raise ValueError("an entrant is listed twice")
    strangers = {p for p in active if p not in seed} | {
        p for round_result in rounds for p in round_result.players() if p not in seed
    }
    if strangers:
        raise ValueError(f"not entrants: {sorted(strangers)}")
    scores = total_points(rounds)
    ranked = tuple(sorted(set(active), key=lambda p: (-scores.get(p, Fraction(0)), seed[p])))
    byes: Counter[int] = Counter(p for round_result in rounds for p in round_result.byes)
    return SwissField(ranked=ranked, points=scores, meetings=meetings(rounds), byes=dict(byes))


def choose_bye(field: SwissField) -> int:
    """TN-4: the lowest-ranked player without a bye (else with the fewest byes)."""
    fewest = min(field.byes.get(player, 0) for player in field.ranked)
    return next(player for player in reversed(field.ranked) if field.byes.get(player, 0) == fewest)


def pair_costs(field: SwissField, players: Sequence[int]) -> dict[Pair, int]:
    """The cost of each pair of ``players`` by the module's weight scheme."""
    group = field.groups(players)
    members: dict[int, list[int]] = {}
    for player in players:  # in pairing order, so positions count from the group's top
        members.setdefault(group[player], []).append(player)
    position = {player: i for same in members.values() for i, player in enumerate(same)}
    count = len(players)
    spread = max((group[player] for player in players), default=0)
    group_weight = count * count + 1  # GROUP: above any total of split()
    rematch_weight = group_weight * (count * spread * spread + 1)  # REMATCH: above the two below
    costs: dict[Pair, int] = {}
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            cost = rematch_weight * field.meetings.get(frozenset((a, b)), 0)
            cost += group_weight * (group[a] - group[b]) ** 2
            high, low = (a, b) if group[a] <= group[b] else (b, a)
            size = len(members[group[high]])
            if group[high] == group[low]:
                cost += abs(abs(position[high] - position[low]) - size // 2)
            else:
                cost += size - 1 - position[high] + position[low]
            costs[frozenset((a, b))] = cost
    return costs


def pair_heads_up(field: SwissField) -> Round:
    """TN-4: a heads-up round; boards in order of their better-ranked player, who sits first."""
    if len(field.ranked) < 2:
        raise ValueError("a Swiss round needs at least 2 active players")
    players = list(field.ranked)
    byes: tuple[int, ...] = ()
    if len(players) % 2:
        bye = choose_bye(field)
        players.remove(bye)
        byes = (bye,)
    costs = pair_costs(field, players)
    heaviest = max(costs.values(), default=0) + 1
    graph = nx.Graph()
    for i, a in enumerate(players):
        for j in range(i + 1, len(players)):
            graph.add_edge(i, j, weight=heaviest - costs[frozenset((a, players[j]))])
    matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted(tuple(sorted(edge)) for edge in matching)
    if 2 * len(pairs) != len(players):
        raise AssertionError("a complete graph on an even number of players has a perfect matching")
    tables = tuple((players[first], players[second]) for first, second in pairs)
    return Round(tables=tables, byes=byes)


def seat_tables(field: SwissField, table_size: int) -> Round:
    """TN-3: a round at balanced tables of up to ``table_size``: by score, few repeat meetings."""
    check_table_size(table_size)
    if table_size == 2:
        return pair_heads_up(field)
    players = field.ranked
    sizes = table_sizes(len(players), table_size)
    start: list[list[int]] = []
    for size in sizes:
        taken = sum(len(table) for table in start)
        start.append(list(players[taken : taken + size]))
    group = field.groups(players)
    spread = max(group.values(), default=0)
    rematch_weight = len(players) * table_size * spread * spread + 1

    def cost(a: int, b: int) -> int:
        return rematch_weight * field.meetings.get(frozenset((a, b)), 0) + (group[a] - group[b]) ** 2

    rank = {player: i for i, player in enumerate(players)}
    tables = [sorted(table, key=rank.__getitem__) for table in improve(start, cost)]
    tables.sort(key=lambda table: rank[table[0]])
    return Round(tables=tuple(tuple(table) for table in tables))


def next_round(
    seeds: Sequence[int],
    active: Collection[int],
    rounds: Sequence[RoundResult],
    *,
    table_size: int = 2,
) -> Round:
    """TN-4: the next round's draw, a pure function of the entrants and the results so far."""
    field = swiss_field(seeds, active, rounds)
    return pair_heads_up(field) if table_size == 2 else seat_tables(field, table_size)
