"""Tournament pages: scheduling, entering, the bracket with every match's replay, forged posts."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Table
from tests.tournaments.support import person, play_out
from tests.tournaments.test_services import schedule, with_players
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


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
    assert b"Friday knock-out" in Client().get(reverse("tournaments")).content


@pytest.mark.parametrize(
    "forged",
    [{"game": "pyramid"}, {"starts_in": "-5"}, {"max_entrants": "1000"}, {"triad_ante": "500"}, {"name": ""}],
)
def test_a_forged_schedule_form_is_refused_and_creates_nothing(forged: dict[str, str]) -> None:
    response = logged_in(person("alice")).post(reverse("tournament_create"), {**FORM, **forged})
    assert response.status_code == 400
    assert not Tournament.objects.exists()


def test_entering_withdrawing_and_refusals_on_the_page() -> None:
    alice, bob = person("alice"), person("bob")
    tournament = schedule(alice)
    page = reverse("tournament", args=[tournament.pk])
    assert b"Enter the tournament" in logged_in(bob).get(page).content
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


def test_the_bracket_links_every_played_match_to_its_replay_and_back() -> None:
    tournament, players = with_players(4)
    services.start_now(tournament_id=tournament.pk, user=players[0])
    first = tournament.matches.filter(round=1).select_related("table").first()
    record = play_out(first.table)
    services.record_match(game_id=record.pk)
    live = tournament.matches.filter(round=1, table__status=Table.Status.PLAYING).get()

    html = Client().get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert html.count('data-testid="bracket-match"') == 3
    assert f'href="/games/{record.pk}/replay/"' in html
    assert f'href="/tables/{live.table_id}/"' in html and "Watch live" in html
    assert "Semi-finals" in html and "Final" in html

    while live := tournament.matches.filter(table__status=Table.Status.PLAYING).first():
        services.record_match(game_id=play_out(live.table).pk)
    html = Client().get(reverse("tournament", args=[tournament.pk])).content.decode()
    replays = re.findall(r'href="/games/(\d+)/replay/"', html)
    played = {str(pk) for pk in tournament.matches.values_list("table__record_id", flat=True)}
    assert set(replays) == played and len(played) == 3  # in the bracket and the list of replays
    assert html.count('data-testid="tournament-replay"') == 3
    assert html.count('data-testid="standing"') == 4 and "3rd-4th" in html
    assert 'hx-trigger="every 5s"' not in html  # a finished tournament stops polling
    for match in tournament.matches.all():
        replay = Client().get(reverse("replay", args=[match.table.record_id])).content.decode()
        round_name = "Final" if match.round == 2 else "Semi-finals"
        assert f'data-testid="replay-tournament">Saturday cup</a>, {round_name}' in replay
    winner = tournament.entries.get(place=1).user
    profile = Client().get(winner.get_absolute_url()).content.decode()
    assert "Triad (tournament)" in profile


def test_an_htmx_poll_gets_the_body_alone_and_the_table_names_its_tournament() -> None:
    tournament, players = with_players(2)
    services.start_now(tournament_id=tournament.pk, user=players[0])
    page = reverse("tournament", args=[tournament.pk])
    tournament.refresh_from_db()
    body = Client().get(page, {"since": tournament.version - 1}, HTTP_HX_REQUEST="true").content.decode()
    assert body.lstrip().startswith('<div id="tournament-body"') and "<html" not in body
    assert f'hx-get="{page}?since={tournament.version}" hx-trigger="every 5s"' in body
    unchanged = Client().get(page, {"since": tournament.version}, HTTP_HX_REQUEST="true")
    assert unchanged.status_code == 204 and not unchanged.content  # a poll that finds nothing new
    match = tournament.matches.get()
    mine = logged_in(players[1]).get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert f'href="/tables/{match.table_id}/" data-testid="my-match"' in mine
    table_page = Client().get(reverse("table", args=[match.table_id])).content.decode()
    assert "Saturday cup</a>, Final" in table_page
    lobby = Client().get(reverse("tables")).content.decode()
    assert "Saturday cup" in lobby
    record = play_out(match.table)
    over = logged_in(players[0]).get(reverse("table", args=[match.table_id])).content.decode()
    assert f'href="/games/{record.pk}/replay/"' in over
    assert f'href="{tournament.get_absolute_url()}" data-testid="back-to-tournament"' in over


def test_a_match_in_play_replays_only_as_spectators_see_it_even_to_its_players() -> None:
    from games import replays
    from games.engine import get_engine

    tournament, (ann, ben) = with_players(2)
    services.start_now(tournament_id=tournament.pk, user=ann)
    match = tournament.matches.select_related("table__record").get()
    record = match.table.record
    assert "data-card" not in Client().get(tournament.get_absolute_url()).content.decode()
    source = replays.from_record(record)
    spectator = get_engine("triad").view(replays.states(source)[0], None)
    public = sorted(c for seat in spectator.seats for c in (seat.cards or ()))
    for viewer in (Client(), logged_in(ann), logged_in(ben)):
        for view in ("", "0", "1"):
            body = viewer.get(f"/games/{record.pk}/replay/?step=0&view={view}").content.decode()
            assert sorted(re.findall(r'data-card="([^"]+)"', body)) == public
            assert str(record.seed) not in body
        assert viewer.get(f"/games/{record.pk}/export.json").status_code == 403
