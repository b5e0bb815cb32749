"""Reads about tournaments: the lists, round names, and one tournament as its page and its
exports show it (``event_view``).

``event`` reads a tournament in a fixed number of queries whatever its size (the entries
with their people, the matches, the seatings, the games with their tables: each once) and
puts the rest together in Python, so a 64-entrant event costs what a 4-entrant one does.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Count, Exists, Max, OuterRef, Prefetch, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.models import User
from games.models import Table
from tournaments import event_state, event_view, pairing
from tournaments.event_view import Event, GameLink, MatchView, SeatLine, StandingRow
from tournaments.formats import standings
from tournaments.formats.elimination import Side
from tournaments.formats.results import TableResult
from tournaments.models import Entry, Match, MatchGame, Seating, Series, Tournament

FINISHED_SHOWN = 20
SIDE_ORDER = {side.value: n for n, side in enumerate(Side)}  # winners, losers, the finals, third place


@dataclass(frozen=True)
class Listed:
    """A tournament as the lists show it: how long until it starts, and its champions."""

    tournament: Tournament
    seconds_left: int
    champions: tuple[Entry, ...]

    @property
    def countdown(self) -> str:
        return starts_in(self.seconds_left)


def starts_in(seconds: int) -> str:
    """'starts in 4 min 10 s', 'starts in 2 h 5 min', 'starts in 3 days 2 h': countdown.js
    writes the same words as it counts down."""
    if seconds <= 0:
        return gettext("starting now")
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    # countdown.js's messages, so that the script's first tick writes the same words.
    words = {"verb": gettext("starts"), "days": days, "hours": hours, "minutes": minutes, "seconds": secs}
    if days:
        return (
            ngettext("%(verb)s in %(days)s day %(hours)s h", "%(verb)s in %(days)s days %(hours)s h", days)
            % words
        )
    if hours:
        return gettext("%(verb)s in %(hours)s h %(minutes)s min") % words
    if minutes:
        return gettext("%(verb)s in %(minutes)s min %(seconds)s s") % words
    return gettext("%(verb)s in %(seconds)s s") % words


def _listed(tournaments: QuerySet[Tournament], now: dt.datetime) -> list[Listed]:
    """In a fixed number of queries: the tournaments with their series, entrant counts and
    champions (place 1, several when shared)."""
    firsts = Prefetch(
        "entries", queryset=Entry.objects.filter(place=1).select_related("user"), to_attr="firsts"
    )
    rows = (
        tournaments.select_related("series").annotate(entrant_count=Count("entries")).prefetch_related(firsts)
    )
    return [
        Listed(t, int((t.starts_at - now).total_seconds()), tuple(getattr(t, "firsts", ()))) for t in rows
    ]


def _lists(tournaments: QuerySet[Tournament], now: dt.datetime) -> dict[str, list[Listed]]:
    return {
        "upcoming": _listed(tournaments.filter(status=Tournament.Status.OPEN).order_by("starts_at"), now),
        "running": _listed(tournaments.filter(status=Tournament.Status.RUNNING).order_by("started_at"), now),
        "finished": _listed(
            tournaments.filter(status=Tournament.Status.FINISHED).order_by("-finished_at")[:FINISHED_SHOWN],
            now,
        ),
    }


@dataclass(frozen=True)
class BotsOnly:
    """A series' finished editions that only bots played (nobody entered: TN-9's demo runs)."""

    series_id: int
    name: str
    count: int

    @property
    def url(self) -> str:
        return reverse("tournament_series", kwargs={"series_id": self.series_id})


def tournament_lists(now: dt.datetime | None = None) -> dict[str, Any]:
    """The three lists of /tournaments/. The finished editions only bots played stay off the
    Finished list (every ten minutes, a demo series would fill it), counted by series instead:
    each series' own page lists them all. One query more, however many there are."""
    people_played = Exists(Entry.objects.filter(tournament=OuterRef("pk"), user__isnull=False))
    bots_only = Tournament.objects.filter(status=Tournament.Status.FINISHED, series__isnull=False).exclude(
        people_played
    )
    counts = bots_only.values_list("series", "series__name").annotate(count=Count("pk"))
    by_series = [BotsOnly(pk, name, count) for pk, name, count in counts.order_by("-count", "series__name")]
    return {
        **_lists(Tournament.objects.exclude(pk__in=bots_only.values("pk")), now or timezone.now()),
        "bots_only": by_series,
        "bots_only_count": sum(item.count for item in by_series),
    }


@dataclass(frozen=True)
class Winner:
    name: str
    user: User | None
    titles: int


def series_page(series: Series, now: dt.datetime | None = None) -> dict[str, Any]:
    """A series' editions, upcoming, playing and finished, and its all-time winners: most
    titles first, then the most recent; bots count together."""
    titles = (
        Entry.objects.filter(
            place=1, tournament__series=series, tournament__status=Tournament.Status.FINISHED
        )
        .values("user")
        .annotate(titles=Count("pk"), last=Max("tournament__finished_at"))
        .order_by("-titles", "-last")
    )
    rows = list(titles)
    people = User.objects.in_bulk([row["user"] for row in rows if row["user"] is not None])
    winners = [
        Winner(
            people[row["user"]].username if row["user"] else gettext("Bots"),
            people.get(row["user"]),
            row["titles"],
        )
        for row in rows
    ]
    return {**_lists(series.editions.all(), now or timezone.now()), "winners": winners}


