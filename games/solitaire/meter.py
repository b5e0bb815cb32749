"""The chance-to-win meter of a casual solitaire game (issue 46, LP-11): who may see it, and
the figure, computed by ``games.engine.solver.odds`` from the player's view alone.

The meter is the player's own, like a hint: never in a ranked daily attempt, a par match or
an event's run, and never for a deal that LP-6 keeps secret (its figure would tell of cards
still hidden from everyone who plays it). Each person shows or hides it; the choice is kept
in their session, so a visitor's choice holds as a signed-in person's does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.sessions.backends.base import SessionBase
from django.utils.translation import gettext as _

from games.core.players import Player
from games.core.snapshots import state_of
from games.engine import get_engine
from games.models import GameRecord
from games.stats import selectors

if TYPE_CHECKING:
    from games.engine.solver.odds import Odds

SHOWN_KEY = "odds_meter"
"""The session's key for the person's choice (absent: hidden, as a new player finds it)."""


def shown(session: SessionBase) -> bool:
    return bool(session.get(SHOWN_KEY, False))


def show(session: SessionBase, on: bool) -> None:
    session[SHOWN_KEY] = on


def refusal(record: GameRecord, player: Player) -> str:
    """Why ``player`` may not see the meter of ``record`` ("" if they may)."""
    if not player.owns(record):
        return _("The chance to win is shown to the game's player only.")
    if record.kind != GameRecord.Kind.CASUAL or record.ranked or record.solo_match_id is not None:
        return _("The chance to win is shown in casual games only.")
    if record.is_over:
        return _("This game is over.")
    if selectors.deal_is_secret(record.game, record.seed):
        return _("The chance to win is closed for this deal until its day is over or its event closes.")
    return ""


def player_view(record: GameRecord) -> Any:
    """The player's view of the game as it stands (reads its moves: a database call)."""
    return get_engine(record.game).view(state_of(record), 0)


def figure(game: str, view: Any) -> Odds:
    """The meter's figure for ``view``: the solver's searches, no database (they release the
    GIL, so a thread of their own leaves the process's other requests served meanwhile)."""
    from games.engine.solver import odds  # the solvers load with the first figure asked for

    return odds.chance(game, view)
