"""LP-6 (ranked deals stay ranked), LP-7 through the site, and GET pages that only read.

Every bypass of issue 15: a daily deal's number at /play/, casual games of that number
(new ones refused, old ones given no hint, undo, solution, replay or export), someone
else's running ranked attempt, anonymous and unranked attempts of today's deal; after the
day everything opens. GET pages create and change nothing; hints and winning lines are
rate-limited.

The clock: a test's "today" and "tomorrow" are read after ``steady_day`` made sure that
no UTC midnight falls within the next minute, and "the day is over" is a deal dated
before today, never a clock that moves.
"""

from __future__ import annotations

import datetime as dt
import io
import time
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from django_ratelimit.core import _get_window

from games.core.players import SESSION_TOKEN, Player
from games.engine import get_engine
from games.engine.cards import STANDARD_DECK
from games.engine.solver.hint_check import full_knowledge_hint
from games.models import Action, DailyChallenge, GameRecord
from games.solitaire import services
from games.solitaire.views import ADDRESS_RATE, HINT_RATE, SOLUTION_RATE
from games.stats import selectors

pytestmark = pytest.mark.django_db
User = get_user_model()
HTMX = {"HTTP_HX_REQUEST": "true"}
T = TypeVar("T")
FORM = {
    "pyramid": {"deal": "number", "redeals": "2", "rows": "7", "scoring": "points"},
    "tripeaks": {"deal": "number"},
}


@pytest.fixture(autouse=True)
def steady_day() -> dt.date:
    """Today's UTC date, with at least a minute of it left: a test that reads the date
    must not see it change half-way (the site's day turns at midnight UTC)."""
    now = timezone.now()
    left = (
        dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC) - now
    ).total_seconds()
    if left < 60:
        time.sleep(left + 1)
    return timezone.now().date()


@pytest.fixture(autouse=True)
def own_rate_counters(settings: Any) -> None:
    """Rate-limit counters of this test only: the test Redis outlives the test database,
    whose user ids start again at 1 in each run."""
    settings.RATELIMIT_CACHE_PREFIX = f"rl-test-{uuid.uuid4().hex}:"


def person(name: str) -> Any:
    return User.objects.create_user(name, f"{name}@example.com", "pw-long-enough-1")


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def deal(game: str, day: dt.date) -> DailyChallenge:
    """A daily deal, made as the beat task makes it."""
    return services.ensure_daily(game=game, date=day)


def ranked_attempt(daily: DailyChallenge, owner: Any) -> GameRecord:
    """``owner``'s ranked attempt at ``daily``, begun within its day (as start_daily makes it)."""
    return GameRecord.objects.create(
        game=daily.game,
        engine_version=1,
        config=daily.config,
        seed=daily.seed,
        kind=GameRecord.Kind.DAILY,
        daily=daily,
        ranked=True,
        owner=owner,
    )


def as_daily(record: GameRecord, day: dt.date) -> DailyChallenge:
    """Makes ``record``'s deal number the daily deal of ``day`` *after* the game began: a
    casual game of that number that already existed (or a deal number found by chance)."""
    other = "tripeaks" if record.game == "pyramid" else "pyramid"  # another game: one deck
    return DailyChallenge.objects.create(
        game=other, date=day, seed=record.seed, config=get_engine(other).normalize_config(None), solution=[]
    )


def version(record: GameRecord) -> int:
    record.refresh_from_db()
    return record.version


def resign(record: GameRecord, player: Player) -> None:
    services.submit_action(game_id=record.pk, player=player, move="resign", expected_version=version(record))


# -- casual games of a daily deal's number -------------------------------------------


