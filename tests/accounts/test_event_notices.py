"""What a tournament tells its people: a match ready when each game is dealt, a bye, a
round's pairings (not bots: they have no one to tell), and the reminder before the start,
in notices and in the e-mail outbox once per event and person."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from accounts.event_notices import remind_entrants
from accounts.models import Notice, User
from accounts.tasks import remind_tournament_entrants
from tests.tournaments.support import person, play_out
from tests.tournaments.test_services import playing, schedule
from tournaments import services
from tournaments.models import MatchGame, Tournament

pytestmark = pytest.mark.django_db


def entered(people: int, **options: Any) -> tuple[Tournament, list[User]]:
    players = [person(f"p{n}") for n in range(people)]
    tournament = schedule(players[0], **options)
    for player in players[1:]:
        services.join(tournament_id=tournament.pk, user=player)
    return tournament, players


def started(people: int, **options: Any) -> tuple[Tournament, list[User]]:
    tournament, players = entered(people, **options)
    services.start_now(tournament_id=tournament.pk, user=players[0])
    tournament.refresh_from_db()
    return tournament, players


def kinds_of(user: User) -> list[str]:
    return list(Notice.objects.filter(user=user).order_by("pk").values_list("kind", flat=True))


def test_each_person_seated_hears_their_match_is_ready_with_the_table_and_bots_cost_nothing() -> None:
    tournament, _ = started(2, fill_with_bots=True, max_entrants=4)
    tables = {game.table_id for game in MatchGame.objects.filter(match__tournament=tournament)}
    assert len(tables) == 2
    ready = Notice.objects.filter(kind=Notice.Kind.MATCH_READY)
    assert ready.count() == 2  # the two people; the two bots have nobody to tell
    for notice in ready:
        assert notice.text == "Your match in Saturday cup is ready: go to your table"
        assert notice.url in {f"/tables/{pk}/" for pk in tables}
        seat = MatchGame.objects.get(table_id=int(notice.url.split("/")[2])).table.seats.get(user=notice.user)
        assert seat.user == notice.user


def test_every_game_of_a_best_of_three_is_announced() -> None:
    tournament, (ann, ben) = started(2, best_of=3)
    game = playing(tournament)
    assert game is not None
    services.record_match(game_id=play_out(game.table).pk)
    assert Notice.objects.filter(user=ann, kind=Notice.Kind.MATCH_READY).count() == 2
    assert Notice.objects.filter(user=ben, kind=Notice.Kind.MATCH_READY).count() == 2


def test_an_elimination_bye_is_told_to_its_entrant() -> None:
    tournament, players = started(3)  # four places, three people: the first seed has a bye
    bye = tournament.matches.get(bye=True)
    (lucky,) = [seating.entry.user for seating in bye.seatings.all()]
    assert lucky is not None
    notice = Notice.objects.get(user=lucky, kind=Notice.Kind.BYE)
    assert notice.text == "You were given a bye in round 1 of Saturday cup"
    assert notice.url == tournament.get_absolute_url()
    assert sorted(kinds_of(p) for p in players if p != lucky) == [["match_ready"], ["match_ready"]]


def test_a_round_robin_round_drawn_tells_everyone_in_it() -> None:
    tournament, _ = started(3, format=Tournament.Format.ROUND_ROBIN)
    pairings = Notice.objects.filter(kind=Notice.Kind.PAIRINGS)
    assert sorted(n.user.username for n in pairings) == ["p0", "p1", "p2"]
    assert {n.text for n in pairings} == {"Round 1 pairings are out in Saturday cup"}
    assert Notice.objects.filter(kind=Notice.Kind.BYE).count() == 1  # three people: one sits out
    assert Notice.objects.filter(kind=Notice.Kind.MATCH_READY).count() == 2
    game = playing(tournament)
    assert game is not None
    services.record_match(game_id=play_out(game.table).pk)  # the round's one match: round 2 drawn
    assert Notice.objects.filter(kind=Notice.Kind.PAIRINGS, text__startswith="Round 2 ").count() == 3


def test_a_swiss_round_two_is_announced_once() -> None:
    tournament, players = started(2, format=Tournament.Format.SWISS, rounds=2)
    game = playing(tournament)
    assert game is not None
    record = play_out(game.table)
    services.record_match(game_id=record.pk)
    services.record_match(game_id=record.pk)  # delivered twice
    for player in players:
        texts = list(
            Notice.objects.filter(user=player, kind=Notice.Kind.PAIRINGS).values_list("text", flat=True)
        )
        assert texts == [
            "Round 1 pairings are out in Saturday cup",
            "Round 2 pairings are out in Saturday cup",
        ]


def test_the_reminder_mails_once_per_event_and_person_and_not_those_who_said_no(
    django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.SITE_URL = "https://capstone.example"
    soon, (ann, ben, cat) = entered(3, minutes=4)
    cat.reminder_emails = False
    cat.save()
    other = schedule(ben, minutes=20, name="Later cup")  # not yet: more than 5 minutes away
    due_but_started = schedule(ann, minutes=3, name="Early cup")
    services.join(tournament_id=due_but_started.pk, user=ben)
    services.start_now(tournament_id=due_but_started.pk, user=ann)
    with django_capture_on_commit_callbacks(execute=True):
        assert remind_tournament_entrants() == 3
        assert remind_tournament_entrants() == 0  # a second beat
        assert remind_entrants(now=timezone.now() + dt.timedelta(seconds=30)) == 0
    reminders = Notice.objects.filter(kind=Notice.Kind.STARTS_SOON)
    assert sorted(n.user.username for n in reminders) == ["p0", "p1", "p2"]
    assert {n.text for n in reminders} == {"Saturday cup starts in 4 minutes"}
    assert {n.url for n in reminders} == {soon.get_absolute_url()}
    assert sorted(message.to[0] for message in mail.outbox) == ["p0@example.com", "p1@example.com"]
    assert all(message.subject == "Saturday cup starts in 4 minutes" for message in mail.outbox)
    assert "untick the reminder" in mail.outbox[0].body
    assert "The tournament: https://capstone.example/tournaments/" in mail.outbox[0].body
    assert not Notice.objects.filter(url=other.get_absolute_url()).exists()


def unread(user: User) -> list[str]:
    return list(
        Notice.objects.filter(user=user, read_at__isnull=True).order_by("pk").values_list("kind", flat=True)
    )


def test_a_match_ready_notice_is_read_once_its_game_is_over() -> None:
    """Issue 41: "Your match is ready: go to your table" stayed unread after the match was played."""
    tournament, (ann, ben) = started(2, best_of=3)
    game = playing(tournament)
    assert game is not None
    assert unread(ann) == unread(ben) == ["match_ready"]
    record = play_out(game.table)
    assert unread(ann) == unread(ben) == []
    services.record_match(game_id=record.pk)  # the second game of the three: a new table, a new notice
    second = playing(tournament)
    assert second is not None and second.table_id != game.table_id
    assert unread(ann) == unread(ben) == ["match_ready"]
    assert Notice.objects.get(user=ann, read_at__isnull=True).url == f"/tables/{second.table_id}/"


def test_a_tournaments_notices_are_read_as_its_next_stage_begins_and_at_its_end() -> None:
    tournament, players = entered(3, format=Tournament.Format.ROUND_ROBIN)
    with_reminders = timezone.now() + dt.timedelta(minutes=10) - dt.timedelta(seconds=30)
    assert remind_entrants(now=with_reminders) == 3
    assert unread(players[0]) == ["starts_soon"]
    services.start_now(tournament_id=tournament.pk, user=players[0])  # it starts: round 1 drawn
    assert all("starts_soon" not in unread(player) for player in players)
    assert sorted(kind for player in players for kind in unread(player) if kind != "match_ready") == [
        "bye",
        "pairings",
        "pairings",
        "pairings",
    ]
    for _ in range(3):  # each round: its one match played, the next round drawn
        game = playing(tournament)
        assert game is not None
        services.record_match(game_id=play_out(game.table).pk)
        pairings = [kind for player in players for kind in unread(player) if kind == "pairings"]
        tournament.refresh_from_db()
        assert len(pairings) == (3 if tournament.status == Tournament.Status.RUNNING else 0)
    assert tournament.status == Tournament.Status.FINISHED
    assert all(unread(player) == [] for player in players)
