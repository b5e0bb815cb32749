"""TN-8 solitaire events: every entrant plays the same deals (proven winnable, chosen as daily
deals are) within the event's window, with no hints or undo; ranked by total score, then total
time. The deals stay secret (LP-6) before the start and while the window is open: no page,
export, API answer, replay or casual game gives them away; afterwards they are ordinary
numbered deals with replays. The par match (PY-8) is one such event."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Notice, User
from games.core.errors import GameError
from games.core.players import Player
from games.engine import get_engine
from games.engine.solver import solve
from games.models import GameRecord, SealedDeal, SoloMatch
from games.solitaire import services, solo_matches
from tests.tournaments.support import person
from tournaments import series as series_service
from tournaments import services as tournament_services
from tournaments import solitaire_events
from tournaments.models import Series, Tournament

pytestmark = pytest.mark.django_db


def an_event(creator: User, **overrides: Any) -> Tournament:
    options: dict[str, Any] = {
        "creator": creator,
        "name": "Tuesday deals",
        "game": "tripeaks",
        "config": None,
        "clock_seconds": 0,
        "max_entrants": 100,
        "starts_at": timezone.now() + dt.timedelta(minutes=30),
        "format": Tournament.Format.SOLITAIRE,
        "deal_count": 3,
        "window_minutes": 60,
    }
    options.update(overrides)
    return tournament_services.create_tournament(**options)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def as_player(user: User) -> Player:
    return Player(user=user, token="")


def deal(user: User, tournament: Tournament, number: int) -> GameRecord:
    entry = tournament.entries.get(user=user)
    assert entry.solo_match_id is not None
    return solo_matches.play(match_id=entry.solo_match_id, deal=number, player=as_player(user))


def play(record: GameRecord, user: User, moves: list[str]) -> GameRecord:
    for move in moves:
        record = services.submit_action(
            game_id=record.pk, player=as_player(user), move=move, expected_version=record.version
        ).record
    return record


def win(record: GameRecord, user: User) -> GameRecord:
    line = solve(record.game, config=record.config, seed=record.seed).actions
    return play(record, user, list(line))


def started(tournament: Tournament, user: User) -> Tournament:
    tournament_services.start_now(tournament_id=tournament.pk, user=user)
    tournament.refresh_from_db()
    return tournament


def window_ends(event: Tournament) -> None:
    """The event's window is over, as if its time had passed: its deals unsealed, its runs closed."""
    past = timezone.now() - dt.timedelta(seconds=1)
    Tournament.objects.filter(pk=event.pk).update(closes_at=past)
    SealedDeal.objects.filter(seed__in=event.deals).update(sealed_until=past)
    SoloMatch.objects.filter(event_entry__tournament=event).update(closes_at=past)
    event.refresh_from_db()


def test_the_schedule_form_makes_an_event_and_refuses_options_that_make_none() -> None:
    alice = person("alice")
    client = signed_in(alice)
    form = {
        "event-name": "Pyramid par night",
        "event-game": "pyramid",
        "event-format": "par_match",
        "event-deal_count": "",
        "event-window_minutes": "60",
        "event-max_entrants": "100",
        "event-starts_in": "30",
    }
    response = client.post("/tournaments/new/solitaire/", form)
    assert response.status_code == 302
    event = Tournament.objects.get(name="Pyramid par night")
    rule = get_engine("pyramid").normalize_config({"scoring": "par", "redeals": 2})
    assert (event.format, event.deal_count, event.window_minutes, event.config) == ("par_match", 6, 60, rule)
    assert event.entries.filter(user=alice).exists() and event.deals == []
    # Tri-Peaks has no par match; a plain event needs its number of deals.
    refused = client.post("/tournaments/new/solitaire/", {**form, "event-game": "tripeaks"})
    assert refused.status_code == 400 and "Tri-Peaks has no par match" in refused.content.decode()
    refused = client.post("/tournaments/new/solitaire/", {**form, "event-format": "solitaire"})
    assert refused.status_code == 400 and "1 to 10 deals" in refused.content.decode()
    # The table formats are no solitaire event's, nor the other way round.
    with pytest.raises(tournament_services.TournamentError, match="solitaire game"):
        an_event(alice, game="triad")
    with pytest.raises(tournament_services.TournamentError, match="not a tournament game"):
        an_event(alice, game="pyramid", format="swiss", rounds=3, max_entrants=8)
    with pytest.raises(tournament_services.TournamentError, match="not a format of table games"):
        tournament_services.check_options(
            game="triad",
            config=None,
            clock_seconds=30,
            max_entrants=8,
            format="par_match",
            best_of=1,
            table_size=2,
            rounds=None,
            third_place=False,
        )
    assert Tournament.objects.count() == 1


