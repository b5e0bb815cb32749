"""A tournament from its start to its end: the draw, the games dealt, each result, the next
round and the places. The rules of each format are the pure functions of
``tournaments.formats``; this module stores what they decide. Every function expects the
caller to hold the tournament's row lock (``services``), so a round is drawn exactly once.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from accounts import event_notices, notices
from accounts.models import Rating
from games.engine import get_engine
from games.live import tables
from games.models import GameRecord
from tournaments import event_state, pairing, solitaire_events
from tournaments.formats import best_of, elimination, seeding, swiss
from tournaments.formats.results import Round
from tournaments.models import Entry, Match, MatchGame, Seating, Tournament


def draw(tournament: Tournament) -> None:
    """Seed the entrants (TN-2), fill places with bots if asked, and start the first matches;
    fewer than two entrants cancel the tournament. A solitaire event has no draw: it opens its
    window (TN-8)."""
    now = timezone.now()
    notices.settle(about=notices.about_tournament(tournament.pk))  # "starts in 5 minutes": it starts
    if tournament.is_solitaire:
        solitaire_events.open_event(tournament, now)
        return
    entrants = _seeded_entrants(tournament)
    if len(entrants) < pairing.MIN_ENTRANTS:
        tournament.status = Tournament.Status.CANCELLED
        tournament.finished_at = now
        tournament.version += 1
        tournament.save(update_fields=["status", "finished_at", "version"])
        return
    for seed, entry in enumerate(entrants):
        entry.seed = seed
        entry.save()
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    tournament.version += 1
    if tournament.is_elimination:
        layout = event_state.bracket(tournament, len(entrants))
        tournament.rounds = layout.winners_rounds
        tournament.save(update_fields=["rounds", "status", "started_at", "version"])
        Match.objects.bulk_create(
            Match(
                tournament=tournament,
                side=node.side.value,
                node=node.match_id,
                round=node.round,
                slot=node.slot,
            )
            for node in layout.matches
        )
        _advance_bracket(tournament)
        return
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        tournament.rounds = len(event_state.round_robin_schedule(tournament, list(range(len(entrants)))))
    tournament.save(update_fields=["rounds", "status", "started_at", "version"])
    _open_round(tournament, 1)


def rating_of(tournament: Tournament, user: Any) -> float | None:
    """The rating an entrant is seeded and tie-broken by (TN-2, TN-4): theirs in the game."""
    rating = Rating.objects.filter(game=tournament.game, user=user).defer("history").first()
    return None if rating is None else float(rating.value)


def _seeded_entrants(tournament: Tournament) -> list[Entry]:
    """People by rating in the game (any rating, provisional too), the unrated after them, each
    group by entry time (TN-2); then the bots that fill the places left up to the size, if asked."""
    people = list(tournament.entries.filter(user__isnull=False).order_by("joined_at", "pk"))
    ratings = {
        rating.user_id: float(rating.value)
        for rating in Rating.objects.filter(
            game=tournament.game, user__in=[entry.user_id for entry in people]
        ).defer("history")
    }
    for entry in people:
        entry.rating = ratings.get(entry.user_id)  # type: ignore[arg-type]
    order = seeding.seed_order((n, entry.rating, n) for n, entry in enumerate(people))
    entrants = [people[n] for n in order]
    # A series' edition is played by bots alone if nobody entered (a newcomer sees one run);
    # a tournament someone scheduled by hand is not.
    if tournament.fill_with_bots and (people or tournament.series_id is not None):
        entrants += [Entry(tournament=tournament) for _ in range(tournament.max_entrants - len(people))]
    return entrants


# --- games --------------------------------------------------------------------------------


def _config(tournament: Tournament, seats: int) -> dict[str, Any]:
    config = dict(tournament.config)
    if "players" in config:
        config["players"] = seats
    return get_engine(tournament.game).normalize_config(config)


def _deal_game(tournament: Tournament, match: Match, seated: list[Seating]) -> None:
    """The match's next game at a new table, its entrants seated in the match's seat order."""
    table = tables.open_match(
        game=tournament.game,
        config=_config(tournament, len(seated)),
        clock_seconds=tournament.clock_seconds,
        players=[seating.entry.user or seating.entry.name for seating in seated],
        created_by=tournament.created_by,
        rated=tournament.rated,
    )
    MatchGame.objects.create(match=match, number=match.games.count() + 1, table=table)
    event_notices.match_ready(tournament, table, [seating.entry.user for seating in seated])


def record_game(tournament: Tournament, game: MatchGame, record: GameRecord) -> None:
    """A game of ``game.match`` is over: note who won it, then decide the match (best of N for
    two entrants, TN-5, a tie replayed; a table's places as its game gave them) or deal the
    next game."""
    match = game.match
    seated = list(match.seatings.select_related("entry__user").order_by("seat"))
    outcome = record.outcome or {}
    game.recorded_at = timezone.now()
    if isinstance(forfeit := outcome.get("forfeit"), int):
        _count_forfeit(seated[forfeit].entry)
    if len(seated) != 2:
        game.save(update_fields=["recorded_at"])
        places = get_engine(tournament.game).places(outcome)
        _decide(tournament, match, seated, [places[seating.seat] for seating in seated])
        return
    side = outcome.get("winner")
    game.winner = seated[side].entry if side in (0, 1) else None
    game.save(update_fields=["recorded_at", "winner"])
    side_of = {seating.entry_id: seating.seat for seating in seated}
    games = (
        match.games.filter(recorded_at__isnull=False).order_by("number").values_list("winner_id", flat=True)
    )
    score = best_of.score_match(tournament.best_of, [side_of.get(winner) for winner in games])
    if score.winner is None:
        _deal_game(tournament, match, seated)
        return
    _decide(tournament, match, seated, [1 if seating.seat == score.winner else 2 for seating in seated])


FORFEITS_TO_WITHDRAW = 2
"""TN-6: an entrant's second forfeit in a tournament takes them out of its later rounds."""


def _count_forfeit(entry: Entry) -> None:
    entry.forfeits += 1
    if entry.forfeits >= FORFEITS_TO_WITHDRAW and entry.withdrawn_at is None:
        entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["forfeits", "withdrawn_at"])


