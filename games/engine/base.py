"""The contract every rule engine follows.

A game is fully described by ``(game, config, seed, actions)``. Engines are pure:
no Django, Channels or Celery import, no clock, no global random state. States are
frozen dataclasses; ``apply`` returns a new state and never changes the old one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Generic, TypeVar

from games.engine.config import Option

TABLE_SEAT = -1
"""The seat of actions no player takes (a tie-replay hand starting, TR-14, BL-8)."""

MAX_SEED = 2**63 - 1

FORFEIT = "forfeit"
"""TN-6: the action of the seat to act that loses the game by forfeit, there and then. It is
never among ``legal_actions`` (no bot or page offers it): the site plays it for a seat whose
first clocks of a tournament match ran out, and engines at tables accept it (``forfeit``)."""


StateT = TypeVar("StateT")


def evolve(state: StateT, **changes: Any) -> StateT:
    """``dataclasses.replace(state, **changes)`` at a fifth of its cost, for the engines'
    states: frozen dataclasses with no ``__post_init__`` and every field an init field, so
    copying the fields and setting the changed ones makes what ``replace`` would
    (``tests/engine/test_broadcast.py`` holds it to ``replace``). Broadcast playouts change
    states by the hundred thousand: a 6-player Triad match's odds took 1.6 times as long with
    ``replace`` (bench/broadcast.py). Unknown names are refused as ``replace`` refuses them."""
    known = state.__dataclass_fields__  # type: ignore[attr-defined]
    if not changes.keys() <= known.keys():
        raise TypeError(f"{type(state).__name__} has no fields {sorted(changes.keys() - known.keys())}")
    values = state.__dict__.copy()
    values.update(changes)
    copy = object.__new__(type(state))
    object.__setattr__(copy, "__dict__", values)
    return copy


def gettext_noop(template: str) -> str:
    """Marks a refusal's English template for the site's catalogue and returns it unchanged.

    Engines import no Django, so they cannot translate: they name the message (its English
    template, gettext's own key) and its parameters, and the site words it in the reader's
    language (``games.kinds.refusals``). The name is the one Django's ``makemessages`` looks
    for, so the templates land in the catalogue without a second list to keep in step.
    """
    return template


@dataclass(frozen=True)
class Words:
    """A message for a person: an English ``template`` marked with ``gettext_noop`` and its
    named ``params``, which are plain values (card texts, numbers) or ``Words`` themselves.
    ``str()`` is the English."""

    template: str
    params: Mapping[str, object]

    def __str__(self) -> str:
        if not self.params:
            return self.template
        return self.template % {key: str(value) for key, value in self.params.items()}


def and_words(items: Sequence[object]) -> Words:
    """``a``, ``a and b``, ``a, b and c`` as words the site can translate (items: card texts,
    numbers or ``Words``)."""
    if len(items) <= 1:
        return Words("%(only)s" if items else "", {"only": items[0]} if items else {})
    joined: object = items[0]
    for item in items[1:-1]:
        joined = Words(gettext_noop("%(first)s, %(next)s"), {"first": joined, "next": item})
    return Words(gettext_noop("%(first)s and %(last)s"), {"first": joined, "last": items[-1]})


class IllegalAction(ValueError):
    """An action the rules do not allow now, meant for a person: ``words`` is the message as
    a template and parameters (for the site to translate), ``str()`` its English."""

    def __init__(self, template: str, **params: object) -> None:
        self.words = Words(template, params)
        super().__init__(str(self.words))


class ReplayError(ValueError):
    """A stored action list stops being legal at ``index``.

    ``states`` holds the valid prefix: the initial state and one state per action
    that did apply, so a caller can still show the game up to the fault.
    """

    def __init__(self, index: int, states: list[Any], cause: Exception) -> None:
        super().__init__(f"action {index} cannot be applied: {cause}")
        self.index = index
        self.states = states
        self.cause = cause


def check_seed(seed: object) -> int:
    """Return ``seed`` if it is a usable seed, else raise ``ValueError`` naming why."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, not {type(seed).__name__}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be between 0 and {MAX_SEED}, got {seed}")
    return seed


@dataclass(frozen=True)
class Move:
    """One legal action as a page offers it: its canonical text (what is posted back and
    stored) and the fields a form needs, so no code outside the engine builds or splits
    action text."""

    text: str
    kind: str
    cards: tuple[str, ...] = ()
    amount: int | None = None
    at: tuple[int, ...] = ()
    """Where on the board, or which of a seat's hands, the action goes."""


@dataclass(frozen=True, kw_only=True)
class View:
    """What one seat may know of a state (LP-3): each engine's view extends this.

    ``seat`` is ``None`` for a spectator (and in a full view); ``moves`` is empty unless it
    is this seat's turn.
    """

    game: str
    seat: int | None
    config: Mapping[str, Any]
    moves: tuple[Move, ...] = ()

    @property
    def legal(self) -> tuple[str, ...]:
        """The texts of ``moves``: what a bot or a turn clock chooses from."""
        return tuple(move.text for move in self.moves)

    def data(self) -> dict[str, Any]:
        """The view as JSON-ready data (for tests that search it for hidden cards, and files)."""
        return asdict(self)