def test_every_entrant_plays_the_same_proven_winnable_deals_without_hints_or_undo() -> None:
    alice, bob, carol = person("alice"), person("bob"), person("carol")
    event = an_event(alice)
    tournament_services.join(tournament_id=event.pk, user=bob)
    event = started(event, alice)
    assert event.status == "running" and len(event.deals) == len(set(event.deals)) == 3
    assert event.closes_at == event.started_at + dt.timedelta(minutes=60)
    for seed in event.deals:
        assert solve("tripeaks", config=event.config, seed=seed).winnable
    assert set(SealedDeal.objects.values_list("seed", flat=True)) == set(event.deals)
    # A late entrant gets the same deals, while the window is open.
    tournament_services.join(tournament_id=event.pk, user=carol)
    matches = [entry.solo_match for entry in event.entries.order_by("joined_at")]
    assert [match.seeds for match in matches if match] == [event.deals] * 3
    assert all(
        match and match.closes_at == event.closes_at and match.title == event.name for match in matches
    )
    first = [deal(user, event, 1) for user in (alice, bob, carol)]
    assert {record.seed for record in first} == {event.deals[0]}
    with pytest.raises(GameError, match="Hints are not allowed"):
        services.take_hint(game_id=first[0].pk, player=as_player(alice), expected_version=0)
    record = play(first[0], alice, ["draw"])
    with pytest.raises(GameError, match="Undo is not allowed"):
        services.undo(game_id=record.pk, player=as_player(alice), expected_version=record.version)
    # Everyone entered is told that their deals are open, with the link to them.
    opened = Notice.objects.filter(kind=Notice.Kind.EVENT_OPEN).order_by("user__username")
    assert [(n.user.username, n.url) for n in opened] == [
        (m.owner.username, m.get_absolute_url()) for m in sorted(matches, key=lambda m: m.owner.username)
    ]


def _everything_a_visitor_can_read(client: Client, event: Tournament, names: list[str]) -> str:
    pages = [
        f"/tournaments/{event.pk}/",
        f"/tournaments/{event.pk}/results.json",
        f"/tournaments/{event.pk}/results.csv",
        f"/tournaments/{event.pk}/matches.csv",
        "/tournaments/",
    ]
    for name in names:
        pages += [f"/u/{name}/", f"/api/users/{name}/games", f"/api/users/{name}"]
    out = []
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        out.append(response.content.decode())
    return "\n".join(out)


def test_the_deals_are_secret_before_the_start_and_until_the_window_closes() -> None:
    alice, bob, mallory = person("alice"), person("bob"), person("mallory")
    event = an_event(alice, game="pyramid", deal_count=2)
    tournament_services.join(tournament_id=event.pk, user=bob)
    watcher = signed_in(mallory)
    before = _everything_a_visitor_can_read(watcher, event, ["alice", "bob"])
    before_own = _everything_a_visitor_can_read(signed_in(alice), event, ["alice"])
    event = started(event, alice)
    for seed in event.deals:
        assert str(seed) not in before and str(seed) not in before_own
    # Alice plays deal 1 to its end, and starts deal 2.
    won = win(deal(alice, event, 1), alice)
    assert won.won and won.is_over
    going = play(deal(alice, event, 2), alice, ["draw"])
    during = _everything_a_visitor_can_read(watcher, event, ["alice", "bob"])
    own = _everything_a_visitor_can_read(signed_in(alice), event, ["alice"])
    entry = event.entries.get(user=alice)
    own += signed_in(alice).get(f"/matches/{entry.solo_match_id}/").content.decode()
    for seed in event.deals:
        assert str(seed) not in during and str(seed) not in own
    # Her games are hers alone; not even she has a replay, a download or a winning line yet.
    for record in (won, going):
        for client in (watcher, Client()):
            assert client.get(f"/games/{record.pk}/").status_code == 404
            assert client.get(f"/games/{record.pk}/replay/").status_code == 404
    alice_client = signed_in(alice)
    assert alice_client.get(f"/games/{won.pk}/").status_code == 200
    for page in (f"/games/{won.pk}/replay/", f"/games/{won.pk}/export.json", f"/games/{won.pk}/solution/"):
        response = alice_client.get(page)
        assert response.status_code == 404 and "window closes" in response.content.decode(), page
    # Nobody deals them as a casual game, and a random deal is never one.
    for seed in event.deals:
        form = {"deal": "number", "redeals": "2", "rows": "7", "scoring": "points", "number": str(seed)}
        response = watcher.post("/play/pyramid/", form)
        assert "still on" in response.content.decode()
        with pytest.raises(GameError, match="solitaire event"):
            services.start_solitaire(game="tripeaks", player=as_player(mallory), seed=seed)
    assert not GameRecord.objects.filter(owner=mallory).exists()
    # The window closes: the deals are ordinary numbered deals, with replays for everyone.
    window_ends(event)
    assert tournament_services.close_due() == [event.pk]
    event.refresh_from_db()
    page = watcher.get(f"/tournaments/{event.pk}/").content.decode()
    for seed in event.deals:
        assert f"#{seed}" in page
    assert watcher.get(f"/games/{won.pk}/replay/").status_code == 200
    data = json.loads(watcher.get(f"/tournaments/{event.pk}/results.json").content)
    replays = [d["replay_url"] for e in data["entrants"] for d in e["deals"] if d["replay_url"]]
    assert len(replays) == 2 and all(url.startswith("http://testserver/games/") for url in replays)


