"""Tournament pages: scheduling, entering, the bracket with every game's replay, the poll,
forged posts. The helpers here (a tournament of any format played to its end through the
real services) serve the other test_pages_* files and test_export."""

from __future__ import annotations

import datetime as dt
import re
from html import unescape
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Table
from tests.tournaments.support import person, play_out
from tournaments import services
from tournaments.models import MatchGame, Tournament

pytestmark = pytest.mark.django_db
SHORT_TRIAD = {"hands": 1}


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def schedule(creator: User, **overrides: Any) -> Tournament:
    fields: dict[str, Any] = {
        "name": "Saturday cup",
        "game": "triad",
        "config": SHORT_TRIAD,
        "clock_seconds": 30,
        "max_entrants": 8,
        "starts_at": timezone.now() + dt.timedelta(minutes=10),
    }
    fields.update(overrides)
    return services.create_tournament(creator=creator, **fields)


def with_players(count: int, *, prefix: str = "player", **overrides: Any) -> tuple[Tournament, list[User]]:
    players = [person(f"{prefix}{n}") for n in range(count)]
    tournament = schedule(players[0], **overrides)
    for player in players[1:]:
        services.join(tournament_id=tournament.pk, user=player)
    return tournament, players


def playing(tournament: Tournament) -> MatchGame | None:
    return (
        MatchGame.objects.filter(match__tournament=tournament, table__status=Table.Status.PLAYING)
        .select_related("table")
        .order_by("pk")
        .first()
    )


def play_one(tournament: Tournament) -> MatchGame | None:
    """Play the first dealt game to its end and record it, as the task would."""
    game = playing(tournament)
    if game is not None:
        services.record_match(game_id=play_out(game.table).pk)
    return game


def played_to_the_end(people: int, *, prefix: str = "player", **overrides: Any) -> Tournament:
    """A tournament of ``people`` people (bots fill the rest, if asked), started and played
    through every game to its end."""
    tournament, players = with_players(people, prefix=prefix, **overrides)
    services.start_now(tournament_id=tournament.pk, user=players[0])
    while play_one(tournament) is not None:
        pass
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


class _ByTestId(HTMLParser):
    """The text of every element carrying ``data-testid=<testid>``, nested ones included."""

    VOID = frozenset({"br", "img", "input", "link", "meta", "hr", "source", "wbr"})

    def __init__(self, testid: str) -> None:
        super().__init__()
        self.testid = testid
        self.open: list[list[Any]] = []  # [depth, parts] of each element being read
        self.depth = 0
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        self.depth += 1
        if ("data-testid", self.testid) in attrs:
            self.open.append([self.depth, []])

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        if self.open and self.open[-1][0] == self.depth:
            _, parts = self.open.pop()
            self.found.append(" ".join(" ".join(parts).split()))
        self.depth -= 1

    def handle_data(self, data: str) -> None:
        for _, parts in self.open:
            parts.append(data)


def texts(html: str, testid: str) -> list[str]:
    """The whitespace-normalised text of each element with ``data-testid=testid``."""
    parser = _ByTestId(testid)
    parser.feed(html)
    return parser.found


def page(tournament: Tournament, client: Client | None = None) -> str:
    return (client or Client()).get(tournament.get_absolute_url()).content.decode()


def replay_ids(html: str) -> set[int]:
    return {int(pk) for pk in re.findall(r'href="/games/(\d+)/replay/"', html)}


def record_ids(tournament: Tournament) -> set[int]:
    return set(
        MatchGame.objects.filter(match__tournament=tournament).values_list("table__record_id", flat=True)
    )


FORM = {
    "name": "Friday knock-out",
    "game": "triad",
    "max_entrants": "8",
    "starts_in": "15",
    "clock_seconds": "30",
    "triad_stack": "100",
    "triad_ante": "1",
    "triad_hands": "3",
    "triad_cards": "6",
    "blocks_scoring": "basic",
    "blocks_target": "7",
    "format": "single_elimination",
    "rounds": "5",  # a Swiss event's; the other formats ignore it
}


def test_anyone_sees_the_list_and_people_who_are_logged_in_schedule() -> None:
    alice = person("alice")
    response = Client().get(reverse("tournaments"))
    assert response.status_code == 200 and b"Log in</a> or" in response.content
    response = Client().post(reverse("tournament_create"), FORM)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = logged_in(alice).post(reverse("tournament_create"), FORM)
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == tournament.get_absolute_url()
    assert tournament.config["hands"] == 3 and tournament.config["players"] == 2
    assert (tournament.format, tournament.best_of, tournament.table_size) == ("single_elimination", 1, 2)
    assert b"Friday knock-out" in Client().get(reverse("tournaments")).content