def _decide(tournament: Tournament, match: Match, seated: list[Seating], places: list[int]) -> None:
    _record_places(match, seated, places, timezone.now())
    tournament.version += 1
    tournament.save(update_fields=["version"])
    if tournament.is_elimination:
        _advance_bracket(tournament)
    else:
        _after_match(tournament)


# --- elimination ------------------------------------------------------------------------


def _advance_bracket(tournament: Tournament) -> None:
    """Seat and deal every match the results so far make ready, settle byes (TN-2: nobody
    loses to one) and walkovers (an entrant out by forfeits, TN-6), give each knocked-out
    entrant their place, and end at the champion."""
    entrants = event_state.seeded(tournament)
    layout = event_state.bracket(tournament, len(entrants))
    while True:
        matches = {match.node: match for match in tournament.matches.all()}
        seats = event_state.seatings_by_match(tournament)
        results = event_state.bracket_results(matches.values(), seats)
        state = elimination.resolve(layout, results)
        if not _settle_ready(tournament, state, matches, seats, entrants):
            break
    for seed, place in elimination.places(layout, results).items():
        entry = entrants[seed]
        if entry.place != place:
            entry.place = place
            entry.save(update_fields=["place"])
    if state.finished:
        _finish(tournament)


def _settle_ready(
    tournament: Tournament,
    state: elimination.BracketState,
    matches: dict[int | None, Match],
    seats: dict[int, list[Seating]],
    entrants: dict[int, Entry],
) -> bool:
    """Seat what the bracket now holds; returns whether a walkover decided a match, which
    changes what the bracket holds next."""
    now = timezone.now()
    walked_over = False
    for found in state.matches:
        match = matches[found.match_id]
        if match.decided or seats.get(match.pk):
            continue
        if found.status is elimination.Status.READY:
            seeds = [seat for seat in found.seats if isinstance(seat, int)]
            seated = _seat(match, {side: entrants[seed] for side, seed in enumerate(seeds)})
            gone = [seating.entry.withdrawn_at is not None for seating in seated]
            if any(gone):
                # The one still in goes through (both out: the better seed, so the bracket ends).
                winner = gone.index(False) if not all(gone) else 0
                _record_places(match, seated, [1 if side == winner else 2 for side in range(2)], now)
                walked_over = True
            else:
                _deal_game(tournament, match, seated)
        elif found.status is elimination.Status.BYE:
            side, seed = next((side, seat) for side, seat in enumerate(found.seats) if isinstance(seat, int))
            match.bye = True
            _record_places(match, _seat(match, {side: entrants[seed]}), [1], now)
            event_notices.bye(tournament, match.round, match.pk, entrants[seed].user)
        elif found.status in (elimination.Status.EMPTY, elimination.Status.NOT_NEEDED):
            match.decided_at = now
            match.save(update_fields=["decided_at"])
    return walked_over


