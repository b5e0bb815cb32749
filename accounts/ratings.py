"""Ratings (RULES.md section 7): openskill's Plackett-Luce model, written when a game ends.

RT-1: one rating per person per multiplayer game; a game's places are its result, equal
places a tie. The model is openskill's defaults scaled by 60 (mu 25 -> 1500, sigma 25/3 ->
500, beta and tau alike), so a new player shows 1500 and a change reads like the familiar
Elo-sized steps. RT-4: ``rate_game`` runs inside the transaction that records the end and
writes one ``RatingChange`` per person, and each person's history as the profile shows it
(``accounts.histories``); a game already rated is left alone, so recording an end twice rates
it once.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import timezone
from openskill.models import PlackettLuce

from accounts import histories
from accounts.models import Rating, RatingChange, User

SCALE = 60.0
MODEL = PlackettLuce(mu=25.0 * SCALE, sigma=25.0 / 3 * SCALE, beta=25.0 / 6 * SCALE, tau=25.0 / 300 * SCALE)


def starting_rating(person: User, game: str) -> Rating:
    """The rating a person has in ``game`` before their first rated game (unsaved): the
    model's start, provisional (RT-3)."""
    start = MODEL.rating()
    return Rating(user=person, game=game, mu=start.mu, sigma=start.sigma, games=0)


def _locked_ratings(game: str, people: Sequence[User]) -> dict[int, Rating]:
    """Each person's rating row, created at the model's start if new, locked in user order
    (one order for every caller: two games ending at once cannot deadlock)."""
    start = MODEL.rating()
    Rating.objects.bulk_create(
        [Rating(user=person, game=game, mu=start.mu, sigma=start.sigma) for person in people],
        ignore_conflicts=True,
    )
    rows = Rating.objects.select_for_update().filter(game=game, user__in=people).order_by("user_id")
    return {row.user_id: row for row in rows}


def rate_game(record_id: int, game: str, people: Sequence[User], places: Sequence[int]) -> list[RatingChange]:
    """Rate a finished game: ``people[i]`` finished at ``places[i]`` (1 = first; equal places
    tie). Returns the changes written, none if the game was rated before. Expects the caller's
    transaction (the one that records the game's end)."""
    if len(people) != len(places) or len({person.pk for person in people}) != len(people) or len(people) < 2:
        raise ValueError("a rated game has two or more different people, one place each")
    ratings = _locked_ratings(game, people)
    if RatingChange.objects.filter(record_id=record_id).exists():
        return []
    before = [ratings[person.pk] for person in people]
    teams = [[MODEL.rating(mu=row.mu, sigma=row.sigma)] for row in before]
    after = MODEL.rate(teams, ranks=[float(place) for place in places])
    changes, now = [], timezone.now()
    for person, row, place, (new,) in zip(people, before, places, after, strict=True):
        changes.append(
            RatingChange(
                user=person,
                record_id=record_id,
                game=game,
                place=place,
                mu_before=row.mu,
                sigma_before=row.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                games_after=row.games + 1,
            )
        )
        row.mu, row.sigma, row.games = new.mu, new.sigma, row.games + 1
        row.updated_at = now
    written = RatingChange.objects.bulk_create(changes)
    for row in before:  # read with the change just written: the profile reads it kept
        row.history = histories.read(row.user_id, game)
    Rating.objects.bulk_update(before, ["mu", "sigma", "games", "updated_at", "history"])
    return written
