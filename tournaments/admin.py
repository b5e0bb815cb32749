"""Staff define series (TN-9) here; the options are checked as the tournament service checks
a tournament's, so every edition the scheduler creates can be created."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin

from games import kinds
from games.live.table_forms import ClockField
from tournaments import services, solitaire_events
from tournaments.models import SOLITAIRE_FORMATS, Series

LATEST_OPENING_MINUTES = int(services.LATEST_START.total_seconds() // 60)
SCHEDULE_FIELDS = ("repeat", "every_minutes", "weekday", "hour", "minute")
TOURNAMENT_FIELDS = (
    "game",
    "config",
    "format",
    "best_of",
    "table_size",
    "rounds",
    "third_place",
    "deal_count",
    "window_minutes",
    "max_entrants",
    "fill_with_bots",
    "clock_seconds",
    "rated",
)


class SeriesForm(forms.ModelForm):
    game = forms.ChoiceField(
        choices=[
            *((spec.slug, spec.name) for spec in kinds.TABLE_GAMES if spec.in_tournaments),
            *((spec.slug, f"{spec.name} (solitaire events)") for spec in kinds.SOLITAIRE),
        ]
    )
    # The table form's speeds, live and turn-based (LP-8, TN-10); a solitaire event has no clock.
    clock_seconds = ClockField()

    class Meta:
        model = Series
        fields = (
            "name",
            "owner",
            "active",
            *TOURNAMENT_FIELDS,
            *SCHEDULE_FIELDS,
            "opens_minutes",
        )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        if data["format"] in SOLITAIRE_FORMATS:
            try:
                solitaire_events.check_options(
                    game=data["game"],
                    format=data["format"],
                    deal_count=data.get("deal_count"),
                    window_minutes=data.get("window_minutes"),
                    max_entrants=data["max_entrants"],
                )
            except solitaire_events.EventOptionsError as exc:
                raise forms.ValidationError(str(exc)) from exc
            return self._check_schedule(data)
        try:
            services.check_options(
                game=data["game"],
                config=data.get("config") or {},
                clock_seconds=data["clock_seconds"],
                max_entrants=data["max_entrants"],
                format=data["format"],
                best_of=data["best_of"],
                table_size=data["table_size"],
                rounds=data.get("rounds"),
                third_place=data["third_place"],
            )
        except services.TournamentError as exc:
            raise forms.ValidationError(str(exc)) from exc
        return self._check_schedule(data)

    def _check_schedule(self, data: dict[str, Any]) -> dict[str, Any]:
        if data["opens_minutes"] > LATEST_OPENING_MINUTES:
            self.add_error("opens_minutes", f"At most {LATEST_OPENING_MINUTES} minutes (60 days).")
        try:
            Series(**{name: data.get(name) for name in SCHEDULE_FIELDS}).recurrence()
        except ValueError as exc:
            raise forms.ValidationError(f"The schedule does not work: {exc}") from exc
        return data


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    form = SeriesForm
    list_display = ("name", "game", "format", "schedule_text", "active")
    list_filter = ("active", "game")
    fieldsets = (
        (None, {"fields": ("name", "owner", "active")}),
        (
            "Tournament",
            {"fields": TOURNAMENT_FIELDS},
        ),
        (
            "Schedule (UTC)",
            {
                "fields": (*SCHEDULE_FIELDS, "opens_minutes"),
                "description": "Every few minutes: from the minute given; hourly: at the minute; "
                "daily: at the hour and minute; weekly: on the weekday at the hour and minute.",
            },
        ),
    )
    raw_id_fields = ("owner",)