def test_a_deal_is_not_dealt_nor_played_once_the_window_has_closed() -> None:
    alice = person("alice")
    event = started(an_event(alice, deal_count=2), alice)
    record = deal(alice, event, 1)
    window_ends(event)  # and the beat has not closed the event yet
    with pytest.raises(GameError, match="window has closed"):
        play(record, alice, ["draw"])
    match_id = event.entries.get(user=alice).solo_match_id
    with pytest.raises(GameError, match="window has closed"):
        solo_matches.play(match_id=match_id or 0, deal=2, player=as_player(alice))
    record.refresh_from_db()
    assert record.action_count == 0 and record.solo_match.games.count() == 1


def _timed(record: GameRecord, seconds: int) -> None:
    start = record.first_viewed_at or timezone.now()
    GameRecord.objects.filter(pk=record.pk).update(last_action_at=start + dt.timedelta(seconds=seconds))


def test_standings_rank_by_total_score_then_total_time_and_close_the_event() -> None:
    alice, bob, carol, dave = (person(name) for name in ("alice", "bob", "carol", "dave"))
    event = an_event(alice, game="pyramid", format=Tournament.Format.PAR_MATCH, deal_count=None)
    for user in (bob, carol, dave):
        tournament_services.join(tournament_id=event.pk, user=user)
    event = started(event, alice)
    assert event.deal_count == 6
    floors = solitaire_events.floors(event)
    assert floors == [-52] * 6  # PY-8: not cleared, minus 28 in the tableau and 24 in the stock
    # Alice and Bob win deal 1 (Bob faster); Carol resigns it after a draw; Dave never plays.
    for user, seconds in ((alice, 300), (bob, 200)):
        _timed(win(deal(user, event, 1), user), seconds)
    resigned = play(deal(carol, event, 1), carol, ["draw", "resign"])
    # Alice is still playing deal 2 when the window closes: it counts as it stands then.
    still = play(deal(alice, event, 2), alice, ["draw"])
    won_score = GameRecord.objects.get(
        solo_match=event.entries.get(user=alice).solo_match, seed=event.deals[0]
    )
    assert (
        won_score.score is not None and won_score.score > 0
    )  # PY-8: cleared in the first pass, 50 minus what is left
    live = solitaire_events.standings(event)
    # Carol's resigned deal 1 counts what it would have as dealt, so she and Dave are level:
    # the same total, no time, one place (by entry time on the page).
    assert [(row.entry.user.username, row.place) for row in live] == [
        ("bob", 1),
        ("alice", 2),
        ("carol", 3),
        ("dave", 3),
    ]
    window_ends(event)
    tournament_services.close_due()
    event.refresh_from_db()
    still.refresh_from_db()
    assert event.status == "finished" and still.is_over and still.outcome["reason"] == "resigned"
    rows = solitaire_events.standings(event)
    by_name = {row.entry.user.username: row for row in rows}
    assert by_name["dave"].total == sum(floors)
    assert by_name["carol"].total == resigned.score + sum(floors[1:])
    assert by_name["alice"].total == won_score.score + still.score + sum(floors[2:])
    assert by_name["bob"].total == won_score.score + sum(floors[1:])
    assert (
        rows[0].entry.user == bob and rows[0].place == 1
    )  # same deal won as Alice, faster, fewer deals left
    places = dict(event.entries.values_list("user__username", "place"))
    assert places == {name: row.place for name, row in by_name.items()}
    results = Notice.objects.filter(kind=Notice.Kind.RESULTS).values_list("user__username", "text")
    assert ("bob", "Tuesday deals is over: you placed 1st of 4") in set(results)
    # Closing again changes nothing.
    assert tournament_services.close_due() == []


