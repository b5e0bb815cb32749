"""RT-5: a game in which no person has moved since every person left it is not rated.

A game whose table rates (``Table.rates_with``: opened as rated, every seat a person, RT-2) is
played out by the clocks whoever has gone (LP-1). Who has "left" is read from the game's own
actions, the one record every process agrees on: once the last move a person made by hand is
followed by a clock's move for every person, nobody was there any more, and the clocks alone
decided the rest (a rematch both walked away from). A person who leaves while another plays
on loses by timeout, and is rated for it, as lichess and Board Game Arena do.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Subquery, Value
from django.db.models.functions import Coalesce

from games.models import Action, Seat


def everyone_left(game_id: int, seats: Sequence[Seat]) -> list[Seat]:
    """The people's seats, if each had a move made by the clock (``Action.timed_out``) after
    the last move any person made by hand; otherwise none. One query over the game's actions."""
    people = [seat for seat in seats if seat.user_id is not None and not seat.is_bot]
    theirs = Action.objects.filter(game_id=game_id, seat__in=[seat.number for seat in people])
    last_by_hand = theirs.filter(timed_out=False).order_by("-seq").values("seq")[:1]
    clocked = set(
        theirs.filter(timed_out=True, seq__gt=Coalesce(Subquery(last_by_hand), Value(-1)))
        .values_list("seat", flat=True)
        .distinct()
    )
    return people if people and all(seat.number in clocked for seat in people) else []
