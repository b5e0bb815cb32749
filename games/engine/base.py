"""The contract every rule engine follows.

A game is fully described by ``(game, config, seed, actions)``. Engines are pure:
no Django, Channels or Celery import, no clock, no global random state. States are
frozen dataclasses; ``apply`` returns a new state and never changes the old one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, Generic, TypeVar

TABLE_SEAT = -1
"""The seat of actions no player takes (a tie-replay hand starting, TR-14, BL-8)."""

MAX_SEED = 2**63 - 1


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is meant for a person."""


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


S = TypeVar("S")
A = TypeVar("A")


class Engine(ABC, Generic[S, A]):
    """One game's rules behind the shared API (see DESIGN.md, "The engine contract")."""

    name: str
    version: int = 1
    """Bumped whenever a rule change would make an old action list replay differently."""

    min_players: int = 1
    max_players: int = 1

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
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know, as JSON-ready data; ``None`` or -1 is a spectator."""

    @abstractmethod
    def full_view(self, state: S) -> dict[str, Any]:
        """Everything, hidden cards included, in the shape of ``view``.

        For replays of finished games (LP-3) and for tests; the site must never send it
        while a game runs.
        """

    @abstractmethod
    def outcome(self, state: S) -> dict[str, Any] | None:
        """``None`` while the game runs; then the result."""

    def apply(self, state: S, action: A | str) -> S:
        if isinstance(action, str):
            action = self.parse_action(action)
        return self._apply(state, action)

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
