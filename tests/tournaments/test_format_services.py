"""Every format (TN-1) played to its end through the real services and live tables: the
properties the pure formats promise hold for the rows the site stores; best of N (TN-5),
late entry and withdrawal (TN-7)."""

from __future__ import annotations

import datetime as dt
import itertools
import time
from collections import Counter
from functools import partial
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.core import move_path
from games.core.snapshots import state_of
from games.engine import get_engine
from games.engine.bots import bot_seed
from games.live import tables
from games.models import GameRecord, SiteHeartbeat
from tests.at_once import at_once
from tests.tournaments.support import person, play_out
from tests.tournaments.test_services import finish_every_match, playing, schedule, seated
from tournaments import services
from tournaments.models import Entry, Match, MatchGame, Seating, Tournament

pytestmark = pytest.mark.django_db


def started(people: int, **options: Any) -> tuple[Tournament, list[User]]:
    players = [person(f"p{n}") for n in range(people)]
    tournament = schedule(players[0], **options)
    for player in players[1:]:
        services.join(tournament_id=tournament.pk, user=player)
    services.start_now(tournament_id=tournament.pk, user=players[0])
    tournament.refresh_from_db()
    return tournament, players


def played_to_the_end(people: int, **options: Any) -> tuple[Tournament, list[GameRecord]]:
    tournament, _ = started(people, **options)
    records = finish_every_match(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament, records


def losses(tournament: Tournament) -> Counter[int]:
    lost = Seating.objects.filter(match__tournament=tournament, match__bye=False, place__gt=1)
    return Counter(lost.values_list("entry_id", flat=True))


def meetings(tournament: Tournament) -> Counter[frozenset[int]]:
    met: Counter[frozenset[int]] = Counter()
    for match in tournament.matches.filter(bye=False).prefetch_related("seatings"):
        for pair in itertools.combinations([seating.entry_id for seating in match.seatings.all()], 2):
            met[frozenset(pair)] += 1
    return met


def places(tournament: Tournament) -> list[int | None]:
    return sorted(tournament.entries.values_list("place", flat=True), key=lambda place: place or 99)


def test_single_elimination_with_a_third_place_match() -> None:
    tournament, records = played_to_the_end(4, third_place=True)
    assert len(records) == 4  # two semi-finals, the final and the match for third
    third = tournament.matches.get(side="third_place")
    semi_losers = {
        seating.entry
        for seating in Seating.objects.filter(match__tournament=tournament, match__round=1, place=2)
    }
    assert set(seated(third)) == semi_losers
    assert places(tournament) == [1, 2, 3, 4]
    assert tournament.entries.get(place=3) == third.winner


def test_double_elimination_nobody_is_out_before_two_losses() -> None:
    tournament, _ = played_to_the_end(5, format=Tournament.Format.DOUBLE_ELIMINATION)
    lost = losses(tournament)
    for entry in tournament.entries.all():
        assert lost[entry.pk] <= 1 if entry.place == 1 else lost[entry.pk] == 2, entry
    assert sorted(places(tournament))[:2] == [1, 2]
    final = tournament.matches.get(side="grand_final")
    reset = tournament.matches.get(side="grand_final_reset")
    # The reset is played exactly when the losers' bracket player (seat 1) won the first final.
    assert reset.games.exists() == (final.winner == seated(final)[1])


def test_round_robin_heads_up_everyone_meets_everyone_once() -> None:
    tournament, records = played_to_the_end(5, format=Tournament.Format.ROUND_ROBIN)
    assert tournament.rounds == tournament.current_round == 5  # odd: a bye a round
    assert len(records) == 10 and set(meetings(tournament).values()) == {1}
    assert len(meetings(tournament)) == 10
    byes = Counter(tournament.matches.filter(bye=True).values_list("winner_id", flat=True))
    assert sorted(byes.values()) == [1] * 5
    assert places(tournament)[0] == 1 and None not in places(tournament)


def test_round_robin_at_tables_of_three() -> None:
    tournament, _ = played_to_the_end(5, format=Tournament.Format.ROUND_ROBIN, table_size=3)
    entries = list(tournament.entries.values_list("pk", flat=True))
    met = meetings(tournament)
    assert all(met[frozenset(pair)] >= 1 for pair in itertools.combinations(entries, 2))
    for number in range(1, tournament.rounds + 1):
        sizes = sorted(m.seatings.count() for m in tournament.matches.filter(round=number, bye=False))
        assert sizes == [2, 3]  # five at tables of up to three, as equal as can be (TN-3)
        for match in tournament.matches.filter(round=number, bye=False):
            record = match.games.get().table.record
            assert record.config["players"] == match.seatings.count()


def test_swiss_pairs_within_score_groups_without_rematches_and_one_bye_each() -> None:
    tournament, _ = played_to_the_end(5, format=Tournament.Format.SWISS, rounds=3)
    assert tournament.current_round == 3
    assert max(meetings(tournament).values()) == 1  # five players, three rounds: no rematch needed
    byes = Counter(tournament.matches.filter(bye=True).values_list("winner_id", flat=True))
    assert len(byes) == 3 and set(byes.values()) == {1}  # a bye a round, never twice to one player
    assert places(tournament)[0] == 1 and None not in places(tournament)


def test_swiss_at_tables() -> None:
    tournament, _ = played_to_the_end(7, format=Tournament.Format.SWISS, rounds=2, table_size=4)
    for number in (1, 2):
        sizes = sorted(m.seatings.count() for m in tournament.matches.filter(round=number))
        assert sizes == [3, 4]
    assert None not in places(tournament)


def test_a_best_of_three_match_needs_two_game_wins(client: Client) -> None:
    tournament, records = played_to_the_end(2, game="blocks", config={"scoring": "basic"}, best_of=3)
    match = tournament.matches.get()
    wins = Counter(match.games.values_list("winner_id", flat=True))
    assert wins[match.winner_id] == 2 and len(records) == match.games.count() >= 2
    assert all(wins[entry_id] < 2 for entry_id in wins if entry_id != match.winner_id)
    first, second = match.games.order_by("number")[:2]
    seats = [seating.entry_id for seating in match.seatings.order_by("seat")]
    before = {seats[0]: "1-0", seats[1]: "0-1", None: "0-0"}[first.winner_id]  # a tied game counts for nobody
    page = client.get(second.table.get_absolute_url()).content.decode()
    assert "game 2 of a best of 3" in page and f"({before} before it)" in page


def test_late_entry_into_swiss_until_the_second_round() -> None:
    tournament, _ = started(4, format=Tournament.Format.SWISS, rounds=3)
    late = person("late")
    entry = services.join(tournament_id=tournament.pk, user=late)
    assert entry.seed == 4 and not Seating.objects.filter(entry=entry).exists()
    while tournament.current_round < 2:
        game = playing(tournament)
        assert game is not None
        finish_one(game.table)
        tournament.refresh_from_db()
    assert Seating.objects.filter(entry=entry, match__round=2).exists()  # drawn into round 2
    with pytest.raises(services.TournamentError, match="entries are closed"):
        services.join(tournament_id=tournament.pk, user=person("later"))


def test_a_withdrawn_player_leaves_the_rounds_to_come() -> None:
    tournament, players = started(4, format=Tournament.Format.ROUND_ROBIN)
    gone = Entry.objects.get(tournament=tournament, user=players[3])
    services.withdraw(tournament_id=tournament.pk, user=players[3])  # their round 1 match stands
    assert Seating.objects.filter(entry=gone, match__round=1, match__bye=False).exists()
    finish_every_match(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert not Seating.objects.filter(entry=gone, match__round__gt=1).exists()
    later: list[Match] = list(tournament.matches.filter(round__gt=1, bye=True))
    assert later and all(match.winner != gone for match in later)  # their opponents had byes
    with pytest.raises(services.TournamentError, match="not entered"):
        services.withdraw(tournament_id=tournament.pk, user=players[3])


def finish_one(table: Any) -> None:
    record = play_out(table)
    assert services.record_match(game_id=record.pk) is True


@pytest.mark.django_db(transaction=True)
def test_the_next_round_is_drawn_once_when_results_arrive_together() -> None:
    """Two workers (or a task redelivered after a crash) record round 1's last results at the
    same moment: round 2 is drawn exactly once."""
    tournament, _ = started(4, format=Tournament.Format.SWISS, rounds=2)
    games = list(tournament.matches.get(round=1, slot=0).games.all()) + list(
        tournament.matches.get(round=1, slot=1).games.all()
    )
    records = [play_out(game.table) for game in games]
    recorded: list[bool] = []

    def record(game_id: int) -> None:
        recorded.append(services.record_match(game_id=game_id))

    at_once(*(partial(record, r.pk) for r in (*records, *records)))
    # Each game is recorded once: by these threads, or by a worker whose result task got there
    # first (when the suite's Celery worker is running).
    assert recorded.count(True) <= 2
    deadline = time.monotonic() + 15
    while Tournament.objects.get(pk=tournament.pk).current_round < 2:
        assert time.monotonic() < deadline, "round 1's results were not recorded"
        time.sleep(0.1)
    assert not MatchGame.objects.filter(pk__in=[game.pk for game in games], recorded_at__isnull=True).exists()
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    assert tournament.matches.filter(round=2).count() == 2
    assert MatchGame.objects.filter(match__tournament=tournament, match__round=2).count() == 2


@pytest.fixture
def site_seen_up() -> None:
    """The web and the worker seen just now (LP-5): a person's clock acts only while the site is up.
    An upsert: the suite's own daphne and worker, if an earlier test started them, beat into
    the same table and may have written a row first."""
    SiteHeartbeat.objects.bulk_create(
        [SiteHeartbeat(component=component, seen_at=timezone.now()) for component in SiteHeartbeat.Component],
        update_conflicts=True,
        unique_fields=["component"],
        update_fields=["seen_at"],
    )


def time_out(record: GameRecord) -> None:
    GameRecord.objects.filter(pk=record.pk).update(turn_deadline=timezone.now() - dt.timedelta(seconds=1))
    assert tables.advance(game_id=record.pk, version=record.version)


def bot_move(record: GameRecord, state: Any, seat: int) -> str:
    engine = get_engine(record.game)
    return engine.bot_action(engine.view(state, seat), bot_seed(record.seed, seat, record.action_count))


@pytest.mark.usefixtures("site_seen_up")
def test_a_no_show_forfeits_each_game_and_two_forfeits_withdraw_them() -> None:
    """TN-6: a seat whose clock runs out a second time before its player made a move loses the
    game by forfeit; the second forfeit of the tournament takes the entrant out."""
    tournament, (alice, bob) = started(2, game="blocks", config={"scoring": "basic"}, best_of=3)
    absent = Entry.objects.get(tournament=tournament, user=bob)
    engine = get_engine("blocks")
    while (game := playing(tournament)) is not None:
        record = game.table.record
        while not record.is_over:
            state = state_of(record)
            seat = engine.current_player(state)
            if game.table.seats.get(number=seat).user == bob:
                GameRecord.objects.filter(pk=record.pk).update(
                    turn_deadline=timezone.now() - dt.timedelta(seconds=1)
                )
                assert tables.advance(game_id=record.pk, version=record.version)
            else:
                text = engine.bot_action(
                    engine.view(state, seat), bot_seed(record.seed, seat, record.action_count)
                )
                move_path.play_at_table(
                    table_id=game.table_id, user=alice, move=text, expected_version=record.version
                )
            record.refresh_from_db()
        bob_seat = game.table.seats.get(user=bob).number
        assert record.outcome["forfeit"] == bob_seat and record.outcome["winner"] == 1 - bob_seat
        (first_timeout, forfeit) = record.actions.filter(seat=bob_seat).order_by("seq")
        assert first_timeout.timed_out and forfeit.timed_out and forfeit.text == "forfeit"
        assert services.record_match(game_id=record.pk) is True
    absent.refresh_from_db()
    assert absent.forfeits == 2 and absent.withdrawn_at is not None
    match = tournament.matches.get()
    assert match.games.count() == 2 and match.winner.user == alice


@pytest.mark.usefixtures("site_seen_up")
def test_a_casual_tables_clock_never_forfeits() -> None:
    alice = person("alice")
    table = tables.create_table(game="blocks", creator=alice, config={})
    tables.add_bot(table_id=table.pk, user=alice)
    tables.start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    record = table.record
    engine = get_engine("blocks")
    for _ in range(6):
        record.refresh_from_db()
        seat = engine.current_player(state_of(record))
        if seat != 0:
            assert tables.advance(game_id=record.pk, version=record.version)
            continue
        time_out(record)
    assert not record.actions.filter(text="forfeit").exists()
    assert record.actions.filter(seat=0, timed_out=True).count() >= 2
