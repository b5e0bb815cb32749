"""Checking a game's config dict against its options, with errors that name the problem."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One config key: its default and a check that returns an error text or ``None``.

    The checks below also say what they admit (``Boolean``, ``Integer``, ``OneOf``), so a
    form for the option can be built with the engine's own bounds.
    """

    default: Any
    check: Callable[[Any], str | None]


@dataclass(frozen=True)
class Boolean:
    def __call__(self, value: Any) -> str | None:
        return None if isinstance(value, bool) else "must be true or false"


@dataclass(frozen=True)
class Integer:
    low: int
    high: int | None = None
    allow_none: bool = False

    def __call__(self, value: Any) -> str | None:
        if value is None and self.allow_none:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            return "must be an integer" + (" or null" if self.allow_none else "")
        if value < self.low or (self.high is not None and value > self.high):
            if self.high is None:
                return f"must be at least {self.low}"
            return f"must be between {self.low} and {self.high}"
        return None


@dataclass(frozen=True)
class OneOf:
    choices: tuple[Any, ...]

    def __call__(self, value: Any) -> str | None:
        admitted = value in self.choices and type(value) in {type(c) for c in self.choices}
        return None if admitted else f"must be one of {list(self.choices)}"


boolean = Boolean()


def integer(low: int, high: int | None = None, *, allow_none: bool = False) -> Integer:
    return Integer(low, high, allow_none)


def one_of(*choices: Any) -> OneOf:
    return OneOf(choices)


def resolve(game: str, config: Mapping[str, Any] | None, options: Mapping[str, Option]) -> dict[str, Any]:
    """The full config: defaults overridden by ``config``; ``ValueError`` naming any bad key."""
    if config is None:
        config = {}
    if not isinstance(config, Mapping):
        raise ValueError(f"{game} config must be a dict, not {type(config).__name__}")
    unknown = sorted(set(config) - set(options))
    if unknown:
        raise ValueError(f"unknown {game} config option(s) {unknown}; known: {sorted(options)}")
    resolved = {key: option.default for key, option in options.items()}
    for key, value in config.items():
        problem = options[key].check(value)
        if problem:
            raise ValueError(f"{game} config option {key!r} {problem} (got {value!r})")
        resolved[key] = value
    return resolved