@pytest.mark.parametrize(
    "forged",
    [
        {"game": "pyramid"},
        {"starts_in": "-5"},
        {"max_entrants": "1000"},
        {"triad_ante": "500"},
        {"name": ""},
        {"format": "knockout"},
        {"format": "swiss", "rounds": "16"},
        {"best_of": "2"},
        {"table_size": "7", "format": "round_robin"},
    ],
)
def test_a_forged_schedule_form_is_refused_and_creates_nothing(forged: dict[str, str]) -> None:
    response = logged_in(person("alice")).post(reverse("tournament_create"), {**FORM, **forged})
    assert response.status_code == 400
    assert not Tournament.objects.exists()


def test_entering_withdrawing_and_refusals_on_the_page() -> None:
    alice, bob = person("alice"), person("bob")
    tournament = schedule(alice)
    url = reverse("tournament", args=[tournament.pk])
    assert b"Enter the tournament" in logged_in(bob).get(url).content
    logged_in(bob).post(reverse("tournament_join", args=[tournament.pk]))
    assert tournament.entries.filter(user=bob).exists()
    response = logged_in(bob).post(reverse("tournament_join", args=[tournament.pk]), follow=True)
    assert b"You are already entered." in response.content
    response = logged_in(bob).post(reverse("tournament_start", args=[tournament.pk]), follow=True)
    assert b"Only the tournament&#x27;s creator can start it early." in response.content
    logged_in(bob).post(reverse("tournament_withdraw", args=[tournament.pk]))
    assert not tournament.entries.filter(user=bob).exists()
    assert Client().post(reverse("tournament_join", args=[tournament.pk])).status_code == 302  # to log in
    assert logged_in(bob).get(reverse("tournament_join", args=[tournament.pk])).status_code == 405
    assert Client().get(reverse("tournament", args=[10**6])).status_code == 404


def test_the_bracket_links_every_played_game_to_its_replay_and_back() -> None:
    tournament, players = with_players(4)
    services.start_now(tournament_id=tournament.pk, user=players[0])
    first = play_one(tournament)
    assert first is not None
    first.table.refresh_from_db()
    live = playing(tournament)
    assert live is not None

    html = page(tournament)
    assert len(texts(html, "match")) == 3
    assert replay_ids(html) == {first.table.record_id}
    assert f'href="/tables/{live.table_id}/"' in html and "Watch live" in html
    assert [column.split()[0] for column in texts(html, "bracket")] == ["Semi-finals"]
    assert "Final" in html

    while play_one(tournament) is not None:
        pass
    html = page(tournament)
    assert replay_ids(html) == record_ids(tournament) and len(record_ids(tournament)) == 3
    places = texts(html, "place")
    assert len(places) == 4 and [p.split()[0] for p in places] == ["1st", "2nd", "3rd-4th", "3rd-4th"]
    assert 'data-hx-trigger="every 5s"' not in html  # a finished tournament stops polling
    champion = tournament.entries.get(place=1)
    assert texts(html, "tournament-winner") == [f"Champion: {champion.name}"]
    for game in MatchGame.objects.filter(match__tournament=tournament).select_related("match", "table"):
        replay = Client().get(reverse("replay", args=[game.table.record_id])).content.decode()
        round_name = "Final" if game.match.round == 2 else "Semi-finals"
        assert f'data-testid="replay-tournament">Saturday cup</a>, {round_name}' in replay
    assert champion.user is not None
    profile = Client().get(champion.user.get_absolute_url()).content.decode()
    assert "Triad (tournament)" in profile


