"""TN-3, TN-4: points and standings with their tie-breaks.

Points (TN-3): a place at a table of n earns n - place. Players tied at a table share the
places they cover, each scoring their average: two tied for 2nd at a table of 4 cover
places 2 and 3, so each scores (2 + 1) / 2 = 1.5. That keeps every table worth
n(n - 1)/2 points however it finishes, and a heads-up game, a table of two, scores as
TN-4's Swiss expects: a win 1, a draw 0.5, a loss 0.

It has a second reading that the tie-breaks use: a table of n is the n(n - 1)/2
heads-up games between its players, each won by the one who finished higher (halved if
they tied). A player's points are exactly their score in those games (n - place beats
and half of each tie), so the heads-up definitions carry over to tables unchanged:

- Buchholz: the sum of the points of every opponent, over every table played (a table of
  n gives n - 1 opponents). A bye has no opponent, so it adds nothing (FIDE's "virtual
  opponent" would be more than a site's event needs).
- Sonneborn-Berger: the sum, over every opponent at every table, of that opponent's
  points times your result against them (1 if you finished higher, 0.5 if level, 0 if
  lower). Heads-up this is the usual definition.

A bye (TN-4) earns a win, 1 point, in a heads-up round, and in a round at bigger tables
the average points of the players seated that round.

Standings order: points, Buchholz, Sonneborn-Berger, rating (higher first; unrated
after rated), then the seed order, so the order is total; players level on everything
but the seed share a rank. Points are ``Fraction``s: tie-breaks compare them exactly.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tournaments.formats.results import RoundResult, TableResult

WIN = Fraction(1)
DRAW = Fraction(1, 2)
LOSS = Fraction(0)


def table_points(table: TableResult) -> dict[int, Fraction]:
    """TN-3: n - place for a place at a table of n; tied players average the places they cover."""
    seated = len(table.players)
    out: dict[int, Fraction] = {}
    place = 1
    for group in table.finish:
        covered = len(group)
        share = Fraction(seated - place) - Fraction(covered - 1, 2)
        for player in group:
            out[player] = share
        place += covered
    return out


def result_against(table: TableResult, player: int, opponent: int) -> Fraction:
    """``player``'s score in the heads-up game the table holds against ``opponent``."""
    places = table.places()
    mine, theirs = places[player], places[opponent]
    return WIN if mine < theirs else DRAW if mine == theirs else LOSS


def bye_points(round_result: RoundResult) -> Fraction:
    """TN-4: a win in a heads-up round, else the round's average points per seated player."""
    seated = [len(table.players) for table in round_result.tables]
    if all(size == 2 for size in seated):
        return WIN
    total = sum(size * (size - 1) for size in seated)  # twice the points of every table
    return Fraction(total, 2 * sum(seated))


def points(rounds: Sequence[RoundResult]) -> dict[int, Fraction]:
    """Every player's total: their tables' points and their byes' points."""
    out: dict[int, Fraction] = defaultdict(Fraction)
    for round_result in rounds:
        for table in round_result.tables:
            for player, earned in table_points(table).items():
                out[player] += earned
        for player in round_result.byes:
            out[player] += bye_points(round_result)
    return dict(out)


@dataclass(frozen=True)
class Standing:
    entrant: int
    rank: int  # shared by players level on points and every tie-break
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    rating: float | None
    tables: int  # tables played (heads-up: games)
    byes: int


def standings(
    entrants: Sequence[int],
    rounds: Sequence[RoundResult],
    ratings: Mapping[int, float | None] | None = None,
) -> tuple[Standing, ...]:
    """TN-4: every entrant (in seed order, first seed first), best first.

    Late entrants (TN-7) simply have no results for the rounds they missed, and
    withdrawn players keep the results they have.
    """
    seed = {entrant: i for i, entrant in enumerate(entrants)}
    if len(seed) != len(entrants):
        raise ValueError("an entrant is listed twice")
    total = points(rounds)
    unknown = set(total) - set(seed)
    if unknown:
        raise ValueError(f"results for entrants not entered: {sorted(unknown)}")
    buchholz: dict[int, Fraction] = defaultdict(Fraction)
    berger: dict[int, Fraction] = defaultdict(Fraction)
    tables: dict[int, int] = defaultdict(int)
    byes: dict[int, int] = defaultdict(int)
    for round_result in rounds:
        for table in round_result.tables:
            for player in table.players:
                tables[player] += 1
                for opponent in table.players:
                    if opponent != player:
                        buchholz[player] += total[opponent]
                        berger[player] += total[opponent] * result_against(table, player, opponent)
        for player in round_result.byes:
            byes[player] += 1
    ratings = ratings or {}

    def level(entrant: int) -> tuple[Fraction, Fraction, Fraction, bool, float]:
        rating = ratings.get(entrant)
        return (
            -total.get(entrant, Fraction(0)),
            -buchholz[entrant],
            -berger[entrant],
            rating is None,
            0.0 if rating is None else -rating,
        )

    ordered = sorted(entrants, key=lambda entrant: (level(entrant), seed[entrant]))
    out: list[Standing] = []
    for position, entrant in enumerate(ordered):
        rank = out[-1].rank if out and level(ordered[position - 1]) == level(entrant) else position + 1
        out.append(
            Standing(
                entrant=entrant,
                rank=rank,
                points=total.get(entrant, Fraction(0)),
                buchholz=buchholz[entrant],
                sonneborn_berger=berger[entrant],
                rating=ratings.get(entrant),
                tables=tables[entrant],
                byes=byes[entrant],
            )
        )
    return tuple(out)
