"""Live-table services on PostgreSQL: seating, moves, bots and clocks acting exactly once."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.core import move_path
from games.core.snapshots import state_of
from games.engine import get_engine
from games.engine.bots import bot_seed
from games.live import tables
from games.models import Action, GameRecord, Seat, Table
from games.solitaire.services import GameError, StaleVersion
from tests.at_once import at_once

pytestmark = pytest.mark.django_db
User = get_user_model()


def person(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", "pw-long-enough-1")


@pytest.fixture
def alice() -> User:
    return person("alice")


@pytest.fixture
def bob() -> User:
    return person("bob")


def started(
    creator: User, game: str = "triad", others: list[User] | None = None, bots: int = 0, **config
) -> Table:
    table = tables.create_table(game=game, creator=creator, config=config)
    for other in others or []:
        tables.sit(table_id=table.pk, user=other)
    for _ in range(bots):
        tables.add_bot(table_id=table.pk, user=creator)
    return tables.start(table_id=table.pk, user=creator)


def to_act(table: Table) -> int:
    table.record.refresh_from_db()
    return get_engine(table.game).current_player(state_of(table.record))


def legal(table: Table) -> list[str]:
    table.record.refresh_from_db()
    return [str(a) for a in get_engine(table.game).legal_actions(state_of(table.record))]


class TestSeating:
    def test_create_seats_the_creator_and_fills_defaults(self, alice: User) -> None:
        table = tables.create_table(game="triad", creator=alice, config={"players": 3})
        assert [s.user for s in table.seats.all()] == [alice, None, None]
        assert table.config == get_engine("triad").normalize_config({"players": 3})

    @pytest.mark.parametrize(
        ("game", "config", "clock", "message"),
        [
            ("pyramid", {}, 30, "not played at tables"),
            ("triad", {"players": 9}, 30, "'players'"),
            ("triad", {}, 5, "turn clock of 10 seconds"),
        ],
    )
    def test_bad_tables_are_refused(
        self, alice: User, game: str, config: dict, clock: int, message: str
    ) -> None:
        with pytest.raises(GameError, match=message):
            tables.create_table(game=game, creator=alice, config=config, clock_seconds=clock)
        assert not Table.objects.exists()

    def test_sit_leave_bots_and_start_rules(self, alice: User, bob: User) -> None:
        table = tables.create_table(game="triad", creator=alice, config={"players": 3})
        with pytest.raises(GameError, match="already sitting"):
            tables.sit(table_id=table.pk, user=alice)
        with pytest.raises(GameError, match="Sit at the table"):
            tables.add_bot(table_id=table.pk, user=bob)
        tables.sit(table_id=table.pk, user=bob, number=2)
        with pytest.raises(GameError, match="Every seat must be taken"):
            tables.start(table_id=table.pk, user=alice)
        tables.add_bot(table_id=table.pk, user=bob)
        carol = person("carol")
        with pytest.raises(GameError, match="Every seat is taken"):
            tables.sit(table_id=table.pk, user=carol)
        with pytest.raises(GameError, match="Only someone sitting"):
            tables.start(table_id=table.pk, user=carol)
        tables.start(table_id=table.pk, user=bob)
        with pytest.raises(GameError, match="has started"):
            tables.leave(table_id=table.pk, user=bob)
        table.refresh_from_db()
        assert table.status == Table.Status.PLAYING and table.record.kind == GameRecord.Kind.TABLE


class TestMoves:
    def test_a_move_out_of_turn_is_refused(self, alice: User, bob: User) -> None:
        table = started(alice, others=[bob])
        waiting = bob if to_act(table) == 0 else alice
        with pytest.raises(GameError, match="not your turn"):
            move_path.play_at_table(table_id=table.pk, user=waiting, move="check", expected_version=0)
        assert not Action.objects.exists()

    def test_spectators_cannot_move(self, alice: User, bob: User) -> None:
        table = started(alice, others=[bob])
        with pytest.raises(GameError, match="watching"):
            move_path.play_at_table(table_id=table.pk, user=person("eve"), move="check", expected_version=0)
        with pytest.raises(GameError, match="watching"):
            move_path.play_at_table(table_id=table.pk, user=None, move="check", expected_version=0)

    def test_illegal_and_stale_moves_change_nothing(self, alice: User, bob: User) -> None:
        table = started(alice, others=[bob])
        mover = alice if to_act(table) == 0 else bob
        with pytest.raises(GameError, match="no bet to raise"):
            move_path.play_at_table(table_id=table.pk, user=mover, move="raise 999", expected_version=0)
        with pytest.raises(GameError):
            move_path.play_at_table(table_id=table.pk, user=mover, move="nonsense", expected_version=0)
        move_path.play_at_table(table_id=table.pk, user=mover, move=legal(table)[0], expected_version=0)
        table.record.refresh_from_db()
        assert table.record.version == 1
        with pytest.raises(StaleVersion):
            move_path.play_at_table(table_id=table.pk, user=mover, move="fold", expected_version=0)
        assert Action.objects.count() == 1

    @pytest.mark.django_db(transaction=True)
    def test_the_same_player_acting_from_two_tabs_at_once_is_applied_once(
        self, alice: User, bob: User
    ) -> None:
        table = started(alice, others=[bob])
        mover = alice if to_act(table) == 0 else bob
        move = legal(table)[0]
        outcomes: list[str] = []

        def tab() -> None:
            try:
                move_path.play_at_table(table_id=table.pk, user=mover, move=move, expected_version=0)
                outcomes.append("accepted")
            except GameError as exc:
                outcomes.append(type(exc).__name__)

        at_once(tab, tab)
        assert sorted(outcomes) == ["StaleVersion", "accepted"]
        assert Action.objects.filter(game=table.record).count() == 1


class TestAdvance:
    def test_a_bot_moves_once_however_often_its_task_runs(self, alice: User) -> None:
        table = started(alice, bots=1)
        record = table.record
        if to_act(table) == 0:
            move_path.play_at_table(table_id=table.pk, user=alice, move=legal(table)[0], expected_version=0)
        record.refresh_from_db()
        version = record.version
        assert tables.advance(game_id=record.pk, version=version) is True
        assert tables.advance(game_id=record.pk, version=version) is False  # run twice, acts once
        record.refresh_from_db()
        assert record.version == version + 1
        last = Action.objects.get(game=record, seq=record.action_count - 1)
        assert last.seat == 1

    def test_the_bot_plays_what_the_bot_chooses_from_its_own_view(self, alice: User) -> None:
        table = started(alice, game="blocks", bots=1)
        record = table.record
        while to_act(table) != 1:
            move_path.play_at_table(
                table_id=table.pk, user=alice, move=legal(table)[0], expected_version=None
            )
        record.refresh_from_db()
        state = state_of(record)
        expected = get_engine("blocks").bot_action(
            get_engine("blocks").view(state, 1), bot_seed(record.seed, 1, record.action_count)
        )
        tables.advance(game_id=record.pk, version=record.version)
        assert Action.objects.get(game=record, seq=record.action_count).text == expected

    @pytest.mark.django_db(transaction=True)
    def test_lp1_a_person_times_out_only_after_the_deadline(
        self, alice: User, bob: User, site_heartbeats: None
    ) -> None:
        table = started(alice, others=[bob])
        record = table.record
        assert tables.advance(game_id=record.pk, version=0) is False  # the clock has not run out
        GameRecord.objects.filter(pk=record.pk).update(turn_deadline=timezone.now() - dt.timedelta(seconds=1))
        assert (record.pk, 0) in tables.overdue_games(grace_s=0)
        assert tables.advance(game_id=record.pk, version=0) is True
        assert Action.objects.get(game=record).text == "check"  # LP-1: check when it may

    def test_a_whole_bot_match_ends_and_the_table_finishes(self, alice: User) -> None:
        table = started(alice, bots=2, players=3, hands=2)
        record = table.record
        for _ in range(2000):
            record.refresh_from_db()
            if record.is_over:
                break
            seat = to_act(table)
            if seat == 0:
                view = get_engine("triad").view(state_of(record), 0)
                move_path.play_at_table(
                    table_id=table.pk, user=alice, move=view.legal[0], expected_version=record.version
                )
            else:
                assert tables.advance(game_id=record.pk, version=record.version)
        record.refresh_from_db()
        table.refresh_from_db()
        assert record.is_over and table.status == Table.Status.FINISHED
        assert record.outcome["winner"] in (0, 1, 2) and record.turn_deadline is None
        replayed = get_engine("triad").replay(
            record.config, record.seed, list(record.actions.values_list("text", flat=True))
        )
        assert get_engine("triad").outcome(replayed[-1]) == record.outcome


def test_a_seats_kept_name_follows_who_sits_there(alice: User, bob: User) -> None:
    """``Seat.name`` is kept on the seat (frames ask for it often): taking the seat, or
    making it a bot's, names it anew."""
    table = tables.create_table(game="blocks", creator=alice, config={})
    seat = Seat.objects.get(table=table, number=1)
    assert seat.name == "Empty seat"
    seat.user = bob
    assert seat.name == "bob"
    seat.user_id = alice.pk
    assert seat.name == "alice"
    seat.user, seat.is_bot = None, True
    assert seat.name == "Bot 2"
    seat.bot_name = "Thirteen"
    assert seat.name == "Thirteen"
    tables.sit(table_id=table.pk, user=bob)
    seat.refresh_from_db()
    assert seat.name == "bob"
