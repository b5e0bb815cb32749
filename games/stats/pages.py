"""The boards' pages: the leaderboards overview (today's daily boards, the best of the week
and ever, the rating boards' tops, streaks and champions) and each game's rating board."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from accounts.models import PROVISIONAL_GAMES
from games import kinds
from games.stats import selectors
from games.stats.keysets import RatingKey
from games.stats.rating_boards import rating_page
from web.http import HtmxHttpRequest
from web.numbers import whole_number

OVERVIEW_ROWS = 10
"""The leaderboards page shows the top ten of each board; a board's own page shows it all."""


def rating_board_url(game: str, page: str | int = 1) -> str:
    url = reverse("rating_board", kwargs={"game": game})
    return url if str(page) == "1" else f"{url}?page={page}"


@require_safe
def rating_board(request: HtmxHttpRequest, game: str) -> HttpResponse:
    """``/leaderboards/<game>/``: one multiplayer game's rated players, 50 at a time. Its links
    lead on by key (``?after=``, ``?before=``: the page below starts right after the last
    player shown, whoever has played since); ``?page=N`` still leads to page N (the last for
    a number past it, the first for anything but a number)."""
    if game not in kinds.TABLE_BY_SLUG:
        raise Http404("No rating board for this game.")
    after, before = request.GET.get("after"), request.GET.get("before")
    if after is not None or before is not None:
        key = RatingKey.parse(after if after is not None else before or "")
        if key is None:
            raise Http404("No such place on this board.")
        board = rating_page(game, after=key) if after is not None else rating_page(game, before=key)
    else:
        board = rating_page(game, number=whole_number(request.GET.get("page")) or 1)
    if not board.rows and board.first_rank > 1:  # past the end, or only left-out accounts there
        board = rating_page(game, number=board.pages)
    return render(
        request, "games/rating_board.html", {"board": board, "provisional_games": PROVISIONAL_GAMES}
    )


@require_safe
def leaderboards(request: HtmxHttpRequest) -> HttpResponse:
    today = selectors.utc_today()
    deals = selectors.daily_deals(today)
    boards = [
        {
            "daily": deals.get(game),
            "info": kinds.get(game),
            "leaderboard": selectors.daily_leaderboard(deals[game], limit=OVERVIEW_ROWS)
            if game in deals
            else [],
        }
        for game in kinds.SOLITAIRE_SLUGS
    ]
    paged = request.GET.get("game", "")
    if paged in kinds.TABLE_BY_SLUG:  # the address of a board's pages before they had their own
        return redirect(rating_board_url(paged, request.GET.get("page", "1")), permanent=True)
    ratings = selectors.rating_tops(OVERVIEW_ROWS)
    week = selectors.week_start(today)
    best = [
        {"info": kinds.get(boards.game), "week": boards.week, "ever": boards.ever}
        for boards in selectors.best_daily_boards(list(kinds.SOLITAIRE_SLUGS), week=week, today=today)
    ]
    return render(
        request,
        "games/leaderboards.html",
        {
            "boards": boards,
            "today_rows": OVERVIEW_ROWS,
            "champions": selectors.daily_champions(limit=20),
            "today": today,
            "week": week,
            "ratings": ratings,
            "provisional_games": PROVISIONAL_GAMES,
            "best": best,
            "streaks": selectors.longest_daily_streaks(today, limit=20),
            "tournament_champions": selectors.tournament_champions(limit=20),
            "bot_titles": selectors.bot_tournament_titles(),
        },
    )
