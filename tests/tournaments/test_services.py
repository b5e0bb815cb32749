"""Tournament services on PostgreSQL: entries, the draw, results and the end, through real tables."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import Rating, User
from games.engine import get_engine
from games.models import GameRecord, Table
from tests.tournaments.support import person, play_out
from tournaments import services, tasks
from tournaments.models import Entry, Match, MatchGame, Tournament

pytestmark = pytest.mark.django_db
SHORT_TRIAD = {"hands": 1}


def schedule(creator: User, *, minutes: float = 10, **overrides: Any) -> Tournament:
    fields: dict[str, Any] = {
        "name": "Saturday cup",
        "game": "triad",
        "config": SHORT_TRIAD,
        "clock_seconds": 30,
        "max_entrants": 8,
        "starts_at": timezone.now() + dt.timedelta(minutes=minutes),
    }
    fields.update(overrides)
    return services.create_tournament(creator=creator, **fields)


def with_players(count: int, **overrides: Any) -> tuple[Tournament, list[User]]:
    players = [person(f"player{n}") for n in range(count)]
    tournament = schedule(players[0], **overrides)
    for player in players[1:]:
        services.join(tournament_id=tournament.pk, user=player)
    return tournament, players


def seated(match: Match) -> list[Entry]:
    return [seating.entry for seating in match.seatings.select_related("entry__user").order_by("seat")]


def playing(tournament: Tournament) -> MatchGame | None:
    return (
        MatchGame.objects.filter(match__tournament=tournament, table__status=Table.Status.PLAYING)
        .select_related("table")
        .order_by("pk")
        .first()
    )


def finish_every_match(tournament: Tournament) -> list[GameRecord]:
    """Play the dealt games until none is left; results recorded as the task would."""
    played = []
    while (game := playing(tournament)) is not None:
        record = play_out(game.table)
        assert services.record_match(game_id=record.pk) is True
        assert services.record_match(game_id=record.pk) is False  # delivered twice, recorded once
        played.append(record)
    return played


class TestScheduling:
    def test_the_creator_is_entered_and_triad_matches_are_heads_up(self) -> None:
        alice = person("alice")
        tournament = schedule(alice, config={"players": 5, "hands": 3})
        assert tournament.status == Tournament.Status.OPEN
        assert list(tournament.entries.values_list("user__username", flat=True)) == ["alice"]
        assert tournament.config == get_engine("triad").normalize_config({"players": 2, "hands": 3})

    @pytest.mark.parametrize(
        ("overrides", "message"),
        [
            ({"game": "pyramid"}, "not a tournament game"),
            ({"name": "  "}, "name"),
            ({"max_entrants": 1}, "between 2 and 64"),
            ({"max_entrants": 65}, "between 2 and 64"),
            ({"clock_seconds": 5}, "clock"),
            ({"minutes": -5}, "past"),
            ({"minutes": 61 * 24 * 60}, "60 days"),
            ({"config": {"hands": 0}}, "hands"),
        ],
    )
    def test_bad_tournaments_are_refused(self, overrides: dict[str, Any], message: str) -> None:
        alice = person("alice")
        with pytest.raises(services.TournamentError, match=message):
            schedule(alice, **overrides)
        assert not Tournament.objects.exists()

    def test_entries_open_until_the_start_and_never_twice_or_beyond_the_size(self) -> None:
        tournament, (alice, bob) = with_players(2, max_entrants=3)
        with pytest.raises(services.TournamentError, match="already entered"):
            services.join(tournament_id=tournament.pk, user=bob)
        services.join(tournament_id=tournament.pk, user=person("carol"))
        with pytest.raises(services.TournamentError, match="full"):
            services.join(tournament_id=tournament.pk, user=person("dave"))
        services.withdraw(tournament_id=tournament.pk, user=bob)
        with pytest.raises(services.TournamentError, match="not entered"):
            services.withdraw(tournament_id=tournament.pk, user=bob)
        with pytest.raises(services.TournamentError, match="creator"):
            services.start_now(tournament_id=tournament.pk, user=bob)
        services.start_now(tournament_id=tournament.pk, user=alice)
        with pytest.raises(services.TournamentError, match="entries are closed"):
            services.join(tournament_id=tournament.pk, user=bob)
        with pytest.raises(services.TournamentError, match="knock-out is played to its end"):
            services.withdraw(tournament_id=tournament.pk, user=alice)
        assert tournament.entries.count() == 2


class TestTheDraw:
    def test_only_due_tournaments_start(self) -> None:
        due, _ = with_players(2, minutes=0)
        later = schedule(person("zed"), minutes=30)
        assert services.start_due(timezone.now() + dt.timedelta(seconds=1)) == [due.pk]
        assert services.start_due(timezone.now() + dt.timedelta(seconds=1)) == []  # once only
        due.refresh_from_db()
        later.refresh_from_db()
        assert (due.status, later.status) == (Tournament.Status.RUNNING, Tournament.Status.OPEN)

    def test_a_tournament_short_of_players_is_cancelled(self) -> None:
        lonely = schedule(person("alice"), minutes=0)
        services.start_due(timezone.now() + dt.timedelta(seconds=1))
        lonely.refresh_from_db()
        assert lonely.status == Tournament.Status.CANCELLED and not lonely.matches.exists()

    def test_three_players_a_bye_for_the_first_seed_and_a_dealt_first_match(self) -> None:
        tournament, players = with_players(3)
        services.start_now(tournament_id=tournament.pk, user=players[0])
        tournament.refresh_from_db()
        assert tournament.rounds == 2 and tournament.matches.count() == 3
        seeds = {entry.seed: entry for entry in tournament.entries.all()}
        assert sorted(seeds) == [0, 1, 2]
        bye = tournament.matches.get(round=1, slot=0)
        assert (bye.bye, seated(bye), bye.winner, bye.games.exists()) == (True, [seeds[0]], seeds[0], False)
        played = tournament.matches.get(round=1, slot=1)
        assert set(seated(played)) == {seeds[1], seeds[2]}
        (game,) = played.games.all()
        seats = game.table.seats.order_by("number")
        assert [seat.user for seat in seats] == [entry.user for entry in seated(played)]
        assert game.table.record.kind == GameRecord.Kind.TOURNAMENT
        assert game.table.record.config == tournament.config
        final = tournament.matches.get(round=2)
        assert (seated(final), final.games.exists()) == ([], False)  # waits for slot 1

    def test_bots_fill_the_bracket_after_the_people(self) -> None:
        tournament, players = with_players(3, fill_with_bots=True, max_entrants=4)
        services.start_now(tournament_id=tournament.pk, user=players[0])
        entries = list(tournament.entries.order_by("seed"))
        assert [entry.user is None for entry in entries] == [False, False, False, True]
        bot_match = tournament.matches.get(round=1, seatings__entry=entries[3])
        assert seated(bot_match) == [entries[0], entries[3]]
        seats = list(bot_match.games.get().table.seats.order_by("number"))
        assert [seat.is_bot for seat in seats] == [False, True]
        # The table and its replays call the bot what the bracket does.
        names = [seat.name for seat in seats]
        assert names == [entries[0].name, entries[3].name] == [entries[0].user.username, "Bot 4"]

    def test_seeds_go_by_rating_then_by_entry_time(self) -> None:
        tournament, players = with_players(5)
        for player, mu in ((players[3], 1700.0), (players[1], 1600.0)):
            Rating.objects.create(user=player, game="triad", mu=mu, sigma=100, games=3)  # provisional counts
        Rating.objects.create(user=players[2], game="blocks", mu=2000.0, sigma=100, games=30)  # another game
        services.start_now(tournament_id=tournament.pk, user=players[0])
        entries = list(tournament.entries.order_by("seed"))
        assert [entry.user for entry in entries] == [
            players[3],
            players[1],
            players[0],
            players[2],
            players[4],
        ]
        assert [entry.rating for entry in entries] == [1700.0, 1600.0, None, None, None]


class TestPlayingItOut:
    def test_five_players_play_to_a_winner_with_shared_places(self) -> None:
        tournament, players = with_players(5)
        services.start_now(tournament_id=tournament.pk, user=players[0])
        records = finish_every_match(tournament)
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED and tournament.finished_at is not None
        assert len(records) == 4  # 5 players, 3 byes: 1 + 2 + 1 games
        places = sorted(tournament.entries.values_list("place", flat=True))
        assert places == [1, 2, 3, 3, 5]
        final = tournament.matches.get(round=3)
        assert final.winner.place == 1
        for record in records:
            engine = get_engine(record.game)
            texts = list(record.actions.order_by("seq").values_list("text", flat=True))
            assert engine.outcome(engine.replay(record.config, record.seed, texts)[-1]) == record.outcome
            match = Match.objects.get(games__table__record=record)
            assert match.winner == seated(match)[record.outcome["winner"]]

    def test_a_pyramid_poker_tournament_plays_heads_up_matches_to_a_winner(self) -> None:
        tournament, players = with_players(2, game="blocks", config={"scoring": "basic"})
        assert tournament.config == get_engine("blocks").normalize_config({"scoring": "basic"})
        services.start_now(tournament_id=tournament.pk, user=players[0])
        (record,) = finish_every_match(tournament)
        assert record.game == "blocks" and record.kind == GameRecord.Kind.TOURNAMENT
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED
        winner = tournament.entries.get(place=1)
        assert winner.seed == record.outcome["winner"]

    def test_the_sweeper_records_a_result_whose_task_was_lost(self) -> None:
        tournament, players = with_players(2)
        services.start_now(tournament_id=tournament.pk, user=players[0])
        game = playing(tournament)
        assert game is not None
        record = play_out(game.table)  # no result task: on_commit never runs in this test's transaction
        assert services.unrecorded_results() == [record.pk]
        assert tasks.run_tournaments() == {"started": [], "closed": [], "recorded": [record.pk]}
        assert tasks.run_tournaments() == {"started": [], "closed": [], "recorded": []}
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED

    def test_a_game_that_is_not_over_or_not_a_match_records_nothing(self) -> None:
        tournament, players = with_players(2)
        services.start_now(tournament_id=tournament.pk, user=players[0])
        game = playing(tournament)
        assert game is not None
        assert services.record_match(game_id=game.table.record_id) is False
        assert services.record_match(game_id=10**9) is False
        assert tournament.matches.get().winner is None
