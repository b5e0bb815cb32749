"""The form that schedules a tournament: a table's game and variants, plus the tournament's own fields."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.utils import timezone

from games import kinds
from games.table_forms import TableForm

STARTS_IN_MINUTES = [
    (2, "in 2 minutes"),
    (5, "in 5 minutes"),
    (15, "in 15 minutes"),
    (30, "in 30 minutes"),
    (60, "in an hour"),
    (180, "in 3 hours"),
    (1440, "in a day"),
    (10080, "in a week"),
]


class TournamentForm(TableForm):
    name = forms.CharField(max_length=80, label="Name")
    max_entrants = forms.TypedChoiceField(
        choices=[(n, f"up to {n} players") for n in (4, 8, 16, 32, 64)], coerce=int, initial=8, label="Size"
    )
    starts_in = forms.TypedChoiceField(choices=STARTS_IN_MINUTES, coerce=int, initial=15, label="Starts")
    fill_with_bots = forms.BooleanField(
        required=False, label="Bots fill the empty places of the bracket at the start"
    )

    field_order = ["name", "game", "max_entrants", "starts_in", "fill_with_bots", "clock_seconds"]

    games = tuple(spec for spec in kinds.TABLE_GAMES if spec.in_tournaments)
    hidden_options = ("players",)  # every match is heads-up

    def starts_at(self) -> dt.datetime:
        return timezone.now() + dt.timedelta(minutes=self.cleaned_data["starts_in"])
