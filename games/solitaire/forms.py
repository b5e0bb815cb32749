"""New-game forms: which deal, and RULES.md's variants under plain names, turned into an engine config."""

from __future__ import annotations

from functools import cache
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.formats import number_format
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy

from games.engine.base import MAX_SEED
from games.kinds.spec import SolitaireSpec
from games.solitaire.services import MAX_DEAL_NUMBER

DEAL_CHOICES = [
    ("random", gettext_lazy("A random deal")),
    ("winnable", gettext_lazy("A random deal that can be won")),
    ("number", gettext_lazy("The deal with the number below")),
]


# Random deals are numbered up to MAX_DEAL_NUMBER, but any seed deals: a shared or
# imported game's number may be far larger.
def _deal_number_range() -> str:
    return gettext(
        "A deal number is a whole number from 0 to %(most)s (random deals are numbered 1 to %(random)s): "
        "the same number always deals the same cards."
    ) % {
        "most": number_format(MAX_SEED, force_grouping=True),
        "random": number_format(MAX_DEAL_NUMBER, force_grouping=True),
    }


DEAL_NUMBER_RANGE = lazy(_deal_number_range, str)()
"""Worded when shown: the forms are built once (``new_game_form``), for readers of every language."""


class DealForm(forms.Form):
    """Which deal to play: shared by every solitaire game. A typed number is that deal,
    whichever radio button is picked: typing 42 and getting a random deal surprised players."""

    deal = forms.ChoiceField(
        choices=DEAL_CHOICES,
        initial="random",
        required=False,
        widget=forms.RadioSelect,
        label=gettext_lazy("Deal"),
    )
    number = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        label=gettext_lazy("Deal number"),
        help_text=gettext_lazy(
            "Type a number to play that deal, or leave it empty for a random one. Share a deal "
            "by its number: everyone gets the same cards."
        ),
        error_messages={
            "invalid": DEAL_NUMBER_RANGE,
            "min_value": DEAL_NUMBER_RANGE,
            "max_value": DEAL_NUMBER_RANGE,
        },
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.is_bound and str(self.data.get("number", "")).strip():
            # Shown again (with an error), the form says which deal it would have dealt.
            data = QueryDict(mutable=True)
            data.update(self.data)
            data["deal"] = "number"
            self.data = data

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("number") is not None:
            data["deal"] = "number"
        elif not data.get("deal"):
            data["deal"] = "random"
        elif data.get("deal") == "number" and "number" not in self.errors:
            self.add_error("number", gettext("Type the number of the deal you want to play."))
        return data

    def seed(self) -> int | None:
        return self.cleaned_data["number"] if self.cleaned_data["deal"] == "number" else None

    def winnable_only(self) -> bool:
        return self.cleaned_data["deal"] == "winnable"

    def config(self) -> dict[str, Any]:
        return {}


@cache
def new_game_form(spec: SolitaireSpec) -> type[DealForm]:
    """The new-game form of a solitaire game: the deal, then the variant options its spec
    offers, bounded by the engine's own options."""
    fields = spec.options_form_fields()

    def config(self: DealForm) -> dict[str, Any]:
        return {key: self.cleaned_data[key] for key in fields}

    def clean(self: DealForm) -> dict[str, Any]:
        data = DealForm.clean(self)
        if not any(key in self.errors for key in fields):
            for key, message in spec.option_errors(config(self)).items():
                self.add_error(key, message)
        return data

    return type(f"{spec.slug.capitalize()}Form", (DealForm,), {**fields, "config": config, "clean": clean})
