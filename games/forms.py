"""New-game forms: RULES.md's variants under plain names, turned into an engine config."""

from __future__ import annotations

from typing import Any

from django import forms

from games.engine.base import MAX_SEED

DEAL_CHOICES = [
    ("random", "A random deal"),
    ("winnable", "A random deal that can be won"),
    ("number", "The deal with the number below"),
]

PASS_CHOICES = [
    ("0", "1 pass (One Deal)"),
    ("1", "2 passes"),
    ("2", "3 passes (standard)"),
    ("3", "4 passes"),
    ("unlimited", "Unlimited"),
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
        data = super().clean()
        if data.get("deal") == "number" and data.get("number") is None:
            self.add_error("number", "Type the number of the deal you want to play.")
        return data

    def seed(self) -> int | None:
        return self.cleaned_data["number"] if self.cleaned_data["deal"] == "number" else None

    def winnable_only(self) -> bool:
        return self.cleaned_data["deal"] == "winnable"

    def config(self) -> dict[str, Any]:
        return {}


class PyramidForm(DealForm):
    rows = forms.TypedChoiceField(
        choices=[(7, "7 rows (28 cards)"), (6, "6 rows (21 cards)")], coerce=int, initial=7, label="Pyramid"
    )
    passes = forms.ChoiceField(choices=PASS_CHOICES, initial="2", label="Passes through the stock")
    reserve = forms.BooleanField(required=False, label="Reserve: six extra cards, face up, usable any time")
    clear_the_board = forms.BooleanField(required=False, label="Win as soon as the pyramid is cleared")
    overlap_pairs = forms.BooleanField(required=False, label="A card may pair with the one card covering it")
    waste_off_limits = forms.BooleanField(required=False, label="Waste cards can't be used")
    reshuffle = forms.BooleanField(required=False, label="Shuffle the waste at each redeal")
    scoring = forms.ChoiceField(
        choices=[("points", "Points"), ("par", "Par (competitive, 3 passes at most)")],
        initial="points",
        label="Scoring",
    )

    def config(self) -> dict[str, Any]:
        data = self.cleaned_data
        passes = data["passes"]
        return {
            "rows": data["rows"],
            "redeals": None if passes == "unlimited" else int(passes),
            "reserve": data["reserve"],
            "clear_the_board": data["clear_the_board"],
            "overlap_pairs": data["overlap_pairs"],
            "waste_off_limits": data["waste_off_limits"],
            "reshuffle": data["reshuffle"],
            "scoring": data["scoring"],
        }


class TriPeaksForm(DealForm):
    face_up = forms.BooleanField(required=False, label="All cards face up")

    def config(self) -> dict[str, Any]:
        return {"face_up": self.cleaned_data["face_up"]}


NEW_GAME_FORMS: dict[str, type[DealForm]] = {"pyramid": PyramidForm, "tripeaks": TriPeaksForm}
