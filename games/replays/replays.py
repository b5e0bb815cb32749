"""Replays: any game's states, rebuilt from ``(game, config, seed, actions)``; no snapshots.

A replay shows a finished game whole (LP-3: every card), or one seat's view of it as it
was; a game still being played is shown only as its spectators see it, step by step up
to now, and its seed is never shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils import formats
from django.utils.translation import gettext, ngettext

from games import kinds
from games.engine import ReplayError, View, get_engine
from games.engine.base import check_seed
from games.models import DailyChallenge, GameRecord
from web import safe_json

EVERYTHING = "all"


@dataclass(frozen=True)
class ReplaySource:
    key: str
    """Names the cache entry: a game's id, or a daily deal's solution."""
    game: str
    config: dict[str, Any]
    seed: int
    actions: tuple[str, ...]
    finished: bool
    names: list[str]
    title: str
    deck: list[str] | None = None
    record: GameRecord | None = None
    seats: list[Any] = field(default_factory=list)
    players: tuple[str, ...] = ()
    """Who played it, seat by seat, as far as the site knows (an import: as its file says);
    empty when unknown. A downloaded file carries them."""
    imported: bool = False
    importer: str = ""
    """An import's importer's username; "" for a visitor (or when not an import)."""

    @property
    def steps(self) -> int:
        return len(self.actions)

    @property
    def multiplayer(self) -> bool:
        return not kinds.get(self.game).solitaire


def _players(record: GameRecord, seats: list[Any]) -> tuple[str, ...]:
    if record.kind == GameRecord.Kind.IMPORTED:
        return tuple(record.played_by or ())
    if seats:
        return tuple(seat.name for seat in seats)
    if record.owner is not None and not record.at_table:
        return (record.owner.username,)
    return ()


def from_record(record: GameRecord) -> ReplaySource:
    actions = tuple(record.actions.order_by("seq").values_list("text", flat=True))
    table = getattr(record, "table", None) if record.at_table else None
    seats = list(table.seats.select_related("user")) if table is not None else []
    players = _players(record, seats)
    if players:
        names = list(players)
    elif not kinds.get(record.game).solitaire:
        names = [
            gettext("Seat %(number)s") % {"number": n + 1}
            for n in range(get_engine(record.game).seat_count(record.config))
        ]
    else:
        names = [gettext("Anonymous")]
    imported = record.kind == GameRecord.Kind.IMPORTED
    # "#" is a deal's number everywhere on the site: the game's own is said as a game's.
    title = gettext("%(game)s, game %(number)d") % {"game": record.get_game_display(), "number": record.pk}
    return ReplaySource(
        key=f"game:{record.pk}",
        game=record.game,
        config=record.config,
        seed=record.seed,
        actions=actions,
        finished=record.is_over,
        names=names,
        title=title,
        deck=record.deck,
        record=record,
        seats=seats,
        players=players,
        imported=imported,
        importer=record.imported_by.username if imported and record.imported_by else "",
    )


def from_daily_solution(daily: DailyChallenge) -> ReplaySource:
    return ReplaySource(
        key=f"daily:{daily.pk}",
        game=daily.game,
        config=daily.config,
        seed=daily.seed,
        actions=tuple(daily.solution),
        finished=True,
        names=[gettext("The solver")],
        title=gettext("The solver's line for the %(game)s daily of %(date)s")
        % {"game": daily.get_game_display(), "date": formats.date_format(daily.date)},
    )


def states(source: ReplaySource) -> list[Any]:
    """Every state from the deal to the last action. Not kept between requests: a replay's
    first request, which has none kept, took as long as the others (docs/benchmarks.md,
    "Replay pages")."""
    return get_engine(source.game).replay(source.config, source.seed, source.actions, deck=source.deck)


def perspectives(source: ReplaySource) -> list[tuple[str, str]]:
    """The views a viewer may pick: everything and each seat for a finished multiplayer game."""
    if not source.finished or not source.multiplayer:
        return []
    return [(EVERYTHING, gettext("Everything")), *((str(n), name) for n, name in enumerate(source.names))]


def step_view(source: ReplaySource, state: Any, perspective: str) -> View:
    """The view at one step. Only a finished game shows hidden cards (LP-3)."""
    engine = get_engine(source.game)
    if not source.finished:
        return engine.view(state, None)
    if source.multiplayer and perspective.isdigit():
        return engine.view(state, int(perspective))
    return engine.full_view(state)


# Files


class ImportError_(ValueError):
    """A file that is not a real, legal game; the message says what is wrong. (The trailing
    underscore keeps it apart from the builtin ``ImportError``.)"""


def export(source: ReplaySource) -> dict[str, Any]:
    if not source.finished:
        raise ValueError(
            gettext("A game still being played cannot be downloaded: its seed decides every hidden card.")
        )
    engine = get_engine(source.game)
    data: dict[str, Any] = {
        "format": "capstone-game",
        "game": source.game,
        "engine_version": engine.version,
        "config": source.config,
        "seed": source.seed,
        "actions": list(source.actions),
    }
    if source.deck is not None:
        data["deck"] = source.deck
    if source.players:
        data["players"] = list(source.players)
    return data


REQUIRED = ("game", "engine_version", "config", "seed", "actions")
IMPORT_DEPTH = 8
"""A game file nests two levels (its config, its list of actions); deeper is not one."""
PLAYER_NAME_LENGTH = 150
"""The longest name a file may give a player: the longest username an account may have."""


def _file_players(players: object, seats: int) -> list[str]:
    """The optional ``players`` of a game file: one name a seat, or none at all."""
    if players is None:
        return []
    if not (
        isinstance(players, list)
        and len(players) == seats
        and all(isinstance(name, str) and 0 < len(name.strip()) <= PLAYER_NAME_LENGTH for name in players)
    ):
        raise ImportError_(
            ngettext(
                "'players' must be a list of %(seats)d name, of 1 to %(longest)d characters.",
                "'players' must be a list of %(seats)d names, one a seat, each of 1 to %(longest)d "
                "characters.",
                seats,
            )
            % {"seats": seats, "longest": PLAYER_NAME_LENGTH}
        )
    return [name.strip() for name in players]


def parse_import(text: str) -> dict[str, Any]:
    """A downloaded game, checked to the last action; ``ImportError_`` with a clear message."""
    try:
        data = safe_json.loads(text, max_depth=IMPORT_DEPTH)
    except safe_json.TooDeeplyNested as exc:
        raise ImportError_(gettext("This is not a game file: %(why)s.") % {"why": exc}) from None
    except ValueError as exc:
        raise ImportError_(
            gettext("This is not a game file: it is not valid JSON (%(why)s).") % {"why": exc}
        ) from None
    if not isinstance(data, dict):
        raise ImportError_(gettext("This is not a game file: expected a JSON object."))
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise ImportError_(gettext("This game file lacks %(keys)s.") % {"keys": ", ".join(missing)})
    game = data["game"]
    if not isinstance(game, str) or game not in kinds.BY_SLUG:
        raise ImportError_(
            gettext("Unknown game %(game)s: Capstone plays %(games)s.")
            % {"game": repr(game), "games": ", ".join(kinds.BY_SLUG)}
        )
    engine = get_engine(game)
    if data["engine_version"] != engine.version:
        raise ImportError_(
            gettext(
                "This file was made with %(game)s rules version %(file)s; this site plays version %(site)s."
            )
            % {"game": game, "file": repr(data["engine_version"]), "site": engine.version}
        )
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise ImportError_(gettext("'actions' must be a list of move texts."))
    deck = data.get("deck")
    if deck is not None and not (isinstance(deck, list) and all(isinstance(c, str) for c in deck)):
        raise ImportError_(gettext("'deck' must be a list of card texts."))
    try:
        check_seed(data["seed"])
        config = engine.normalize_config(data["config"])
        engine.replay(config, data["seed"], actions, deck=deck)
    except ReplayError as exc:
        raise ImportError_(
            gettext("Move %(number)s (%(move)s) is not legal there: %(why)s.")
            % {"number": exc.index + 1, "move": repr(actions[exc.index]), "why": exc.cause}
        ) from None
    except ValueError as exc:
        raise ImportError_(gettext("This game file is not valid: %(why)s.") % {"why": exc}) from None
    players = _file_players(data.get("players"), engine.seat_count(config))
    return {
        "game": game,
        "config": config,
        "seed": data["seed"],
        "actions": actions,
        "deck": deck,
        "players": players,
    }


def initial_steps(actions: Sequence[str], step: int) -> list[str]:
    return list(actions[: max(0, min(step, len(actions)))])
