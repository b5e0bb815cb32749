"""A multiplayer game's rating board a page at a time (RT-3): ``/leaderboards/<game>/`` and
``/api/leaderboards/<game>``.

A page is read along the index ``rating_ranked`` from a key (``games.stats.keysets``): after the
last place of the page above (``after``), before the first place of the page below
(``before``), or from the place a page number names (``number``, whose key is found by
skipping that many entries of the index alone, not the ratings and their players as an
``OFFSET`` on the rows did: 87 ms for the last of 940 pages at a million games). The places are
counted along the index too, so a page's ranks are exact whichever way it was reached.

A rank is the profile's (``accounts.selectors.profile_ratings``): one more than the ranked
ratings above. The rating of a deactivated account keeps its place but is not listed (its
profile is not found), so the numbers skip it.
"""

from __future__ import annotations

from dataclasses import dataclass

from accounts.models import PROVISIONAL_GAMES, Rating
from games import kinds
from games.kinds.spec import TableSpec
from games.stats.keysets import RatingKey
from games.stats.selectors import RatingRow, ranked_ratings, rating_rows
from web.sql_constants import Constant

PAGE_SIZE = 50


@dataclass(frozen=True)
class RatingPage:
    info: TableSpec
    rows: list[RatingRow]
    first_rank: int
    """The rank of the page's first place (listed or not)."""
    ranked: int
    """The board's places: every ranked rating."""
    higher: RatingKey | None
    """The page's first place, before which the page above ends; None on the first page."""
    lower: RatingKey | None
    """The page's last place, after which the page below starts; None on the last page."""
    size: int = PAGE_SIZE

    @property
    def number(self) -> int:
        """The page the first place falls on, counting pages of ``size`` places from the top."""
        return (self.first_rank - 1) // self.size + 1

    @property
    def pages(self) -> int:
        return max(1, -(-self.ranked // self.size))


def _key(rating: Rating) -> RatingKey:
    return RatingKey(rating.mu, rating.pk)


def places_before(game: str, key: RatingKey) -> int:
    """How many ranked ratings the board lists before ``key``: those rated higher, counted from
    the index alone, and those as high with a smaller id (ties: a rare few rows). The ties'
    ids are compared here: with ``id < %s`` in the SQL, a plan could walk the primary key over
    every smaller id instead of the rating index (seen in CI's plan check)."""
    ranked = Rating.objects.filter(game=game, games__gte=Constant(PROVISIONAL_GAMES))
    ties = ranked.filter(mu=key.mu).values_list("pk", flat=True)
    return ranked.filter(mu__gt=key.mu).count() + sum(1 for pk in ties if pk < key.id)


def rating_page(
    game: str,
    *,
    number: int = 1,
    after: RatingKey | None = None,
    before: RatingKey | None = None,
    size: int = PAGE_SIZE,
    wins: bool = True,
) -> RatingPage:
    """The page after ``after``, else before ``before``, else page ``number`` (from 1); a
    page past the board's end has no rows. ``wins``: count each player's first places."""
    ranked = ranked_ratings(game)
    total = ranked.count()
    if after is not None:
        walked = list(ranked.filter(after.lower())[: size + 1])
        first_rank = places_before(game, _key(walked[0])) + 1 if walked else total + 1
        shown, more = walked[:size], len(walked) > size
    elif before is not None:
        shown = list(ranked.filter(before.higher()).order_by("mu", "-pk")[:size])[::-1]
        if len(shown) < size:  # near the top: the first page, whole
            return rating_page(game, size=size, wins=wins)
        first_rank = places_before(game, _key(shown[0])) + 1
        more = first_rank - 1 + len(shown) < total
    else:
        skip = (max(number, 1) - 1) * size
        walked, first_rank = (_from_place(game, skip, size) if skip < total else []), skip + 1
        shown, more = walked[:size], len(walked) > size
    return RatingPage(
        info=kinds.TABLE_BY_SLUG[game],
        rows=rating_rows(game, shown, first_rank, wins=wins),
        first_rank=first_rank,
        ranked=total,
        higher=_key(shown[0]) if shown and first_rank > 1 else None,
        lower=_key(shown[-1]) if more else None,
        size=size,
    )


def _from_place(game: str, skip: int, size: int) -> list[Rating]:
    """``size + 1`` ratings from the one ``skip`` places down. Its rating is read from the
    index alone (skipping ``skip`` entries); the ratings above it are counted the same way, and
    only the ties at its rating are skipped among rows."""
    ranked = ranked_ratings(game)
    if skip == 0:
        return list(ranked[: size + 1])
    found = list(ranked.order_by("-mu").values_list("mu", flat=True)[skip : skip + 1])
    if not found:
        return []
    mu = found[0]
    tied_above = skip - ranked.filter(mu__gt=mu).count()
    return list(ranked.filter(mu__lte=mu)[tied_above : tied_above + size + 1])
