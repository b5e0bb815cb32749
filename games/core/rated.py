"""RT-5: a table game is rated only if every person made a move of their own in it.

A game whose table rates (``Table.rates_with``: opened as rated, every seat a person, RT-2) is
played out by the clocks whoever has gone (LP-1), but a person who never moved by hand (they
left before it began, or a rematch both had walked away from) leaves it unrated, as lichess
aborts a game its players never began. Once every person has moved, turns lost to the clock
are play: a person who then leaves loses by timeout and is rated for it.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.models import Action, Seat


def never_moved(game_id: int, seats: Sequence[Seat]) -> list[Seat]:
    """The people's seats with no move of their own in the game (every move of theirs was the
    clock's, ``Action.timed_out``), by one query over its actions."""
    people = [seat for seat in seats if seat.user_id is not None and not seat.is_bot]
    moved = set(
        Action.objects.filter(game_id=game_id, timed_out=False, seat__in=[seat.number for seat in people])
        .values_list("seat", flat=True)
        .distinct()
    )
    return [seat for seat in people if seat.number not in moved]