def test_the_numbers_of_todays_and_tomorrows_deals_are_refused_at_play(steady_day: dt.date) -> None:
    today, tomorrow = deal("pyramid", steady_day), deal("tripeaks", steady_day + dt.timedelta(days=1))
    client = signed_in(person("mallory"))
    for game in ("pyramid", "tripeaks"):
        for secret in (today, tomorrow):
            response = client.post(f"/play/{game}/", {**FORM[game], "number": str(secret.seed)})
            assert response.status_code == 200
            assert "is a deal of a daily challenge or a solitaire event" in response.content.decode()
    assert not GameRecord.objects.exists()
    with pytest.raises(services.GameError, match="deal of a daily challenge"):
        services.start_solitaire(game="pyramid", player=Player(user=None, token="t"), seed=today.seed)
    # Another number is a casual game as ever.
    assert client.post("/play/pyramid/", {**FORM["pyramid"], "number": "42"}).status_code == 302


def test_a_random_deal_never_picks_a_secret_number() -> None:
    assert {services.random_deal_number(avoid={1, 2}, numbers=3) for _ in range(50)} == {3}
    assert {services.random_deal_number(numbers=3) for _ in range(200)} == {1, 2, 3}


def test_an_old_casual_game_of_the_number_gets_no_hint_undo_solution_replay_or_export(
    steady_day: dt.date,
) -> None:
    owner = person("olga")
    player = Player(user=owner, token="o")
    record = services.start_solitaire(game="pyramid", player=player, seed=777)
    services.submit_action(game_id=record.pk, player=player, move="draw", expected_version=0)
    daily = as_daily(record, steady_day)
    client = signed_in(owner)

    body = client.post(f"/games/{record.pk}/hint/", {"version": version(record)}, **HTMX).content.decode()
    assert "Hints are closed for this deal" in body and "data-hint" not in body
    body = client.post(f"/games/{record.pk}/undo/", {"version": version(record)}, **HTMX).content.decode()
    assert "Undo is closed for this deal" in body
    record.refresh_from_db()
    assert (record.hint_count, record.undo_count, record.action_count) == (0, 0, 1)
    page = client.get(f"/games/{record.pk}/").content.decode()
    assert "Undo" not in page and "Hint" not in page and "#777" not in page

    resign(record, player)
    for url in (f"/games/{record.pk}/solution/", f"/games/{record.pk}/replay/"):
        response = client.get(url)
        assert response.status_code == 404 and "once its day is over" in response.content.decode()
    assert client.get(f"/games/{record.pk}/export.json").json()["error"].startswith("This deal is a daily")
    assert client.post(f"/games/{record.pk}/continue/", {"step": "0"}).status_code == 404
    assert Client().get(f"/games/{record.pk}/").status_code == 404  # nor may anyone watch it
    assert GameRecord.objects.count() == 1

    DailyChallenge.objects.filter(pk=daily.pk).update(date=steady_day - dt.timedelta(days=1))
    for url in (
        f"/games/{record.pk}/solution/",
        f"/games/{record.pk}/replay/",
        f"/games/{record.pk}/export.json",
    ):
        assert client.get(url).status_code == 200, url
    assert Client().get(f"/games/{record.pk}/").status_code == 200


# -- daily attempts ------------------------------------------------------------------


def test_a_running_ranked_attempt_is_seen_by_its_player_only(steady_day: dt.date) -> None:
    daily = deal("pyramid", steady_day)
    alice = person("alice")
    attempt = services.start_daily(daily=daily, player=Player(user=alice, token="a"))
    assert attempt.ranked
    bob = signed_in(person("bob"))
    for client in (bob, Client()):
        response = client.get(f"/games/{attempt.pk}/")
        assert response.status_code == 404 and "seen by its player only" in response.content.decode()
        assert client.get(f"/games/{attempt.pk}/replay/").status_code == 404
        answer = client.post(f"/games/{attempt.pk}/act/", {"action": "draw", "version": "0"}, **HTMX)
        assert answer.status_code == 404 and 'id="game"' not in answer.content.decode()
    assert not Action.objects.exists()
    body = signed_in(alice).get(f"/games/{attempt.pk}/").content.decode()
    assert 'data-can-play="1"' in body and "Ranked" in body and str(daily.seed) not in body

    # Still hidden once the day is over: a running ranked attempt is its player's alone.
    DailyChallenge.objects.filter(pk=daily.pk).update(date=steady_day - dt.timedelta(days=1))
    assert bob.get(f"/games/{attempt.pk}/").status_code == 404