def _record_places(match: Match, seated: list[Seating], places: list[int], now: Any) -> None:
    for seating, place in zip(seated, places, strict=True):
        seating.place = place
        seating.save(update_fields=["place"])
    firsts = [seating.entry for seating, place in zip(seated, places, strict=True) if place == 1]
    match.winner = firsts[0] if len(firsts) == 1 else None
    match.decided_at = now
    match.save(update_fields=["bye", "winner", "decided_at"])


def _seat(match: Match, by_seat: dict[int, Entry]) -> list[Seating]:
    return Seating.objects.bulk_create(
        Seating(match=match, entry=entry, seat=seat) for seat, entry in sorted(by_seat.items())
    )


# --- round robin and Swiss --------------------------------------------------------------


def _open_round(tournament: Tournament, number: int) -> None:
    """Draw round ``number`` (TN-3, TN-4) among the entrants still in (TN-6, TN-7), seat it,
    give its byes, and deal its games."""
    if tournament.current_round >= number:
        return  # drawn already
    entrants = event_state.seeded(tournament)
    active = {seed for seed, entry in entrants.items() if entry.withdrawn_at is None}
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        planned = event_state.round_robin_schedule(tournament, sorted(entrants))[number - 1]
        draw = _without_withdrawn(planned, active)
    else:
        matches = list(tournament.matches.all())
        results = event_state.round_results(matches, event_state.seatings_by_match(tournament))
        draw = swiss.next_round(sorted(entrants), active, results, table_size=tournament.table_size)
    tournament.current_round = number
    tournament.version += 1
    tournament.save(update_fields=["current_round", "version"])
    notices.settle(about=notices.about_tournament(tournament.pk))  # the round before is over
    event_notices.pairings_out(
        tournament, number, [entrants[seed].user for seeds in (*draw.tables, draw.byes) for seed in seeds]
    )
    now = timezone.now()
    for slot, table in enumerate(draw.tables):
        match = Match.objects.create(tournament=tournament, round=number, slot=slot)
        _deal_game(tournament, match, _seat(match, {seat: entrants[seed] for seat, seed in enumerate(table)}))
    for slot, seed in enumerate(draw.byes, start=len(draw.tables)):
        match = Match.objects.create(
            tournament=tournament, round=number, slot=slot, bye=True, winner=entrants[seed], decided_at=now
        )
        Seating.objects.create(match=match, entry=entrants[seed], seat=0, place=1)
        event_notices.bye(tournament, number, match.pk, entrants[seed].user)
    if not draw.tables:
        _after_match(tournament)


def _without_withdrawn(planned: Round, active: set[int]) -> Round:
    """A round robin's planned round without those who withdrew: a table left with one
    entrant gives them a bye, an empty one nothing."""
    tables = [tuple(seed for seed in table if seed in active) for table in planned.tables]
    byes = [
        *(seed for seed in planned.byes if seed in active),
        *(table[0] for table in tables if len(table) == 1),
    ]
    return Round(tuple(table for table in tables if len(table) > 1), tuple(byes))


def _after_match(tournament: Tournament) -> None:
    """Once every match of the round is decided: the next round, or the end."""
    if tournament.matches.filter(round=tournament.current_round, decided_at__isnull=True).exists():
        return
    still_in = tournament.entries.filter(seed__isnull=False, withdrawn_at__isnull=True).count()
    if tournament.current_round >= (tournament.rounds or 0) or still_in < pairing.MIN_ENTRANTS:
        _place_by_standings(tournament)
        _finish(tournament)
        return
    _open_round(tournament, tournament.current_round + 1)


def _place_by_standings(tournament: Tournament) -> None:
    entrants = event_state.seeded(tournament)
    matches = list(tournament.matches.all())
    table = event_state.event_standings(
        tournament, entrants, matches, event_state.seatings_by_match(tournament)
    )
    for row in table:
        entry = entrants[row.entrant]
        entry.place = row.rank
        entry.save(update_fields=["place"])


def _finish(tournament: Tournament) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.version += 1
    tournament.save(update_fields=["status", "finished_at", "version"])
    notices.settle(about=notices.about_tournament(tournament.pk))
