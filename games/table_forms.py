"""The form that opens a live table: the game, its seats and stakes, its variants, the clock."""

from __future__ import annotations

from typing import Any

from django import forms


class TableForm(forms.Form):
    game = forms.ChoiceField(choices=[("triad", "Triad"), ("blocks", "Pyramid Poker")], initial="triad")
    players = forms.TypedChoiceField(
        choices=[(n, f"{n} players") for n in range(2, 7)], coerce=int, initial=2, label="Seats (Triad)"
    )
    clock_seconds = forms.IntegerField(min_value=10, max_value=600, initial=30, label="Turn clock (seconds)")
    stack = forms.IntegerField(min_value=10, max_value=10_000, initial=100, label="Chips each (Triad)")
    ante = forms.IntegerField(min_value=1, max_value=100, initial=1, label="Ante (Triad)")
    hands = forms.IntegerField(min_value=1, max_value=100, initial=12, label="Hands in the match (Triad)")
    cards = forms.TypedChoiceField(
        choices=[(6, "6 cards"), (8, "8 cards")], coerce=int, initial=6, label="Deal (Triad)"
    )
    no_discard = forms.BooleanField(required=False, label="No discarding (Triad)")
    discard_twice = forms.BooleanField(required=False, label="Two draws (Triad)")
    face_up = forms.BooleanField(required=False, label="All cards face up (Triad)")
    scoring = forms.ChoiceField(
        choices=[("basic", "Basic: one game"), ("advanced", "Advanced: points, a match")],
        initial="basic",
        label="Scoring (Pyramid Poker)",
    )
    target = forms.TypedChoiceField(
        choices=[(7, "7 points (short)"), (11, "11 points (long)")], coerce=int, initial=7, label="Match to"
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("ante") and data.get("stack") and data["ante"] > data["stack"]:
            self.add_error("ante", "The ante cannot be more than the chips each player brings.")
        if data.get("no_discard") and data.get("discard_twice"):
            self.add_error("discard_twice", "Choose either no discarding or two draws, not both.")
        return data

    def config(self) -> dict[str, Any]:
        data = self.cleaned_data
        if data["game"] == "blocks":
            return {"scoring": data["scoring"], "target": data["target"]}
        keys = ("players", "stack", "ante", "hands", "cards", "no_discard", "discard_twice", "face_up")
        return {key: data[key] for key in keys if key in self.fields}
