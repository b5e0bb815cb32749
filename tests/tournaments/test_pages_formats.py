"""Each format's page for an event played to its end with people and bots: the brackets
(winners', losers', finals), the round robin's cross table, the Swiss standings after
every round with their tie-breaks, each round's tables, byes and every game's replay."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse

from accounts.models import User
from games.models import Table
from tests.tournaments.support import person, play_out
from tests.tournaments.test_pages import (
    logged_in,
    page,
    play_one,
    played_to_the_end,
    record_ids,
    replay_ids,
    texts,
    with_players,
)
from tournaments import services
from tournaments.models import Entry, Match, MatchGame, Tournament

pytestmark = pytest.mark.django_db
VALUE = {"1": Fraction(1), "½": Fraction(1, 2), "0": Fraction(0)}


def number(text: str) -> Fraction:
    """A points figure as the page writes it: 3, 2½, ½ or 1.33."""
    if text.endswith("½"):
        return Fraction(text[:-1] or 0) + Fraction(1, 2)
    return Fraction(text).limit_denominator(100)


def names_by_place(tournament: Tournament) -> list[str]:
    return [entry.name for entry in tournament.entries.select_related("user").order_by("place", "seed")]


def test_single_elimination_best_of_three_with_a_bye_and_a_third_place_match() -> None:
    tournament = played_to_the_end(3, format="single_elimination", best_of=3, third_place=True)
    html = page(tournament)
    assert "Single elimination</strong> with a third-place match · best of 3 · heads-up" in html
    columns = texts(html, "bracket")[0]
    assert columns.startswith("Semi-finals") and "Final" in columns
    first_seed = tournament.entries.get(seed=0)
    boxes = texts(html, "match")
    assert len(boxes) == 4  # two semi-finals, the final, the third-place match
    assert f"seed 1 {first_seed.name} ✓ winner bye: no opponent, no game" in boxes[0]
    for match in Match.objects.filter(tournament=tournament, bye=False).prefetch_related("seatings__entry"):
        box = next(box for box in boxes if all(s.entry.name in box for s in match.seatings.all()))
        seated = list(match.seatings.order_by("seat"))
        wins = [match.games.filter(winner=seating.entry).count() for seating in seated]
        assert max(wins) == 2
        for seating in seated:
            assert f"{seating.entry.name} {wins[seating.seat]}" in box
        assert "Game 1" in box and "Game 2" in box
    finals = texts(html, "finals")[0]
    assert finals.startswith("Third place") and "bye" in finals  # the bye's loser is nobody
    assert replay_ids(html) == record_ids(tournament)
    places = texts(html, "place")
    assert [place.split()[0] for place in places] == ["1st", "2nd", "3rd"]
    assert [place.split(maxsplit=1)[1] for place in places] == names_by_place(tournament)
    assert texts(html, "tournament-winner") == [f"Champion: {names_by_place(tournament)[0]}"]


def test_double_elimination_draws_the_losers_bracket_and_the_finals() -> None:
    tournament = played_to_the_end(4, format="double_elimination")
    html = page(tournament)
    winners = texts(html, "bracket")[0]
    assert winners.startswith("Winners' semi-finals") and "Winners' final" in winners
    losers = texts(html, "losers-bracket")[0]
    assert losers.startswith("Losers' round 1") and "Losers' round 2" in losers
    assert "Losers' round 3" not in losers
    finals = texts(html, "finals")[0]
    assert finals.startswith("Grand final") and "Grand final reset" in finals
    reset = Match.objects.get(tournament=tournament, side="grand_final_reset")
    if reset.seatings.exists():
        assert finals.count("Replay") == 2
    else:
        assert "Not needed: the winners' bracket player won the grand final" in finals
    assert replay_ids(html) == record_ids(tournament)
    assert len(texts(html, "match")) == Match.objects.filter(tournament=tournament).count()
    places = texts(html, "place")
    assert [place.split()[0] for place in places] == ["1st", "2nd", "3rd", "4th"]
    assert [place.split(maxsplit=1)[1] for place in places] == names_by_place(tournament)


def _cross_table(html: str) -> tuple[list[str], list[list[str]], list[Fraction]]:
    names = texts(html, "cross-name")
    cells = texts(html, "cross-cell")
    size = len(names)
    assert len(cells) == size * size
    rows = [cells[i * size : (i + 1) * size] for i in range(size)]
    return names, rows, [number(points) for points in texts(html, "cross-points")]


def test_a_heads_up_round_robin_shows_everyone_against_everyone_in_its_cross_table() -> None:
    tournament = played_to_the_end(1, format="round_robin", fill_with_bots=True, max_entrants=4)
    html = page(tournament)
    names, rows, points = _cross_table(html)
    assert names == names_by_place(tournament) and len(names) == 4
    for i, row in enumerate(rows):
        assert row[i] == "self"
        results = [VALUE[cell] for j, cell in enumerate(row) if j != i]
        assert len(results) == 3  # met everyone once
        assert sum(results) == points[i]
        for j, cell in enumerate(row):
            if j != i:
                assert VALUE[cell] + VALUE[rows[j][i]] == 1  # the same game, seen from each side
    assert points == sorted(points, reverse=True)
    assert texts(html, "cross-place")[0] == "1st"
    rounds = texts(html, "round")
    assert [r.split()[:2] for r in rounds] == [["Round", "3"], ["Round", "2"], ["Round", "1"]]
    assert replay_ids(html) == record_ids(tournament) and len(record_ids(tournament)) == 6


def _meetings(cell: str) -> list[tuple[int, int]]:
    """A table cross table's cell, '1 v 3 2 v 1': the row's place and the column's, each time."""
    words = cell.split()
    assert words[1::3] == ["v"] * (len(words) // 3) and len(words) % 3 == 0
    return [(int(words[n]), int(words[n + 2])) for n in range(0, len(words), 3)]


def test_a_round_robin_at_tables_shows_the_places_each_had_where_they_met() -> None:
    tournament = played_to_the_end(1, format="round_robin", fill_with_bots=True, max_entrants=6, table_size=3)
    html = page(tournament)
    names, rows, points = _cross_table(html)
    assert len(names) == 6
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            if i == j:
                continue
            assert cell, f"{names[i]} never shared a table with {names[j]}"
            assert [(b, a) for a, b in _meetings(cell)] == _meetings(rows[j][i])
    assert sum(points) == 3 * len(texts(html, "match"))  # a table of 3 is worth 2 + 1 + 0
    first_round = texts(html, "round")[-1]
    assert first_round.count("1st ·") >= 2 and "pts" in first_round  # a place and its points at each table
    assert replay_ids(html) == record_ids(tournament)


def _standings(html: str) -> list[tuple[str, list[str], list[Fraction]]]:
    """Each round's standings on the page: its title, the names and the points, in order."""
    out = []
    for chunk in html.split('data-testid="standings-round"')[1:]:
        title = chunk.split("<summary>", 1)[1].split("</summary>", 1)[0]
        end = chunk.split("</details>", 1)[0]
        out.append((title, texts(end, "standing-name"), [number(p) for p in texts(end, "standing-points")]))
    return out


def test_swiss_shows_the_standings_with_tie_breaks_after_every_round_and_the_byes() -> None:
    tournament = played_to_the_end(1, format="swiss", rounds=3, fill_with_bots=True, max_entrants=5)
    html = page(tournament)
    tables = _standings(html)
    assert [title for title, _, _ in tables] == [
        "Final standings, after round 3",
        "After round 2",
        "After round 1",
    ]
    assert '<details class="tn-standings" open data-testid="standings-round">' in html
    assert html.count('<details class="tn-standings" open') == 1  # the latest open, the rest folded
    for (_, names, points), played in zip(tables, (3, 2, 1), strict=True):
        assert len(names) == 5 and points == sorted(points, reverse=True)
        assert sum(points) == 3 * played  # two games and a bye, a point each, every round
    assert tables[0][1] == names_by_place(tournament)
    assert "Buchholz" in html and "Sonneborn-Berger" in html
    rounds = texts(html, "round")
    assert len(rounds) == 3 and all("bye: no opponent, no game" in r for r in rounds)
    assert html.count('<span class="muted small">(1 bye)</span>') == 1 + 2 + 3  # byes so far, by table
    assert "2 byes" not in html  # never twice to one entrant
    assert replay_ids(html) == record_ids(tournament)


def test_swiss_at_tables_of_tauron_hold_em_scores_places() -> None:
    tournament = played_to_the_end(
        1,
        game="tauron",
        format="swiss",
        rounds=2,
        table_size=3,
        fill_with_bots=True,
        max_entrants=7,
    )
    html = page(tournament)
    assert "Tauron Hold-Em · <strong>Swiss</strong>, 2 rounds · one game a match · tables of up to 3" in html
    (_, names, points), (_, _, first_points) = _standings(html)
    assert names == names_by_place(tournament)
    assert sum(first_points) == 3 + 1 + 1  # tables of 3, 2 and 2
    assert sum(points) == 2 * 5
    assert replay_ids(html) == record_ids(tournament)


def _play_the_match_of(tournament: Tournament, user: User) -> None:
    mine = MatchGame.objects.filter(
        match__tournament=tournament, match__seatings__entry__user=user, table__status=Table.Status.PLAYING
    ).select_related("table")
    while (game := mine.first()) is not None:
        services.record_match(game_id=play_out(game.table).pk)


def test_a_withdrawn_player_is_marked_and_a_late_entrant_joins_the_swiss_until_round_two() -> None:
    tournament, (ann, *_) = with_players(4, format="swiss", rounds=3)
    services.start_now(tournament_id=tournament.pk, user=ann)
    late = person("late")
    assert "Enter late" in page(tournament, logged_in(late))
    assert "Enter late" not in page(tournament, logged_in(ann))  # already in
    assert 'data-testid="my-match"' in page(tournament, logged_in(ann))
    assert "Withdraw from the rounds to come" not in page(tournament, logged_in(ann))  # while it is on
    _play_the_match_of(tournament, ann)
    tournament.refresh_from_db()
    assert tournament.current_round == 1  # the other match of round 1 is still on
    assert "Withdraw from the rounds to come" in page(tournament, logged_in(ann))
    logged_in(ann).post(reverse("tournament_withdraw", args=[tournament.pk]))
    logged_in(late).post(reverse("tournament_join", args=[tournament.pk]))
    assert "Enter late" not in page(tournament, logged_in(ann))  # withdrawn is not out of the list
    entrants = texts(page(tournament), "entrant")
    assert "seed 1 player0 withdrawn" in entrants and "seed 5 late" in entrants
    while play_one(tournament) is not None:
        pass
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    html = page(tournament)
    final, *_, after_round_one = _standings(html)
    assert "player0 withdrawn" in final[1] and "late" in final[1] and len(final[1]) == 5
    assert "late" not in after_round_one[1] and len(after_round_one[1]) == 4  # not in yet
    assert not Entry.objects.get(user=ann).seatings.filter(match__round__gt=1).exists()