S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V", bound=View)


class Engine(ABC, Generic[S, A]):
    """One game's rules behind the shared API (see DESIGN.md, "The engine contract")."""

    name: str
    version: int = 1
    """Bumped whenever a rule change would make an old action list replay differently."""

    min_players: int = 1
    max_players: int = 1
    options: ClassVar[Mapping[str, Option]] = {}
    """The config keys, their defaults and what each admits (forms are built from these)."""

    def seat_count(self, config: Mapping[str, Any]) -> int:
        """How many seats a game of this (normalized) ``config`` has."""
        return int(config.get("players", self.min_players))

    @property
    def at_tables(self) -> bool:
        """Played live by several seats (else a solitaire game, played alone)."""
        return self.max_players > 1

    def bot_action(self, view: Any, seed: int) -> str:
        """The built-in bot's move (LP-4) from ``view``, that seat's own view; ``ValueError`` if none."""
        raise ValueError(f"{self.name} has no built-in bot")

    def timeout_action(self, view: Any, seed: int) -> str:
        """LP-1: the move taken for the seat whose ``view`` this is when its clock runs out."""
        raise ValueError(f"{self.name} has no turn clock")

    def places(self, outcome: Mapping[str, Any]) -> list[int]:
        """Each seat's place in a finished game, 1 = first, equal places a tie (RT-1)."""
        return [int(place) for place in outcome["places"]]

    def action_from_fields(self, fields: Mapping[str, object]) -> A:
        """A page's form fields as an action; by default the ``action`` field is its text.

        Engines whose actions carry a choice a form makes (chips, cards) override this.
        """
        text = fields.get("action")
        if not isinstance(text, str) or not text:
            raise IllegalAction(gettext_noop("no action was named"))
        return self.parse_action(text)

    @abstractmethod
    def normalize_config(self, config: dict[str, Any] | None) -> dict[str, Any]:
        """The full config with defaults filled in; ``ValueError`` for bad keys or values."""

    @abstractmethod
    def initial_state(
        self, config: dict[str, Any] | None = None, seed: int = 0, deck: Sequence[str] | None = None
    ) -> S:
        """The state before the first action; ``deck`` fixes the deal, top card first."""

    @abstractmethod
    def current_player(self, state: S) -> int | None:
        """The seat to act, ``TABLE_SEAT`` for table actions, ``None`` once the game is over."""

    @abstractmethod
    def legal_actions(self, state: S) -> list[A]:
        """Every legal action, in a stable order."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """The action whose canonical text is ``text``; ``IllegalAction`` if malformed."""

    @abstractmethod
    def _apply(self, state: S, action: A) -> S:
        """Apply a parsed action; raise ``IllegalAction`` if the rules forbid it."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> View:
        """What ``seat`` may know, as the engine's own frozen ``View``; ``None`` or -1 is a
        spectator. Its ``moves`` are the seat's legal actions while it is the seat's turn."""

    @abstractmethod
    def full_view(self, state: S) -> View:
        """Everything, hidden cards included, in the shape of ``view``.

        For replays of finished games (LP-3) and for tests; the site must never send it
        while a game runs.
        """

    @abstractmethod
    def outcome(self, state: S) -> dict[str, Any] | None:
        """``None`` while the game runs; then the result."""

    def apply(self, state: S, action: A | str) -> S:
        if isinstance(action, str):
            if action.strip() == FORFEIT:
                return self._forfeit_by_seat_to_act(state)
            action = self.parse_action(action)
        return self._apply(state, action)

    def _forfeit_by_seat_to_act(self, state: S) -> S:
        seat = self.current_player(state)
        if seat is None:
            raise IllegalAction(gettext_noop("the game is over: there is nothing to forfeit"))
        if seat == TABLE_SEAT:
            raise IllegalAction(gettext_noop("no seat is to act: the table is dealing"))
        return self.forfeit(state, seat)

    def forfeit(self, state: S, seat: int) -> S:
        """TN-6: ``seat`` loses the game now, the others placed as the game stands (an engine
        at tables says how); a forfeited game is over."""
        raise IllegalAction(gettext_noop("%(game)s has no forfeit"), game=self.name)

    def replay(
        self,
        config: dict[str, Any] | None,
        seed: int,
        actions: Iterable[A | str],
        deck: Sequence[str] | None = None,
    ) -> list[S]:
        """Every state from the initial one through the last action.

        Raises ``ReplayError`` carrying the valid prefix and the index of the first
        action that could not be applied.
        """
        states = [self.initial_state(config, seed, deck)]
        for index, action in enumerate(actions):
            try:
                states.append(self.apply(states[-1], action))
            except ValueError as exc:
                raise ReplayError(index, states, exc) from exc
        return states
