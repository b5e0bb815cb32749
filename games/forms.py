"""New-game forms: which deal, and RULES.md's variants under plain names, turned into an engine config."""

from __future__ import annotations

from functools import cache
from typing import Any

from django import forms

from games.engine.base import MAX_SEED
from games.kinds.spec import SolitaireSpec

DEAL_CHOICES = [
    ("random", "A random deal"),
    ("winnable", "A random deal that can be won"),
    ("number", "The deal with the number below"),
]


class DealForm(forms.Form):
    """Which deal to play: shared by every solitaire game."""

    deal = forms.ChoiceField(choices=DEAL_CHOICES, initial="random", widget=forms.RadioSelect, label="Deal")
    number = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        label="Deal number",
        help_text="Share a deal by its number: everyone gets the same cards.",
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("deal") == "number" and data.get("number") is None:
            self.add_error("number", "Type the number of the deal you want to play.")
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

    return type(f"{spec.name}Form", (DealForm,), {**fields, "config": config})
