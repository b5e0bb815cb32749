"""Form fields built from an engine's options, so a form admits exactly what the engine does.

A game's web module says which options a player chooses and how each reads (its label,
and for some the choices offered); the bounds, the default and what is admitted come from
the engine's ``Option``. A choice the engine would refuse is a programming error, caught
when the form is built.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import forms

from games.engine.config import Boolean, Integer, OneOf, Option

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

NO_LIMIT = "none"
"""How a form says ``None`` (no limit) for an option that admits it."""


@dataclass(frozen=True)
class OptionField:
    """One option offered on a form: the engine option's key and how the form shows it."""

    key: str
    label: StrOrPromise
    choices: tuple[tuple[Any, StrOrPromise], ...] = ()
    """(value, label) pairs; ``None`` is a value for an option without a limit."""


def _encode(value: Any) -> str:
    return NO_LIMIT if value is None else str(value)


def _choice_field(option: Option, declared: OptionField) -> forms.Field:
    values = {_encode(value): value for value, _ in declared.choices}
    for value in values.values():
        problem = option.check(value)
        if problem:
            raise ValueError(f"form choice {value!r} for option {declared.key!r} {problem}")
    return forms.TypedChoiceField(
        choices=[(_encode(value), label) for value, label in declared.choices],
        coerce=values.__getitem__,
        empty_value=option.default,
        initial=_encode(option.default),
        label=declared.label,
    )


def option_field(option: Option, declared: OptionField) -> forms.Field:
    check = option.check
    if isinstance(check, Boolean):
        return forms.BooleanField(required=False, initial=option.default, label=declared.label)
    if declared.choices:
        return _choice_field(option, declared)
    if isinstance(check, Integer):
        return forms.IntegerField(
            min_value=check.low,
            max_value=check.high,
            initial=option.default,
            required=not check.allow_none,
            label=declared.label,
        )
    if isinstance(check, OneOf):
        return _choice_field(
            option, OptionField(declared.key, declared.label, tuple((c, str(c)) for c in check.choices))
        )
    raise TypeError(f"no form field for option {declared.key!r} checked by {check!r}")


def option_fields(options: Mapping[str, Option], declared: Sequence[OptionField]) -> dict[str, forms.Field]:
    """Form fields named by option key, in the declared order."""
    return {field.key: option_field(options[field.key], field) for field in declared}
