"""TN-3, TN-4: points, Buchholz, Sonneborn-Berger and the standings, worked out by hand."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.results import Round, RoundResult, TableResult
from tournaments.formats.standings import bye_points, points, result_against, standings, table_points


def test_a_place_at_a_table_of_n_earns_n_minus_the_place() -> None:
    # TN-3: 1st of 6 earns 5, last 0.
    assert table_points(TableResult.in_order([1, 2, 3, 4, 5, 6])) == {1: 5, 2: 4, 3: 3, 4: 2, 5: 1, 6: 0}


def test_tied_players_average_the_places_they_cover() -> None:
    # A table of 4: 7 first (3); 3 and 9 cover places 2 and 3 (2 and 1 points): 1.5 each; 4 last (0).
    table = TableResult.from_places({7: 1, 3: 2, 9: 2, 4: 4})
    assert table.finish == ((7,), (3, 9), (4,))
    assert table_points(table) == {7: 3, 3: F(3, 2), 9: F(3, 2), 4: 0}
    # Everyone tied at a table of 3: each averages 2, 1 and 0.
    assert table_points(TableResult(((1, 2, 3),))) == {1: 1, 2: 1, 3: 1}


def test_heads_up_is_a_win_a_draw_or_a_loss() -> None:
    assert table_points(TableResult.win(1, 2)) == {1: 1, 2: 0}
    assert table_points(TableResult.draw(1, 2)) == {1: F(1, 2), 2: F(1, 2)}


def test_places_that_cannot_be_are_refused() -> None:
    with pytest.raises(ValueError, match="cannot follow"):
        TableResult.from_places({1: 1, 2: 3})
    with pytest.raises(ValueError, match="cannot follow"):
        TableResult.from_places({1: 2, 2: 2})
    with pytest.raises(ValueError, match="twice"):
        TableResult(((1,), (1,)))
    with pytest.raises(ValueError, match="at least two"):
        TableResult(((1,),))
    with pytest.raises(ValueError, match="lone entrant"):
        Round(tables=((1,),))


@settings(max_examples=100, deadline=None)
@given(size=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_every_table_is_worth_n_n_minus_1_over_2_and_points_are_the_pairwise_games(
    size: int, seed: int
) -> None:
    rng = random.Random(seed)
    players = list(range(size))
    raw = {p: rng.randint(1, size) for p in players}
    table = TableResult.from_places({p: 1 + sum(raw[q] < raw[p] for q in players) for p in players})
    earned = table_points(table)
    assert sum(earned.values()) == size * (size - 1) // 2
    for p in players:  # TN-3's points are the player's score in the table's heads-up games
        assert earned[p] == sum(result_against(table, p, q) for q in players if q != p)


def test_the_bye_is_a_win_heads_up_and_the_average_at_tables() -> None:
    heads_up = RoundResult(tables=(TableResult.win(1, 2),), byes=(3,))
    assert bye_points(heads_up) == 1
    # Tables of 3 and 2 hand out 3 + 1 points among 5 players: 4/5 each on average.
    tables = RoundResult(tables=(TableResult.in_order([1, 2, 3]), TableResult.win(4, 5)), byes=(6,))
    assert bye_points(tables) == F(4, 5)
    # 1: win + 1st of 3 (2) = 3; 2: loss + 2nd of 3 (1) = 1; 3: bye (1) + 3rd of 3 (0) = 1.
    assert points([heads_up, tables]) == {1: 3, 2: 1, 3: 1, 4: 1, 5: 0, 6: F(4, 5)}


def round_of(*tables: TableResult, byes: tuple[int, ...] = ()) -> RoundResult:
    return RoundResult(tables=tables, byes=byes)


def test_sonneborn_berger_splits_equal_buchholz_in_a_round_robin() -> None:
    # A, B, C, D = 1, 2, 3, 4; a round robin, so Buchholz = 6 - own points for everyone.
    a, b, c, d = 1, 2, 3, 4
    rounds = [
        round_of(TableResult.win(a, b), TableResult.win(d, c)),
        round_of(TableResult.win(c, a), TableResult.win(b, d)),
        round_of(TableResult.win(a, d), TableResult.win(b, c)),
    ]
    # Points: A 2 (beat B, D), B 2 (beat D, C), C 1 (beat A), D 1 (beat C).
    # Buchholz: A = B 2 + C 1 + D 1 = 4; B = A 2 + C 1 + D 1 = 4; C = A 2 + B 2 + D 1 = 5; D = 5.
    # Sonneborn-Berger: A = B's 2 + D's 1 = 3; B = D's 1 + C's 1 = 2; C = A's 2 = 2; D = C's 1 = 1.
    table = standings([a, b, c, d], rounds)
    assert [(s.entrant, s.rank, s.points, s.buchholz, s.sonneborn_berger) for s in table] == [
        (a, 1, F(2), F(4), F(3)),
        (b, 2, F(2), F(4), F(2)),
        (c, 3, F(1), F(5), F(2)),
        (d, 4, F(1), F(5), F(1)),
    ]


def test_buchholz_then_sonneborn_berger_then_rating_then_a_shared_rank() -> None:
    rounds = [
        round_of(TableResult.win(1, 2), TableResult.win(3, 4), TableResult.draw(5, 6)),
        round_of(TableResult.win(1, 3), TableResult.win(2, 5), TableResult.draw(4, 6)),
    ]
    # Points: 1: 2; 2: 1; 3: 1; 6: 1/2 + 1/2 = 1; 4: 1/2; 5: 1/2.
    # Buchholz: 1 = 2's 1 + 3's 1 = 2;   2 = 1's 2 + 5's 1/2 = 5/2;   3 = 4's 1/2 + 1's 2 = 5/2;
    #           6 = 5's 1/2 + 4's 1/2 = 1;   4 = 3's 1 + 6's 1 = 2;   5 = 6's 1 + 2's 1 = 2.
    # Sonneborn-Berger: 2 = 5's 1/2 (a win) = 1/2; 3 = 4's 1/2 (a win) = 1/2: level;
    #           4 = 1/2 x 6's 1 = 1/2; 5 = 1/2 x 6's 1 = 1/2: level.
    # So 2 and 3 go by rating (3 higher); 6 has less Buchholz; 4 and 5 are level on all
    # (both unrated) and share 5th, listed in seed order.
    table = standings([1, 2, 3, 4, 5, 6], rounds, ratings={2: 1500.0, 3: 1600.0})
    assert [(s.entrant, s.rank) for s in table] == [(1, 1), (3, 2), (2, 3), (6, 4), (4, 5), (5, 5)]
    by_entrant = {s.entrant: s for s in table}
    assert [by_entrant[p].buchholz for p in (1, 2, 3, 4, 5, 6)] == [2, F(5, 2), F(5, 2), 2, 2, 1]
    assert [by_entrant[p].sonneborn_berger for p in (1, 2, 3, 4, 5, 6)] == [
        2,
        F(1, 2),
        F(1, 2),
        F(1, 2),
        F(1, 2),
        F(1, 2),
    ]
    assert by_entrant[3].rating == 1600.0 and by_entrant[4].rating is None


def test_tie_breaks_at_tables_count_everyone_at_your_tables() -> None:
    a, b, c, d, e, f = 1, 2, 3, 4, 5, 6
    rounds = [
        # a 2, b 1, c 0; d and e tie first: (2 + 1) / 2 = 3/2 each; f 0.
        round_of(TableResult.in_order([a, b, c]), TableResult(((d, e), (f,)))),
        # d 2, a and f tie second: 1/2 each; c 2, b 1, e 0.
        round_of(TableResult(((d,), (a, f))), TableResult.in_order([c, b, e])),
    ]
    # Points: a 5/2, b 2, c 2, d 7/2, e 3/2, f 1/2 (12 in all: four tables of 3).
    # Buchholz: a = (b 2 + c 2) + (d 7/2 + f 1/2) = 8;   b = (a 5/2 + c 2) + (c 2 + e 3/2) = 8;
    #   c = (a 5/2 + b 2) + (b 2 + e 3/2) = 8;   d = (e 3/2 + f 1/2) + (a 5/2 + f 1/2) = 5;
    #   e = (d 7/2 + f 1/2) + (c 2 + b 2) = 8;   f = (d 7/2 + e 3/2) + (d 7/2 + a 5/2) = 11.
    # Sonneborn-Berger (your result against each opponent x their points):
    #   a = 1 x 2 (b) + 1 x 2 (c) + 0 (d) + 1/2 x 1/2 (f) = 17/4
    #   b = 0 (a) + 1 x 2 (c) + 0 (c) + 1 x 3/2 (e) = 7/2;   c = 0 + 0 + 1 x 2 (b) + 1 x 3/2 (e) = 7/2
    #   d = 1/2 x 3/2 (e) + 1 x 1/2 (f) + 1 x 5/2 (a) + 1 x 1/2 (f) = 17/4
    #   e = 1/2 x 7/2 (d) + 1 x 1/2 (f) + 0 + 0 = 9/4;   f = 0 + 0 + 0 + 1/2 x 5/2 (a) = 5/4
    # b and c are level on points, Buchholz and Sonneborn-Berger: c's rating puts c first.
    table = standings([a, b, c, d, e, f], rounds, ratings={c: 1700.0})
    got = {s.entrant: (s.points, s.buchholz, s.sonneborn_berger) for s in table}
    assert got == {
        a: (F(5, 2), F(8), F(17, 4)),
        b: (F(2), F(8), F(7, 2)),
        c: (F(2), F(8), F(7, 2)),
        d: (F(7, 2), F(5), F(17, 4)),
        e: (F(3, 2), F(8), F(9, 4)),
        f: (F(1, 2), F(11), F(5, 4)),
    }
    assert [s.entrant for s in table] == [d, a, c, b, e, f]
    assert [s.tables for s in table] == [2] * 6


def test_a_bye_scores_but_brings_no_opponent() -> None:
    rounds = [round_of(TableResult.win(1, 2), byes=(3,)), round_of(TableResult.win(3, 1), byes=(2,))]
    # 3: bye 1 + win 1 = 2; 1: 1; 2: bye 1.  Buchholz of 3 counts only 1 (its one opponent): 1.
    table = {s.entrant: s for s in standings([1, 2, 3], rounds)}
    assert (table[3].points, table[3].buchholz, table[3].byes, table[3].tables) == (F(2), F(1), 1, 1)
    assert (table[2].points, table[2].buchholz) == (F(1), F(1))


def test_late_entrants_and_unknown_players() -> None:
    rounds = [round_of(TableResult.win(1, 2))]
    table = standings([1, 2, 3], rounds)  # 3 entered late and has not played
    # 2 and 3 have no points; 2's Buchholz is 1 (it met 1), 3's is 0.
    assert [(s.entrant, s.points, s.buchholz, s.rank) for s in table] == [
        (1, F(1), F(0), 1),
        (2, F(0), F(1), 2),
        (3, F(0), F(0), 3),
    ]
    assert [s.rank for s in standings([1, 2, 3, 4], rounds)] == [1, 2, 3, 3]  # 3 and 4 level: shared
    with pytest.raises(ValueError, match="not entered"):
        standings([1], rounds)