def round_label(tournament: Tournament, side: str, number: int) -> str:
    """A round's name as players say it: 'Semi-finals', "Losers' round 2", 'Round 3'."""
    if side == Side.LOSERS.value:
        return gettext("Losers' round %(number)d") % {"number": number}
    if side == Side.GRAND_FINAL.value:
        return gettext("Grand final")
    if side == Side.GRAND_FINAL_RESET.value:
        return gettext("Grand final reset")
    if side == Side.THIRD_PLACE.value:
        return gettext("Third place")
    if side == Side.WINNERS.value:
        return _bracket_round(number, tournament.rounds or number, tournament.format)
    return gettext("Round %(number)d") % {"number": number}


def _bracket_round(number: int, rounds: int, format: str) -> str:
    """``pairing.round_name`` in the reader's language (pairing is pure: its names are
    English); a double elimination's winners' side says so."""
    left = rounds - number
    double = format == Tournament.Format.DOUBLE_ELIMINATION
    if left == 0:
        return gettext("Winners' final") if double else gettext("Final")
    if left == 1:
        return gettext("Winners' semi-finals") if double else gettext("Semi-finals")
    if left == 2:
        return gettext("Winners' quarter-finals") if double else gettext("Quarter-finals")
    size = {"size": pairing.places_in_round(number, rounds)}
    return (gettext("Winners' round of %(size)d") if double else gettext("Round of %(size)d")) % size


def match_label(match: Match) -> str:
    """The round of ``match`` (its tournament loaded), for a table or a replay to name."""
    return round_label(match.tournament, match.side, match.round)


def entrants(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.select_related("user").order_by("seed", "joined_at"))


def event(tournament: Tournament) -> Event:
    entries = entrants(tournament)
    by_pk = {entry.pk: entry for entry in entries}
    matches = sorted(tournament.matches.all(), key=lambda m: (SIDE_ORDER.get(m.side, 0), m.round, m.slot))
    seats = event_state.seatings_by_match(tournament)
    for seated in seats.values():
        for seating in seated:
            seating.entry = by_pk[seating.entry_id]  # the one Entry, its user loaded
    games: dict[int, list[MatchGame]] = defaultdict(list)
    for game in (
        MatchGame.objects.filter(match__tournament=tournament).select_related("table").order_by("number")
    ):
        games[game.match_id].append(game)
    views = tuple(
        _match_view(tournament, match, seats.get(match.pk, []), games[match.pk], by_pk) for match in matches
    )
    table: tuple[StandingRow, ...] = ()
    if tournament.by_rounds:
        seeded = [entry for entry in entries if entry.seed is not None]
        table = event_view.standing_rows(seeded, event_state.round_results(matches, seats))
    return Event(tournament, tuple(entries), views, dict(seats), table)


def _match_view(
    tournament: Tournament,
    match: Match,
    seated: list[Seating],
    games: list[MatchGame],
    by_pk: dict[int, Entry],
) -> MatchView:
    points = _table_points(seated) if len(seated) > 2 else {}
    lines = tuple(
        SeatLine(
            entry=seating.entry,
            seat=seating.seat,
            place=seating.place,
            wins=sum(game.winner_id == seating.entry_id for game in games),
            won=match.winner_id == seating.entry_id,
            points=points.get(seating.entry_id),
        )
        for seating in seated
    )
    if points:  # a decided table reads best in its finishing order
        lines = tuple(sorted(lines, key=lambda line: line.place or 0))
    alone = tournament.best_of == 1 and len(games) == 1
    links = tuple(_game_link(game, by_pk, alone=alone, heads_up=len(seated) == 2) for game in games)
    return MatchView(
        match, round_label(tournament, match.side, match.round), lines, links, tournament.best_of
    )


def _game_link(game: MatchGame, by_pk: dict[int, Entry], *, alone: bool, heads_up: bool) -> GameLink:
    """``alone``: the match's one game so far, of a match of one game (no number needed)."""
    table = game.table
    live = table.status == Table.Status.PLAYING
    finished = table.status == Table.Status.FINISHED and table.record_id is not None
    url = reverse("replay", args=[table.record_id]) if finished else table.get_absolute_url()
    winner = by_pk.get(game.winner_id) if game.winner_id is not None else None
    if alone:
        text = gettext("Watch live") if live else gettext("Replay") if finished else gettext("Table")
    else:
        tie = finished and heads_up and winner is None
        number = {"number": game.number}
        if live:
            text = gettext("Game %(number)d live") % number
        elif tie:
            text = gettext("Game %(number)d (tie)") % number
        else:
            text = gettext("Game %(number)d") % number
    return GameLink(game.number, url, live, finished, winner, text)


def _table_points(seated: list[Seating]) -> dict[int, Fraction]:
    if any(seating.place is None for seating in seated):
        return {}
    result = TableResult.from_places({s.entry_id: s.place for s in seated if s.place is not None})
    return standings.table_points(result)