def test_equal_totals_and_times_share_a_place() -> None:
    alice, bob = person("alice"), person("bob")
    event = an_event(alice, deal_count=1)
    tournament_services.join(tournament_id=event.pk, user=bob)
    event = started(event, alice)
    window_ends(event)
    tournament_services.close_due()
    rows = solitaire_events.standings(event)
    assert [row.place for row in rows] == [1, 1]
    assert Tournament.objects.get(pk=event.pk).status == "finished"


def test_an_event_nobody_entered_is_cancelled_at_its_close_and_late_entry_ends_with_the_window() -> None:
    alice, bob = person("alice"), person("bob")
    event = an_event(alice, deal_count=1)
    tournament_services.withdraw(tournament_id=event.pk, user=alice)
    Tournament.objects.filter(pk=event.pk).update(starts_at=timezone.now())
    assert tournament_services.start_due() == [event.pk]
    event.refresh_from_db()
    assert event.status == "running"
    Tournament.objects.filter(pk=event.pk).update(closes_at=timezone.now() - dt.timedelta(seconds=1))
    with pytest.raises(tournament_services.TournamentError, match="entries are closed"):
        tournament_services.join(tournament_id=event.pk, user=bob)
    tournament_services.close_due()
    event.refresh_from_db()
    assert event.status == "cancelled"


def test_a_series_of_solitaire_events_schedules_its_editions() -> None:
    staff = person("staff")
    series = Series.objects.create(
        name="Hourly par",
        owner=staff,
        game="pyramid",
        format=Tournament.Format.PAR_MATCH,
        window_minutes=30,
        max_entrants=100,
        repeat=Series.Repeat.HOURLY,
        minute=0,
        opens_minutes=60,
    )
    created = series_service.schedule_editions()
    assert len(created) == 1
    edition = Tournament.objects.get(pk=created[0])
    assert (edition.series, edition.format, edition.deal_count, edition.window_minutes) == (
        series,
        "par_match",
        6,
        30,
    )


def test_the_event_pages_poll_sees_a_finished_deal() -> None:
    """A finished deal changes the standings without touching the tournament row: the page's
    poll must not answer "nothing changed" (204) then."""
    alice, bob = person("alice"), person("bob")
    event = an_event(alice, deal_count=2)
    tournament_services.join(tournament_id=event.pk, user=bob)
    event = started(event, alice)
    watcher = signed_in(bob)
    page = watcher.get(f"/tournaments/{event.pk}/").content.decode()
    token = page.split("?since=", 1)[1].split('"', 1)[0]
    poll = {"HTTP_HX_REQUEST": "true"}
    assert watcher.get(f"/tournaments/{event.pk}/?since={token}", **poll).status_code == 204
    play(deal(alice, event, 1), alice, ["draw"])  # a move alone changes no standing
    assert watcher.get(f"/tournaments/{event.pk}/?since={token}", **poll).status_code == 204
    play(deal(alice, event, 1), alice, ["resign"])
    answer = watcher.get(f"/tournaments/{event.pk}/?since={token}", **poll)
    assert answer.status_code == 200 and "event-row" in answer.content.decode()


def test_an_event_deals_end_panel_leads_on_to_the_next_deal_then_the_standings() -> None:
    """The replay and the download stay sealed while the window is open (LP-6)."""
    alice = person("alice")
    event = started(an_event(alice, deal_count=2), alice)
    client = signed_in(alice)
    run = event.entries.get(user=alice).solo_match_id
    first = play(deal(alice, event, 1), alice, ["resign"])
    panel = client.get(f"/games/{first.pk}/").content.decode()
    assert f'action="/matches/{run}/deals/2/"' in panel and "Next deal (2 of 2)" in panel
    assert f'<a href="/matches/{run}/" data-testid="match-page">Your deals in Tuesday deals</a>' in panel
    assert "/replay/" not in panel and "export.json" not in panel
    last = play(deal(alice, event, 2), alice, ["resign"])
    panel = client.get(f"/games/{last.pk}/").content.decode()
    assert 'data-testid="next-deal"' not in panel
    standings = f'<a class="button" href="/tournaments/{event.pk}/" data-testid="match-results">'
    assert standings + "The event's standings</a>" in panel
    window_ends(event)
    panel = client.get(f"/games/{last.pk}/").content.decode()
    assert f'href="/games/{last.pk}/replay/"' in panel and f'href="/games/{last.pk}/export.json"' in panel
