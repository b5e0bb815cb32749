"""The form that opens a live table: the game, the clock, and each table game's options.

Each game's options are its spec's (``games.kinds``), bounded by its engine; their fields
are named ``<game>_<option>``, so two games may share an option's name. Only the chosen
game's fields count: a field left empty takes the engine's default, and the other games'
fields are neither required nor checked.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.choices import CallableChoiceIterator
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import kinds
from games.kinds.spec import TableSpec
from games.live import turn_clocks
from games.live.clock_words import duration_words

LIVE_SPEEDS = (15, 30, 60, 120, 300, 600)
"""The live clocks offered, in seconds a turn; any other within ``turn_clocks.LIVE_CLOCKS``
is still taken (an older form, the API)."""
DEFAULT_CLOCK = 30


def clock_choices() -> list[tuple[str, list[tuple[int, str]]]]:
    """The speeds, grouped as BGA and lichess group theirs: live, then turn-based."""
    return [
        (gettext("Live: per turn"), [(seconds, duration_words(seconds)) for seconds in LIVE_SPEEDS]),
        (
            gettext("Turn-based: per move, no need to stay on the page"),
            [(seconds, duration_words(seconds)) for seconds in turn_clocks.TURN_BASED_CLOCKS],
        ),
    ]


class ClockField(forms.IntegerField):
    """A table's (or a tournament's) speed: a choice among ``clock_choices``, posted as the
    clock's seconds (``clock_seconds``), refused with one clear sentence if it is neither a
    live clock nor an offered turn-based speed."""

    widget = forms.Select

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("initial", DEFAULT_CLOCK)
        kwargs.setdefault("label", _("Speed"))
        kwargs.setdefault(
            "help_text",
            _(
                "Live: play now, with a clock for each turn. Turn-based: play a move when it suits you; "
                "you are told when it is your turn."
            ),
        )
        kwargs.setdefault("error_messages", {"invalid": turn_clocks.CLOCK_REFUSED})
        super().__init__(**kwargs)
        # Drawn anew at each rendering, in the language of its request.
        self.widget.choices = CallableChoiceIterator(clock_choices)  # type: ignore[attr-defined]

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value is not None and not turn_clocks.valid_clock(value):
            raise forms.ValidationError(turn_clocks.CLOCK_REFUSED, code="invalid_clock")


def _field_name(spec: TableSpec, key: str) -> str:
    return f"{spec.slug}_{key}"


class TableForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"))
    clock_seconds = ClockField()
    rated = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Rated: with people in every seat, the result moves their ratings"),
    )

    games: tuple[TableSpec, ...] = kinds.TABLE_GAMES
    hidden_options: tuple[str, ...] = ()
    """Options a subclass fixes for every game (a tournament's matches are heads-up)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        game_field = self.fields["game"]
        assert isinstance(game_field, forms.ChoiceField)
        game_field.choices = [(spec.slug, spec.name) for spec in self.games]
        game_field.initial = self.games[0].slug
        for spec in self.games:
            for key, field in spec.options_form_fields().items():
                if key not in self.hidden_options:
                    field.required = False
                    self.fields[_field_name(spec, key)] = field

    def option_groups(self) -> list[tuple[TableSpec, list[forms.BoundField]]]:
        """Each game's option fields, for a fieldset per game (the page shows the chosen one)."""
        return [
            (spec, [self[_field_name(spec, key)] for key in self._options_of(spec)]) for spec in self.games
        ]

    def common_fields(self) -> list[forms.BoundField]:
        """The fields every game has (the game itself, the clock, a tournament's own)."""
        options = {_field_name(spec, key) for spec in self.games for key in self._options_of(spec)}
        return [field for field in self.visible_fields() if field.name not in options]

    def spec(self) -> TableSpec:
        return kinds.get_table_game(self.cleaned_data["game"])

    def _options_of(self, spec: TableSpec) -> list[str]:
        """The option keys of ``spec`` this form offers (from the spec: no field is built)."""
        return [field.key for field in spec.option_fields if field.key not in self.hidden_options]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if "game" not in data:
            return data
        spec = self.spec()
        chosen = {_field_name(spec, key) for key in self._options_of(spec)}
        for other in self.games:
            for key in self._options_of(other):
                name = _field_name(other, key)
                if name not in chosen:
                    self.errors.pop(name, None)
        if not any(name in self.errors for name in chosen):
            for key, message in spec.option_errors(self.config()).items():
                self.add_error(_field_name(spec, key), message)
        return data

    def config(self) -> dict[str, Any]:
        """The chosen game's options, each left empty taking the engine's default."""
        spec = self.spec()
        defaults = spec.engine.normalize_config(None)
        config = {}
        for key in self._options_of(spec):
            value = self.cleaned_data.get(_field_name(spec, key))
            config[key] = defaults[key] if value is None else value
        return config


class LobbyTableForm(TableForm):
    """The lobby's form: a table of its own may be private (LP-9); a tournament's never is."""

    private = forms.BooleanField(
        required=False,
        initial=False,
        label=_("Private table"),
        help_text=_("Not listed in the lobby: only people you send its link to can watch or sit."),
    )
    chat_off = forms.BooleanField(
        required=False,
        initial=False,
        label=_("No chat at this table"),
        help_text=_("Nobody chats here; you can turn it on from the table's page."),
    )
    invite = forms.CharField(
        required=False,
        max_length=200,
        label=_("Invite (optional)"),
        help_text=_("Usernames, separated by commas: each gets a notice with Accept and Decline."),
    )

    def clean_invite(self) -> list[str]:
        """The names to invite once the table is open; a name nobody has refuses the form."""
        from accounts.models import User
        from games.core.errors import GameError
        from games.live import invitations

        try:
            names = invitations.parse_names(self.cleaned_data.get("invite") or "")
        except GameError as exc:
            raise forms.ValidationError(str(exc)) from None
        for name in names:
            if not User.objects.named(name).filter(is_active=True).exists():
                refusal = _("There is no one called “%(name)s”.")
                raise forms.ValidationError(refusal, params={"name": name[:40]})
        return names
