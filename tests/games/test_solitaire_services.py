"""Starting and playing solitaire games through the services, on PostgreSQL."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.core.players import Player
from games.core.snapshots import state_of
from games.engine import get_engine
from games.engine.pyramid import available_cards
from games.models import Action, GameRecord
from games.solitaire import services
from tests.at_once import at_once

pytestmark = pytest.mark.django_db
PYRAMID = get_engine("pyramid")


@pytest.fixture
def alice() -> Player:
    user = get_user_model().objects.create_user("alice", "alice@example.com", "pw-long-enough-1")
    return Player(user=user, token="alice-browser")


@pytest.fixture
def visitor() -> Player:
    return Player(user=None, token="anonymous-token-1")


def first_legal(record: GameRecord, skip: tuple[str, ...] = ("resign",)) -> str:
    legal = [str(a) for a in PYRAMID.legal_actions(state_of(record))]
    return next(text for text in legal if text not in skip)


def test_start_records_game_config_and_seed(alice: Player) -> None:
    record = services.start_solitaire(game="pyramid", player=alice, seed=12345, config={"redeals": 0})
    assert (record.game, record.seed, record.engine_version) == ("pyramid", 12345, PYRAMID.version)
    assert record.config == PYRAMID.normalize_config({"redeals": 0})
    assert record.owner == alice.user and record.session_key == ""
    assert record.version == 0 and record.status == GameRecord.Status.PLAYING


def test_random_deal_numbers_are_in_range(alice: Player) -> None:
    seeds = {services.start_solitaire(game="tripeaks", player=alice).seed for _ in range(5)}
    assert all(1 <= seed <= services.MAX_DEAL_NUMBER for seed in seeds) and len(seeds) == 5


@pytest.mark.parametrize(
    ("game", "config", "message"),
    [
        ("triad", None, "not a solitaire game"),
        ("pyramid", {"rows": 5}, "'rows' must be one of"),
        ("pyramid", {"colour": True}, "unknown pyramid config option"),
    ],
)
def test_bad_starts_are_refused(alice: Player, game: str, config: dict | None, message: str) -> None:
    with pytest.raises(services.GameError, match=message):
        services.start_solitaire(game=game, player=alice, config=config)
    assert not GameRecord.objects.exists()


def test_a_move_is_stored_and_the_version_bumps(alice: Player) -> None:
    record = services.start_solitaire(game="pyramid", player=alice, seed=7)
    text = first_legal(record)
    result = services.submit_action(game_id=record.pk, player=alice, move=text, expected_version=0)
    assert result.record.version == 1 and result.record.action_count == 1
    assert list(Action.objects.filter(game=record).values_list("seq", "seat", "text")) == [(0, 0, text)]
    assert result.state == PYRAMID.replay(record.config, 7, [text])[-1]
    assert result.record.first_viewed_at is not None and result.record.last_action_at is not None


def test_an_illegal_move_is_explained_and_changes_nothing(alice: Player) -> None:
    seed = next(s for s in range(1, 500) if PYRAMID.initial_state(None, s).tableau[0][0] == "K")
    record = services.start_solitaire(game="pyramid", player=alice, seed=seed)
    apex = state_of(record).tableau[0]
    with pytest.raises(services.GameError, match=f"{apex} is covered by"):
        services.submit_action(game_id=record.pk, player=alice, move=apex, expected_version=0)
    loner = next(c for c in available_cards(state_of(record)) if c[0] != "K")
    with pytest.raises(services.GameError, match="only a King"):
        services.submit_action(game_id=record.pk, player=alice, move=loner, expected_version=0)
    with pytest.raises(services.GameError, match="is not a card"):
        services.submit_action(game_id=record.pk, player=alice, move="zz", expected_version=0)
    with pytest.raises(services.GameError, match="short text"):
        services.submit_action(game_id=record.pk, player=alice, move="x" * 65, expected_version=0)
    record.refresh_from_db()
    assert record.version == 0 and not Action.objects.exists()


def test_a_stale_tab_is_refused(alice: Player) -> None:
    record = services.start_solitaire(game="pyramid", player=alice, seed=7)
    services.submit_action(game_id=record.pk, player=alice, move="draw", expected_version=0)
    with pytest.raises(services.StaleVersion, match="changed in another tab"):
        services.submit_action(game_id=record.pk, player=alice, move="draw", expected_version=0)
    assert Action.objects.count() == 1


def test_someone_else_cannot_play_my_game(alice: Player, visitor: Player) -> None:
    record = services.start_solitaire(game="pyramid", player=alice, seed=7)
    with pytest.raises(services.NotYourGame):
        services.submit_action(game_id=record.pk, player=visitor, move="draw", expected_version=0)
    other_browser = Player(user=None, token="someone-else")
    mine = services.start_solitaire(game="pyramid", player=visitor, seed=7)
    with pytest.raises(services.NotYourGame):
        services.submit_action(game_id=mine.pk, player=other_browser, move="draw", expected_version=0)
    assert not Action.objects.exists()


def test_anonymous_play_and_resume(visitor: Player) -> None:
    record = services.start_solitaire(game="tripeaks", player=visitor, seed=99)
    assert record.owner is None and record.session_key == visitor.token
    services.submit_action(game_id=record.pk, player=visitor, move="draw", expected_version=0)
    services.submit_action(game_id=record.pk, player=visitor, move="draw", expected_version=1)
    reloaded = GameRecord.objects.get(pk=record.pk)
    assert state_of(reloaded) == get_engine("tripeaks").replay(record.config, 99, ["draw", "draw"])[-1]


def test_undo_replays_one_action_fewer_and_is_counted(alice: Player) -> None:
    record = services.start_solitaire(game="pyramid", player=alice, seed=7)
    services.submit_action(game_id=record.pk, player=alice, move="draw", expected_version=0)
    services.submit_action(game_id=record.pk, player=alice, move="draw", expected_version=1)
    result = services.undo(game_id=record.pk, player=alice, expected_version=2)
    assert result.record.version == 3 and result.record.action_count == 1 and result.record.undo_count == 1
    assert result.state == PYRAMID.replay(record.config, 7, ["draw"])[-1]
    services.submit_action(game_id=record.pk, player=alice, move="draw", expected_version=3)
    assert list(Action.objects.filter(game=record).values_list("seq", flat=True)) == [0, 1]
    services.undo(game_id=record.pk, player=alice, expected_version=4)
    services.undo(game_id=record.pk, player=alice, expected_version=5)
    with pytest.raises(services.GameError, match="no move to undo"):
        services.undo(game_id=record.pk, player=alice, expected_version=6)


def test_resigning_finishes_the_game_and_stores_the_outcome(alice: Player) -> None:
    record = services.start_solitaire(game="pyramid", player=alice, seed=7)
    result = services.submit_action(game_id=record.pk, player=alice, move="resign", expected_version=0)
    assert result.record.status == GameRecord.Status.FINISHED and result.record.won is False
    assert result.record.outcome["reason"] == "resigned" and result.record.finished_at is not None
    with pytest.raises(services.GameError, match="over"):
        services.submit_action(game_id=record.pk, player=alice, move="draw", expected_version=1)


def test_undo_after_a_loss_reopens_a_casual_game(alice: Player) -> None:
    record = services.start_solitaire(game="pyramid", player=alice, seed=7)
    services.submit_action(game_id=record.pk, player=alice, move="resign", expected_version=0)
    result = services.undo(game_id=record.pk, player=alice, expected_version=1)
    assert result.record.status == GameRecord.Status.PLAYING and result.record.outcome is None


@pytest.mark.django_db(transaction=True)
def test_two_tabs_acting_at_once_store_exactly_one_move(alice: Player) -> None:
    record = services.start_solitaire(game="pyramid", player=alice, seed=7)
    outcomes: list[str] = []

    def act() -> None:
        try:
            services.submit_action(game_id=record.pk, player=alice, move="draw", expected_version=0)
            outcomes.append("accepted")
        except services.StaleVersion:
            outcomes.append("stale")

    at_once(act, act)
    assert sorted(outcomes) == ["accepted", "stale"]
    assert Action.objects.filter(game=record).count() == 1
    assert GameRecord.objects.get(pk=record.pk).version == 1
