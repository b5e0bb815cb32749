"""Daily challenges, leaderboards, streaks and statistics."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.core import finishes
from games.core.players import Player
from games.engine import get_engine
from games.models import DailyChallenge, GameRecord
from games.solitaire import services
from games.stats import selectors

pytestmark = pytest.mark.django_db
User = get_user_model()


def player(name: str) -> Player:
    return Player(user=User.objects.create_user(name, f"{name}@example.com", "pw-long-enough-1"), token=name)


def today() -> dt.date:
    return timezone.now().date()


def finish(record: GameRecord, *, won: bool, score: int, actions: int, seconds: float) -> GameRecord:
    """Stands for a played attempt: the leaderboard reads only these stored results."""
    start = timezone.now() - dt.timedelta(seconds=seconds)
    GameRecord.objects.filter(pk=record.pk).update(
        status=GameRecord.Status.FINISHED,
        won=won,
        score=score,
        action_count=actions,
        first_viewed_at=start,
        last_action_at=start + dt.timedelta(seconds=seconds),
        finished_at=timezone.now(),
        finished_moves=actions,
        finished_elapsed=dt.timedelta(seconds=seconds),
    )
    record.refresh_from_db()
    finishes.sync(record)
    return record


def test_ensure_daily_is_idempotent_and_the_deal_is_winnable() -> None:
    first = services.ensure_daily(game="pyramid", date=today())
    again = services.ensure_daily(game="pyramid", date=today())
    assert first.pk == again.pk and DailyChallenge.objects.count() == 1
    engine = get_engine("pyramid")
    final = engine.replay(first.config, first.seed, first.solution)[-1]
    assert engine.outcome(final)["won"] is True


def test_one_ranked_attempt_per_player_per_deal() -> None:
    daily = services.ensure_daily(game="tripeaks", date=today())
    alice = player("alice")
    ranked = services.start_daily(daily=daily, player=alice)
    assert ranked.ranked and ranked.kind == GameRecord.Kind.DAILY
    assert services.start_daily(daily=daily, player=alice).pk == ranked.pk  # resumes, no second deal
    services.submit_action(game_id=ranked.pk, player=alice, move="resign", expected_version=0)
    second = services.start_daily(daily=daily, player=alice)
    assert second.pk != ranked.pk and not second.ranked


def test_no_undo_or_hint_in_the_ranked_attempt() -> None:
    daily = services.ensure_daily(game="pyramid", date=today())
    alice = player("alice")
    record = services.start_daily(daily=daily, player=alice)
    services.submit_action(game_id=record.pk, player=alice, move="draw", expected_version=0)
    with pytest.raises(services.GameError, match="Undo is not allowed"):
        services.undo(game_id=record.pk, player=alice, expected_version=1)
    with pytest.raises(services.GameError, match="Hints are not allowed"):
        services.take_hint(game_id=record.pk, player=alice, expected_version=1)


def test_anonymous_visitors_play_past_days_only_and_past_days_are_unranked() -> None:
    """LP-6: an anonymous practice run of today's deal would show its stock before a ranked
    attempt, so today's deal is played signed in; past days are open to everyone."""
    visitor = Player(user=None, token="anon")
    daily = services.ensure_daily(game="pyramid", date=today())
    with pytest.raises(services.GameError, match="played signed in"):
        services.start_daily(daily=daily, player=visitor)
    past = services.ensure_daily(game="pyramid", date=today() - dt.timedelta(days=3))
    assert not services.start_daily(daily=past, player=visitor).ranked
    assert not services.start_daily(daily=past, player=player("bob")).ranked


def test_leaderboard_order_won_then_score_then_actions_then_time() -> None:
    daily = services.ensure_daily(game="pyramid", date=today())
    results = {
        "loser_high": dict(won=False, score=900, actions=10, seconds=10),
        "winner_slow": dict(won=True, score=800, actions=90, seconds=300),
        "winner_fast": dict(won=True, score=800, actions=90, seconds=100),
        "winner_short": dict(won=True, score=800, actions=80, seconds=500),
        "winner_best": dict(won=True, score=950, actions=99, seconds=900),
    }
    players = {name: player(name) for name in results}
    for name, result in results.items():
        finish(services.start_daily(daily=daily, player=players[name]), **result)
    unranked = services.start_daily(daily=daily, player=players["loser_high"])  # a second attempt
    assert not unranked.ranked
    finish(unranked, won=True, score=9999, actions=1, seconds=1)
    order = [row.record.owner.username for row in selectors.daily_leaderboard(daily)]
    assert order == ["winner_best", "winner_short", "winner_fast", "winner_slow", "loser_high"]