def test_an_htmx_poll_gets_the_body_alone_or_204_and_the_table_names_its_tournament() -> None:
    tournament, players = with_players(2)
    services.start_now(tournament_id=tournament.pk, user=players[0])
    url = reverse("tournament", args=[tournament.pk])
    tournament.refresh_from_db()
    body = Client().get(url, {"since": tournament.version - 1}, HTTP_HX_REQUEST="true").content.decode()
    assert body.lstrip().startswith('<div id="tournament-body"') and "<html" not in body
    assert f'data-hx-get="{url}?since={tournament.version}" data-hx-trigger="every 5s"' in body
    unchanged = Client().get(url, {"since": tournament.version}, HTTP_HX_REQUEST="true")
    assert unchanged.status_code == 204 and not unchanged.content  # a poll that finds nothing new
    game = playing(tournament)
    assert game is not None
    mine = page(tournament, logged_in(players[1]))
    assert f'href="/tables/{game.table_id}/" data-testid="my-match"' in mine
    assert 'data-testid="my-match"' not in page(tournament)  # a spectator has no match
    table_page = Client().get(reverse("table", args=[game.table_id])).content.decode()
    assert "Saturday cup</a>, Final" in table_page
    lobby = Client().get(reverse("tables")).content.decode()
    assert "Saturday cup" in lobby
    record = play_out(game.table)
    over = logged_in(players[0]).get(reverse("table", args=[game.table_id])).content.decode()
    assert f'href="/games/{record.pk}/replay/"' in over
    assert f'href="{tournament.get_absolute_url()}" data-testid="back-to-tournament"' in over
    services.record_match(game_id=record.pk)
    changed = Client().get(url, {"since": tournament.version}, HTTP_HX_REQUEST="true")
    assert changed.status_code == 200 and 'data-testid="tournament-winner"' in changed.content.decode()


def test_a_match_in_play_replays_only_as_spectators_see_it_even_to_its_players() -> None:
    from games.engine import get_engine
    from games.replays import replays

    tournament, (ann, ben) = with_players(2)
    services.start_now(tournament_id=tournament.pk, user=ann)
    game = playing(tournament)
    assert game is not None
    record = game.table.record
    assert record is not None
    assert "data-card" not in page(tournament)
    source = replays.from_record(record)
    spectator = get_engine("triad").view(replays.states(source)[0], None)
    public = sorted(c for seat in spectator.seats for c in (seat.cards or ()))
    for viewer in (Client(), logged_in(ann), logged_in(ben)):
        for view in ("", "0", "1"):
            body = viewer.get(f"/games/{record.pk}/replay/?step=0&view={view}").content.decode()
            assert sorted(re.findall(r'data-card="([^"]+)"', body)) == public
            assert str(record.seed) not in body
        assert viewer.get(f"/games/{record.pk}/export.json").status_code == 403


def test_the_form_offers_each_format_its_options_and_passes_them_on() -> None:
    alice = person("alice")
    html = logged_in(alice).get(reverse("tournaments")).content.decode()
    assert "js/tournament_form.js" in html and "css/tournaments.css" in html
    for value in ("single_elimination", "double_elimination", "round_robin", "swiss"):
        assert f'<option value="{value}"' in html
    assert 'data-formats="swiss"' in html and 'data-formats="single_elimination"' in html
    assert 'data-formats="round_robin swiss" data-games="triad tauron"' in html  # not Pyramid Poker
    swiss = {**FORM, "format": "swiss", "rounds": "4", "table_size": "4", "best_of": "1"}
    assert logged_in(alice).post(reverse("tournament_create"), swiss).status_code == 302
    tournament = Tournament.objects.get()
    assert (tournament.format, tournament.rounds, tournament.table_size) == ("swiss", 4, 4)
    # The script disables the options a format does not take: they are not sent at all.
    knockout = {**FORM, "format": "double_elimination", "best_of": "3", "name": "Double"}
    assert logged_in(alice).post(reverse("tournament_create"), knockout).status_code == 302
    tournament = Tournament.objects.get(name="Double")
    assert (tournament.format, tournament.best_of, tournament.table_size) == ("double_elimination", 3, 2)
    assert tournament.rounds is None and not tournament.third_place


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"format": "double_elimination", "table_size": "4"},
            "Only round robin and Swiss rounds are played at tables of more than two.",
        ),
        ({"format": "swiss", "rounds": ""}, "A Swiss event has between 1 and 15 rounds."),
        ({"format": "swiss", "third_place": "on"}, "A third-place match belongs to single elimination."),
        (
            {"format": "round_robin", "table_size": "4", "best_of": "3"},
            "A match at a table of more than two is one game (best of 1).",
        ),
        (
            {"format": "swiss", "rounds": "3", "table_size": "3", "game": "blocks"},
            "This game seats 2 to 2 at a table, not 3.",
        ),
    ],
)
def test_the_form_shows_why_a_format_option_does_not_fit(options: dict[str, str], message: str) -> None:
    response = logged_in(person("alice")).post(reverse("tournament_create"), {**FORM, **options})
    assert response.status_code == 400 and not Tournament.objects.exists()
    html = response.content.decode()
    errors = html.split('<div class="form-errors" role="alert">', 1)[1].split("</div>", 1)[0]
    assert message in unescape(errors)
