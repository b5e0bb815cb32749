"""Checking a game's config dict against its options, with errors that name the problem."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One config key: its default and a check that returns an error text or ``None``."""

    default: Any
    check: Callable[[Any], str | None]


def boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else "must be true or false"


def integer(low: int, high: int | None = None, *, allow_none: bool = False) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if value is None and allow_none:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            return "must be an integer" + (" or null" if allow_none else "")
        if value < low or (high is not None and value > high):
            return f"must be between {low} and {high}" if high is not None else f"must be at least {low}"
        return None

    return check


def one_of(*choices: Any) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        return (
            None
            if value in choices and type(value) in {type(c) for c in choices}
            else f"must be one of {list(choices)}"
        )

    return check


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
