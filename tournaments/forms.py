"""The form that schedules a tournament: a table's game and variants, the tournament's own
fields, and its format with the options each format takes (TN-1, TN-3, TN-4, TN-5).

Which options fit which format and game is ``services.create_tournament``'s to decide: the
form only offers them, each marked with the formats (and games) it belongs to, so that
tournament_form.js can show the ones that apply; without the script every field shows.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import kinds
from games.live.table_forms import TableForm
from tournaments.formats.best_of import BEST_OF
from tournaments.formats.seating import MAX_TABLE_SIZE, MIN_TABLE_SIZE
from tournaments.models import SOLITAIRE_FORMATS, TABLE_FORMATS, Tournament
from tournaments.services import SWISS_ROUNDS
from tournaments.solitaire_events import DEAL_LIMITS


def _up_to_players(count: int) -> str:
    return ngettext("up to %(count)d player", "up to %(count)d players", count) % {"count": count}


def _table_size(count: int) -> str:
    if count == MIN_TABLE_SIZE:
        return gettext("Heads-up (2)")
    return gettext("Up to %(count)d at a table") % {"count": count}


def _best_of(count: int) -> str:
    return gettext("One game") if count == 1 else gettext("Best of %(count)d") % {"count": count}


def _swiss_rounds() -> str:
    return gettext("A Swiss event plays %(low)d to %(high)d rounds.") % {
        "low": SWISS_ROUNDS[0],
        "high": SWISS_ROUNDS[1],
    }


def _deal_count() -> str:
    return gettext("%(low)d to %(high)d; a par match has its own six.") % {
        "low": DEAL_LIMITS[0],
        "high": DEAL_LIMITS[1],
    }


# The fields are made at import: their words are worded when a page shows them, in its language.
up_to_players = lazy(_up_to_players, str)
table_size_choice = lazy(_table_size, str)
best_of_choice = lazy(_best_of, str)
swiss_rounds_help = lazy(_swiss_rounds, str)
deal_count_help = lazy(_deal_count, str)

STARTS_IN_MINUTES = [
    (2, _("in 2 minutes")),
    (5, _("in 5 minutes")),
    (15, _("in 15 minutes")),
    (30, _("in 30 minutes")),
    (60, _("in an hour")),
    (180, _("in 3 hours")),
    (1440, _("in a day")),
    (10080, _("in a week")),
]
FORMAT = Tournament.Format
BY_ROUNDS = (FORMAT.ROUND_ROBIN, FORMAT.SWISS)
DEFAULT_SWISS_ROUNDS = 5


class TournamentForm(TableForm):
    name = forms.CharField(max_length=80, label=_("Name"))
    max_entrants = forms.TypedChoiceField(
        choices=[(n, up_to_players(n)) for n in (4, 8, 16, 32, 64)], coerce=int, initial=8, label=_("Size")
    )
    starts_in = forms.TypedChoiceField(choices=STARTS_IN_MINUTES, coerce=int, initial=15, label=_("Starts"))
    fill_with_bots = forms.BooleanField(required=False, label=_("Bots fill the empty places at the start"))
    format = forms.ChoiceField(
        choices=[(value, FORMAT(value).label) for value in TABLE_FORMATS],
        initial=FORMAT.SINGLE_ELIMINATION,
        label=_("Format"),
    )
    third_place = forms.BooleanField(required=False, label=_("A match for third place"))
    rounds = forms.IntegerField(
        min_value=SWISS_ROUNDS[0],
        max_value=SWISS_ROUNDS[1],
        required=False,
        initial=DEFAULT_SWISS_ROUNDS,
        label=_("Rounds"),
        help_text=swiss_rounds_help(),
    )
    table_size = forms.TypedChoiceField(
        choices=[(n, table_size_choice(n)) for n in range(MIN_TABLE_SIZE, MAX_TABLE_SIZE + 1)],
        coerce=int,
        required=False,
        initial=MIN_TABLE_SIZE,
        label=_("Table size"),
        help_text=_("Bigger tables: a place at a table of n earns n - place points."),
    )
    best_of = forms.TypedChoiceField(
        choices=[(n, best_of_choice(n)) for n in BEST_OF],
        coerce=int,
        required=False,
        initial=1,
        label=_("Games a match"),
        help_text=_("Heads-up matches only; a tied game is replayed."),
    )

    field_order = ["name", "game", "max_entrants", "starts_in", "fill_with_bots", "clock_seconds"]

    games = tuple(spec for spec in kinds.TABLE_GAMES if spec.in_tournaments)
    hidden_options = ("players",)  # the table size sets a match's players

    FORMAT_FIELDS: dict[str, tuple[str, ...]] = {
        "third_place": (FORMAT.SINGLE_ELIMINATION,),
        "rounds": (FORMAT.SWISS,),
        "table_size": BY_ROUNDS,
        "best_of": TABLE_FORMATS,
    }
    """The formats each format field applies to."""

    def common_fields(self) -> list[forms.BoundField]:
        """The fields of every tournament; the format and its options have a fieldset of their own."""
        own = {"format", *self.FORMAT_FIELDS}
        return [field for field in super().common_fields() if field.name not in own]

    def format_fields(self) -> list[tuple[forms.BoundField, str, str]]:
        """Each format option with the formats it applies to and the games (table size: those
        that seat more than two), space-separated for the page's script."""
        table_games = " ".join(spec.slug for spec in self.games if "players" in spec.engine.options)
        return [
            (self[name], " ".join(formats), table_games if name == "table_size" else "")
            for name, formats in self.FORMAT_FIELDS.items()
        ]

    def clean(self) -> dict[str, Any]:
        """An option of another format is not checked here: if it was set away from its
        default, ``services.create_tournament`` says why it does not fit."""
        data = super().clean()
        chosen = data.get("format")
        for name, formats in self.FORMAT_FIELDS.items():
            if chosen not in formats:
                self.errors.pop(name, None)
        return data

    def starts_at(self) -> dt.datetime:
        return timezone.now() + dt.timedelta(minutes=self.cleaned_data["starts_in"])

    def tournament_options(self) -> dict[str, Any]:
        """``services.create_tournament``'s arguments, the creator aside."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "game": data["game"],
            "config": self.config(),
            "clock_seconds": data["clock_seconds"],
            "max_entrants": data["max_entrants"],
            "starts_at": self.starts_at(),
            "fill_with_bots": data["fill_with_bots"],
            "rated": data["rated"],
            **self.format_options(),
        }

    def format_options(self) -> dict[str, Any]:
        """The format and its options for ``services.create_tournament``; one left out (the
        script disables those that do not apply) or not valid for another format takes its
        default."""
        data = self.cleaned_data
        return {
            "format": data["format"],
            "third_place": bool(data.get("third_place")),
            "rounds": data.get("rounds"),
            "table_size": data.get("table_size") or MIN_TABLE_SIZE,
            "best_of": data.get("best_of") or 1,
        }


WINDOW_MINUTES = [
    (15, _("15 minutes")),
    (30, _("30 minutes")),
    (60, _("an hour")),
    (180, _("3 hours")),
    (1440, _("a day")),
    (10080, _("a week")),
]
DEFAULT_DEALS = 5


class SolitaireEventForm(forms.Form):
    """A solitaire event (TN-8): everyone plays the same deals within a window. Whether the
    options make one is ``services.create_tournament``'s to say, as for the table formats.
    Prefixed: it shares its page with the table tournaments' form."""

    prefix = "event"
    name = forms.CharField(max_length=80, label=_("Event name"))
    game = forms.ChoiceField(
        choices=[(spec.slug, spec.name) for spec in kinds.SOLITAIRE], label=_("Solitaire game")
    )
    format = forms.ChoiceField(
        choices=[(value, FORMAT(value).label) for value in SOLITAIRE_FORMATS],
        initial=FORMAT.SOLITAIRE,
        label=_("Event format"),
        help_text=_("A par match is Pyramid's six deals with par scoring; its game must have one."),
    )
    deal_count = forms.IntegerField(
        min_value=DEAL_LIMITS[0],
        max_value=DEAL_LIMITS[1],
        initial=DEFAULT_DEALS,
        required=False,
        label=_("Deals"),
        help_text=deal_count_help(),
    )
    window_minutes = forms.TypedChoiceField(
        choices=WINDOW_MINUTES, coerce=int, initial=60, label=_("Time to play the deals")
    )
    max_entrants = forms.TypedChoiceField(
        choices=[(n, up_to_players(n)) for n in (10, 50, 100, 500, 1000)],
        coerce=int,
        initial=100,
        label=_("Event size"),
    )
    starts_in = forms.TypedChoiceField(
        choices=STARTS_IN_MINUTES, coerce=int, initial=15, label=_("Event starts")
    )

    def starts_at(self) -> dt.datetime:
        return timezone.now() + dt.timedelta(minutes=self.cleaned_data["starts_in"])

    def tournament_options(self) -> dict[str, Any]:
        """``services.create_tournament``'s arguments, the creator aside: no table, so no
        clock or table options."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "game": data["game"],
            "config": None,
            "clock_seconds": 0,
            "max_entrants": data["max_entrants"],
            "starts_at": self.starts_at(),
            "format": data["format"],
            "deal_count": data["deal_count"],
            "window_minutes": data["window_minutes"],
        }