def test_streaks_of_days_played_and_won() -> None:
    alice = player("alice")
    day = today()
    for back, won in [(4, True), (3, True), (2, False), (1, True), (0, True)]:
        daily = services.ensure_daily(game="tripeaks", date=day - dt.timedelta(days=back))
        record = GameRecord.objects.create(
            game="tripeaks",
            engine_version=1,
            config=daily.config,
            seed=daily.seed,
            kind="daily",
            daily=daily,
            ranked=True,
            owner=alice.user,
        )
        finish(record, won=won, score=10, actions=5, seconds=60)
    streaks = selectors.daily_streaks(alice.user, day)
    assert (streaks.played_current, streaks.played_best) == (5, 5)
    assert (streaks.won_current, streaks.won_best) == (2, 2)
    assert selectors.daily_streaks(alice.user, day + dt.timedelta(days=2)).played_current == 0


def test_player_stats_per_variant() -> None:
    alice = player("alice")
    for won, score, config in [
        (True, 500, {}),
        (False, 100, {}),
        (True, 700, {}),
        (False, 50, {"redeals": 0}),
    ]:
        record = services.start_solitaire(game="pyramid", player=alice, seed=1, config=config)
        finish(record, won=won, score=score, actions=10, seconds=120)
    stats = {s.config["redeals"]: s for s in selectors.player_stats(alice.user)}
    standard = stats[2]
    assert (standard.played, standard.won, standard.best_score) == (3, 2, 700)
    assert (
        standard.recent == [True, False, True] and standard.best_streak == 1 and standard.current_streak == 1
    )
    assert standard.average_seconds == pytest.approx(120, abs=1)
    assert stats[0].played == 1 and stats[0].win_rate == 0


def test_daily_page_profile_and_leaderboards_render(client: Client) -> None:
    for game in ("pyramid", "tripeaks"):  # the beat task deals them ahead; pages only read
        services.ensure_daily(game=game, date=today())
    alice = player("alice")
    client.force_login(alice.user)
    body = client.get("/daily/").content.decode()
    assert "Play today's Pyramid (ranked)" in body and "Your streak" in body
    response = client.post(f"/daily/pyramid/{today():%Y-%m-%d}/play/")
    record = GameRecord.objects.get(owner=alice.user)
    assert response.url == f"/games/{record.pk}/" and record.ranked
    page = client.get(response.url).content.decode()
    assert "Ranked" in page and "Undo" not in page and "Hint" not in page
    finish(record, won=True, score=321, actions=40, seconds=200)
    for url in ("/leaderboards/", f"/daily/pyramid/{today():%Y-%m-%d}/", "/u/alice/"):
        assert "alice" in client.get(url).content.decode()
    assert "321" in client.get("/leaderboards/").content.decode()


def test_today_keeps_its_winning_line_and_past_days_show_it(client: Client) -> None:
    past_day = today() - dt.timedelta(days=1)
    past = services.ensure_daily(game="tripeaks", date=past_day)
    body = client.get(f"/daily/tripeaks/{past_day:%Y-%m-%d}/").content.decode()
    assert "winning line" in body and past.solution[0] in body
    services.ensure_daily(game="tripeaks", date=today())  # the beat task's job: pages only read
    body = client.get(f"/daily/tripeaks/{today():%Y-%m-%d}/").content.decode()
    assert "winning line" not in body
    assert client.get(f"/daily/tripeaks/{today() + dt.timedelta(days=1):%Y-%m-%d}/").status_code == 404
    assert client.get("/daily/tripeaks/not-a-date/").status_code == 404
    assert f"{past_day:%Y-%m-%d}" in client.get("/daily/archive/").content.decode()


def test_anonymous_games_become_yours_when_you_log_in(client: Client) -> None:
    client.post("/play/tripeaks/", {"deal": "number", "number": "5"})
    record = GameRecord.objects.get()
    assert record.owner is None
    User.objects.create_user("carol", "c@example.com", "pw-long-enough-1")
    client.post("/accounts/login/", {"username": "carol", "password": "pw-long-enough-1"})
    record.refresh_from_db()
    assert record.owner.username == "carol" and record.session_key == ""