def test_anonymous_visitors_cannot_play_todays_deal_and_are_told_why(steady_day: dt.date) -> None:
    daily = deal("tripeaks", steady_day)
    visitor = Client()
    page = visitor.get(f"/daily/tripeaks/{steady_day:%Y-%m-%d}/").content.decode()
    assert "Log in to play this deal" in page and str(daily.seed) not in page
    response = visitor.post(f"/daily/tripeaks/{steady_day:%Y-%m-%d}/play/", follow=True)
    assert "played signed in" in response.content.decode()
    assert not GameRecord.objects.exists()
    daily_page = visitor.get("/daily/").content.decode()
    assert "a practice game shows the stock" in daily_page and "Play today's" not in daily_page


def test_a_second_attempt_is_unranked_with_no_hint_undo_or_replay_until_the_day_is_over(
    steady_day: dt.date,
) -> None:
    daily = deal("pyramid", steady_day)
    alice = person("alice")
    player = Player(user=alice, token="a")
    client = signed_in(alice)
    resign(services.start_daily(daily=daily, player=player), player)
    client.post(f"/daily/pyramid/{steady_day:%Y-%m-%d}/play/")
    second = GameRecord.objects.get(ranked=False)
    assert second.daily == daily
    services.submit_action(game_id=second.pk, player=player, move="draw", expected_version=0)
    for service, words in ((services.take_hint, "Hints are closed"), (services.undo, "Undo is closed")):
        with pytest.raises(services.GameError, match=words):
            service(game_id=second.pk, player=player, expected_version=1)
    page = client.get(f"/games/{second.pk}/").content.decode()
    assert "Undo" not in page and "Hint" not in page and str(daily.seed) not in page
    resign(second, player)
    assert client.get(f"/games/{second.pk}/replay/").status_code == 404
    assert client.get(f"/games/{second.pk}/solution/").status_code == 404
    # Its end panel links to no replay nor download until the day is over either.
    page = client.get(f"/games/{second.pk}/").content.decode()
    assert 'data-testid="end-panel"' in page and "/replay/" not in page and "export.json" not in page
    DailyChallenge.objects.filter(pk=daily.pk).update(date=steady_day - dt.timedelta(days=1))
    page = client.get(f"/games/{second.pk}/").content.decode()
    assert f'href="/games/{second.pk}/replay/"' in page and f'href="/games/{second.pk}/export.json"' in page


def test_the_deal_number_is_shown_nowhere_until_the_day_is_over(steady_day: dt.date) -> None:
    today = {game: deal(game, steady_day) for game in ("pyramid", "tripeaks")}
    tomorrow = deal("pyramid", steady_day + dt.timedelta(days=1))
    alice = person("alice")
    client = signed_in(alice)
    client.post(f"/daily/pyramid/{steady_day:%Y-%m-%d}/play/")
    attempt = GameRecord.objects.get()
    pages = ["/daily/", "/leaderboards/", "/play/", "/play/pyramid/", f"/games/{attempt.pk}/"]
    pages += [f"/daily/{game}/{steady_day:%Y-%m-%d}/" for game in today]
    pages.append(f"/daily/pyramid/{tomorrow.date:%Y-%m-%d}/")
    resign(attempt, Player(user=alice, token="a"))
    for url in pages:
        body = client.get(url).content.decode()
        for secret in (*today.values(), tomorrow):
            assert str(secret.seed) not in body, (url, secret)


def test_tomorrows_deal_has_a_page_but_no_play_and_later_ones_no_page(steady_day: dt.date) -> None:
    tomorrow = deal("tripeaks", steady_day + dt.timedelta(days=1))
    later = deal("tripeaks", steady_day + dt.timedelta(days=2))
    client = signed_in(person("alice"))
    page = client.get(f"/daily/tripeaks/{tomorrow.date:%Y-%m-%d}/").content.decode()
    assert "opens at midnight UTC" in page and "Play this deal" not in page
    assert "<h2>Leaderboard</h2>" not in page  # nobody can be on it yet
    response = client.post(f"/daily/tripeaks/{tomorrow.date:%Y-%m-%d}/play/", follow=True)
    assert "opens on its day" in response.content.decode()
    assert client.get(f"/daily/tripeaks/{later.date:%Y-%m-%d}/").status_code == 404
    assert client.post(f"/daily/tripeaks/{later.date:%Y-%m-%d}/play/").status_code == 404
    assert not GameRecord.objects.exists()


def test_after_the_day_the_deal_is_an_ordinary_numbered_deal(steady_day: dt.date) -> None:
    past = deal("pyramid", steady_day - dt.timedelta(days=1))
    alice, bob = person("alice"), person("bob")
    attempt = ranked_attempt(past, alice)  # finished within its day
    resign(attempt, Player(user=alice, token="a"))
    visitor = Client()
    detail = visitor.get(f"/daily/pyramid/{past.date:%Y-%m-%d}/").content.decode()
    assert f"Deal #{past.seed}" in detail and "The solver's winning line" in detail
    for url in (f"/games/{attempt.pk}/", f"/games/{attempt.pk}/replay/", f"/games/{attempt.pk}/solution/"):
        assert visitor.get(url).status_code == 200, url
    assert visitor.post(f"/daily/pyramid/{past.date:%Y-%m-%d}/play/").status_code == 302  # unranked
    client = signed_in(bob)
    assert client.post("/play/tripeaks/", {"deal": "number", "number": str(past.seed)}).status_code == 302
    casual = GameRecord.objects.get(owner=bob, kind=GameRecord.Kind.CASUAL)
    body = client.post(f"/games/{casual.pk}/hint/", {"version": "0"}, **HTMX).content.decode()
    assert "data-hint" in body
    assert f"#{past.seed}" in client.get(f"/games/{casual.pk}/").content.decode()


def test_a_ranked_attempt_played_on_after_its_day_no_longer_counts(steady_day: dt.date) -> None:
    """Once the day is over its solution is public; a move made then takes the attempt off
    the ranking, so a looked-up line cannot finish a ranked attempt left open at midnight."""
    past = deal("tripeaks", steady_day - dt.timedelta(days=1))
    alice = person("alice")
    attempt = ranked_attempt(past, alice)
    player = Player(user=alice, token="a")
    for n, text in enumerate(past.solution):
        services.submit_action(game_id=attempt.pk, player=player, move=text, expected_version=n)
    attempt.refresh_from_db()
    assert attempt.won and not attempt.ranked
    assert selectors.daily_leaderboard(past) == []


# -- LP-7 through the service: the hint comes from the view ------------------------------


def test_games_that_show_the_same_view_get_the_same_hint() -> None:
    """Two Tri-Peaks games of deal 9 whose decks differ only in the stock's order: the same
    view, so the same hint, where a hint that read the cards (the first move of the exact
    solver's line) would differ."""
    engine = get_engine("tripeaks")
    alice = Player(user=person("alice"), token="a")
    dealt = engine.initial_state(None, 9)
    base = [*dealt.layout, dealt.waste[0]]
    stock = [card for card in STANDARD_DECK if card not in base]
    decks = [[*base, *stock], [*base, *reversed(stock)]]
    states = [engine.initial_state(None, 9, deck) for deck in decks]
    assert engine.view(states[0], 0) == engine.view(states[1], 0)
    assert full_knowledge_hint("tripeaks", states[0]) != full_knowledge_hint("tripeaks", states[1])
    hints = []
    for deck in decks:
        record = GameRecord.objects.create(
            game="tripeaks",
            engine_version=1,
            config=engine.normalize_config(None),
            seed=9,
            deck=deck,
            owner=alice.user,
            first_viewed_at=timezone.now(),
        )
        hints.append(services.take_hint(game_id=record.pk, player=alice, expected_version=0))
    assert hints[0] == hints[1] and hints[0] in engine.view(states[0], 0).legal


# -- GET is safe -----------------------------------------------------------------------


def test_daily_pages_exist_only_for_dates_that_have_a_deal(steady_day: dt.date) -> None:
    deal("pyramid", steady_day)
    client = Client()
    for date in ("0001-01-01", "1900-01-01", f"{steady_day - dt.timedelta(days=5):%Y-%m-%d}", "2026-02-30"):
        assert client.get(f"/daily/pyramid/{date}/").status_code == 404, date
        assert client.get(f"/daily/tripeaks/{date}/").status_code == 404, date
    assert client.get(f"/daily/tripeaks/{steady_day:%Y-%m-%d}/").status_code == 404  # not dealt
    assert client.get(f"/daily/pyramid/{steady_day:%Y-%m-%d}/").status_code == 200
    assert DailyChallenge.objects.count() == 1
    assert signed_in(person("alice")).post("/daily/pyramid/1900-01-01/play/").status_code == 404
    assert DailyChallenge.objects.count() == 1 and not GameRecord.objects.exists()


def test_a_missing_deal_is_asked_of_the_worker_never_dealt_by_the_page(
    steady_day: dt.date, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    cache.delete(services.DAILY_REQUEST_KEY.format(date=steady_day))
    for first_look in (True, False):
        with django_capture_on_commit_callbacks() as queued:
            body = Client().get("/daily/").content.decode()
        assert "is being dealt: it will be here in a moment" in body
        assert not DailyChallenge.objects.exists()
        # The first look queues the task once; the next, within the minute, does not.
        assert len(queued) == (1 if first_look else 0)
    body = Client().get("/leaderboards/").content.decode()
    assert not DailyChallenge.objects.exists() and "Leaderboards" in body


def test_the_start_up_command_deals_today_before_the_site_answers(steady_day: dt.date) -> None:
    """``make run`` runs it before daphne (launcher/embedded.py): beat's first run is an hour away."""
    out = io.StringIO()
    call_command("create_daily_challenges", "--days-ahead", "1", stdout=out)
    call_command("create_daily_challenges", "--days-ahead", "1", stdout=io.StringIO())  # idempotent
    days = sorted(DailyChallenge.objects.values_list("date", "game"))
    tomorrow = steady_day + dt.timedelta(days=1)
    assert days == [
        (steady_day, "pyramid"),
        (steady_day, "tripeaks"),
        (tomorrow, "pyramid"),
        (tomorrow, "tripeaks"),
    ]
    assert f"pyramid daily {steady_day:%Y-%m-%d}" in out.getvalue()
    assert "Play today's Pyramid" in signed_in(person("alice")).get("/daily/").content.decode()


def snapshot() -> dict[str, Any]:
    """Every row the games pages could write, as it stands."""
    return {
        model.__name__: sorted(map(repr, model.objects.values()))
        for model in (GameRecord, Action, DailyChallenge, Session, User)
    }


def test_get_changes_no_row(steady_day: dt.date) -> None:
    daily = deal("pyramid", steady_day)
    deal("tripeaks", steady_day)
    past = deal("tripeaks", steady_day - dt.timedelta(days=1))
    alice = person("alice")
    player = Player(user=alice, token="a")
    ranked = services.start_daily(daily=daily, player=player)
    casual = services.start_solitaire(game="tripeaks", player=player, seed=99)
    finished = services.start_solitaire(game="pyramid", player=player, seed=98)
    resign(finished, player)
    # A game from before timing started when it is dealt: its page used to start its clock.
    old = GameRecord.objects.create(game="pyramid", engine_version=1, config={}, seed=97, owner=alice)
    urls = [
        "/play/",
        "/play/pyramid/",
        "/play/tripeaks/?deal=12",
        "/daily/",
        "/daily/archive/",
        "/leaderboards/",
        f"/daily/pyramid/{steady_day:%Y-%m-%d}/",
        f"/daily/tripeaks/{past.date:%Y-%m-%d}/",
        f"/daily/tripeaks/{past.date:%Y-%m-%d}/solution/",
        "/daily/pyramid/0001-01-01/",
        *(f"/games/{record.pk}/" for record in (ranked, casual, finished, old)),
        f"/games/{finished.pk}/replay/",
        f"/games/{finished.pk}/solution/",
        f"/games/{finished.pk}/export.json",
        f"/u/{alice.username}/",
    ]
    owner, stranger, anonymous = signed_in(alice), signed_in(person("bob")), Client()
    before = snapshot()
    for client in (owner, stranger, anonymous):
        for url in urls:
            assert client.get(url).status_code in (200, 404), url
            assert client.get(url, **HTMX).status_code in (200, 404), url
    assert snapshot() == before
    old.refresh_from_db()
    assert old.first_viewed_at is None


def test_a_games_clock_starts_when_it_is_dealt(steady_day: dt.date) -> None:
    alice = Player(user=person("alice"), token="a")
    before = timezone.now()
    casual = services.start_solitaire(game="pyramid", player=alice, seed=5)
    ranked = services.start_daily(daily=deal("tripeaks", steady_day), player=alice)
    for record in (casual, ranked):
        record.refresh_from_db()
        assert record.first_viewed_at is not None and before <= record.first_viewed_at <= timezone.now()
    started = ranked.first_viewed_at
    assert services.start_daily(daily=ranked.daily, player=alice).first_viewed_at == started  # resumed
    services.submit_action(game_id=ranked.pk, player=alice, move="resign", expected_version=0)
    ranked.refresh_from_db()
    assert ranked.first_viewed_at == started and ranked.elapsed_seconds is not None


# -- rate limits ----------------------------------------------------------------------


def limit(rate: str) -> int:
    return int(rate.split("/")[0])


BURST_S = 20
"""Room a burst gets in its window: in CI runs, eleven hints and a log-in took 10 s at most."""
KEYS_TRIED = 30
"""A key has room with odds of two in three (40 s of 60): 30 keys all without it, 1 in 10^14."""


def in_one_window(attempt: Callable[[int], tuple[str, Callable[[], T]]]) -> T:
    """Runs a burst of requests within one rate window of its counter's key.

    django-ratelimit counts in fixed one-minute windows whose edges are shifted per key (by
    the key's CRC): a burst that straddles an edge (on a slow, busy machine) sees its count
    start again half-way. ``attempt(n)`` makes a fresh key (a new user, session or address,
    so nothing is counted twice) and its burst. A key whose window has less than ``BURST_S``
    left is passed over for the next one, whose edge falls elsewhere: waiting for the edge
    instead cost the suite up to a minute. A burst that straddled an edge all the same is run
    again with a fresh key.
    """
    straddled = 0
    for n in range(KEYS_TRIED):
        key, burst = attempt(n)
        if _get_window(key, 60) - time.time() < BURST_S:
            continue
        window = _get_window(key, 60)
        result = burst()
        if _get_window(key, 60) == window:
            return result
        straddled += 1
        if straddled == 3:
            raise AssertionError("three bursts in a row straddled the edge of a rate window")
    raise AssertionError(f"none of {KEYS_TRIED} keys had {BURST_S} s left in its rate window")


def test_hints_are_rate_limited_per_player(steady_day: dt.date) -> None:
    def attempt(n: int) -> tuple[str, Callable[[], Any]]:
        alice = person(f"alice{n}")
        client = signed_in(alice)
        record = services.start_solitaire(game="tripeaks", player=Player(user=alice, token="a"), seed=31)
        url = f"/games/{record.pk}/hint/"

        def burst() -> Any:
            answers = [client.post(url, {"version": "0"}, **HTMX) for _ in range(limit(HINT_RATE) + 1)]
            # The limit is the player's, not the browser's: another browser of alice's.
            return record, answers, signed_in(alice).post(url, {"version": "0"})

        return f"user:{alice.pk}", burst

    record, answers, elsewhere = in_one_window(attempt)
    for response in answers[:-1]:
        assert response.status_code == 200 and "data-hint" in response.content.decode()
    assert answers[-1].status_code == 429 and "Too many hints" in answers[-1].content.decode()
    assert 'id="game"' in answers[-1].content.decode()  # the board, with the message, for htmx
    assert elsewhere.status_code == 429 and "Too many hints" in elsewhere.content.decode()
    record.refresh_from_db()
    assert record.hint_count == limit(HINT_RATE)
    # Someone else is not held back by alice's hints.
    bob = Player(user=person("bob"), token="b")
    bobs = services.start_solitaire(game="tripeaks", player=bob, seed=31)
    assert signed_in(bob.user).post(f"/games/{bobs.pk}/hint/", {"version": "0"}, **HTMX).status_code == 200


def test_winning_lines_are_rate_limited_per_session_and_per_address() -> None:
    alice = Player(user=person("alice"), token="a")
    record = services.start_solitaire(game="pyramid", player=alice, seed=8)
    resign(record, alice)
    url = f"/games/{record.pk}/solution/"

    def visitor(address: str) -> Client:
        """A browser with a session of its own (it started a game)."""
        client = Client(REMOTE_ADDR=address)
        assert client.post("/play/tripeaks/", {"deal": "number", "number": "9"}).status_code == 302
        return client

    def one_session(n: int) -> tuple[str, Callable[[], Any]]:
        client = visitor(f"10.1.{n}.1")
        return f"session:{client.session[SESSION_TOKEN]}", lambda: (
            client,
            [client.get(url) for _ in range(limit(SOLUTION_RATE) + 1)],
        )

    client, answers = in_one_window(one_session)
    assert [response.status_code for response in answers] == [200] * limit(SOLUTION_RATE) + [429]
    assert "Too many winning lines" in answers[-1].content.decode()
    assert answers[-1]["Retry-After"] == "60"
    assert visitor(client.defaults["REMOTE_ADDR"]).get(url).status_code == 200  # a new session's own limit

    def no_session(n: int) -> tuple[str, Callable[[], list[int]]]:
        address = f"10.2.{n}.1"
        return f"address:{address}", lambda: [
            Client(REMOTE_ADDR=address).get(url).status_code for _ in range(limit(SOLUTION_RATE) + 1)
        ]

    # Without a session (cookies dropped) the address is the player.
    assert in_one_window(no_session) == [200] * limit(SOLUTION_RATE) + [429]

    def session_per_request(n: int) -> tuple[str, Callable[[], list[int]]]:
        address = f"10.3.{n}.1"
        return address, lambda: [
            visitor(address).get(url).status_code for _ in range(limit(ADDRESS_RATE) + 1)
        ]

    # A new session for every request gets no further than the address's own limit.
    assert in_one_window(session_per_request) == [200] * limit(ADDRESS_RATE) + [429]


def test_a_profile_lists_a_secret_deals_game_to_its_player_only(steady_day: dt.date) -> None:
    alice = person("alice")
    player = Player(user=alice, token="a")
    ranked = services.start_daily(daily=deal("pyramid", steady_day), player=player)
    resign(ranked, player)
    mine = signed_in(alice).get(f"/u/{alice.username}/").content.decode()
    assert f"/games/{ranked.pk}/replay/" in mine
    for visitor in (signed_in(person("bob")), Client()):
        assert f"/games/{ranked.pk}/replay/" not in visitor.get(f"/u/{alice.username}/").content.decode()
    assert [row.record for row in selectors.player_games(alice, public=False)] == [ranked]
    assert list(selectors.player_games(alice)) == []
