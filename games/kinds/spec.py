"""What the site knows of one game, beside its rules: the record every module asks.

A game's spec names its engine (which holds the rules, the bot, the turn-clock move, the
seats and the options with their bounds), says how the site presents it (name, pitch,
rules section, templates, forms) and how its steps read in words. Each game's spec lives
in its own module, ``games.kinds.<slug>``; ``games.kinds`` lists them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.utils.translation import gettext_lazy
from markupsafe import Markup

from games.engine import get_engine
from games.engine.base import Engine
from games.kinds.option_forms import OptionField, option_fields
from games.kinds.solitaire import LineStep, card_picture

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    from games.kinds.words import Step
    from games.models import Seat


class GameSpec(ABC):
    """One game as the site presents it; subclasses fill in the class attributes."""

    slug: ClassVar[str]
    name: ClassVar[StrOrPromise]
    players_label: ClassVar[StrOrPromise]
    """Who plays it, as the game list says: "Solitaire", "2-6 players"."""
    pitch: ClassVar[StrOrPromise]
    rules_anchor: ClassVar[str]
    """The id of the game's section on the rules page (docs/rules.md)."""
    invite: ClassVar[StrOrPromise]
    """What the home page invites to do in this game: "run the peaks in Tri-Peaks"."""
    option_fields: ClassVar[Sequence[OptionField]] = ()
    """The options a player may choose when starting a game, as form fields."""

    @property
    def engine(self) -> Engine[Any, Any]:
        return get_engine(self.slug)

    @property
    def solitaire(self) -> bool:
        return not self.engine.at_tables

    def template(self, part: str) -> str:
        """The game's own template for ``part`` ("board", "table", "variant", ...)."""
        return f"games/kinds/{self.slug}/{part}.html"

    @property
    def variant_template(self) -> str:
        return self.template("variant")

    def seat_count(self, config: Mapping[str, Any]) -> int:
        return self.engine.seat_count(config)

    def options_form_fields(self) -> dict[str, forms.Field]:
        """Form fields for ``option_fields``, bounded by the engine's own options."""
        return option_fields(self.engine.options, self.option_fields)

    def option_errors(self, config: dict[str, Any]) -> dict[str, str]:
        """Problems with a form's options that no single field shows, by option key."""
        return {}

    @abstractmethod
    def narrate(self, step: Step) -> str:
        """One sentence saying what ``step``'s action did (see ``games.core.narration``)."""

    @abstractmethod
    def standing(self, view: Any, names: Sequence[str]) -> list[dict[str, Any]]:
        """The scores or chips of a public view: ``[{"label", "value"}]``."""


@dataclass(frozen=True)
class SoloMatchRule:
    """How a game's match of deals is played: how many deals, with which config (no undo and
    no hint in any of them), and what its total is compared with."""

    name: StrOrPromise
    deals: int
    config: Mapping[str, Any]
    par: int
    scoring: str
    """How a deal is scored, in a few words, for the match's page (marked with ``gettext_noop``:
    the page translates it)."""
    rules_anchor: str
    """The id of the rules page's part on that scoring, for the page's link to it."""


class SolitaireSpec(GameSpec):
    players_label = gettext_lazy("Solitaire")
    prompt: ClassVar[StrOrPromise]
    """What the message line says while nothing else is to be said."""
    picks_pairs: ClassVar[bool] = False
    """A click on a card waits for a second card (a pair) unless it is a move alone."""
    extra_keys: ClassVar[tuple[tuple[str, str], ...]] = ()
    """Keyboard keys only this game has, as (key, what it does) for the key help line."""
    match: ClassVar[SoloMatchRule | None] = None
    """A match of several deals played one after another and scored in total, if the game
    has one (Pyramid's par match, PY-8)."""

    @property
    def board_template(self) -> str:
        return self.template("board")

    @abstractmethod
    def board(self, view: Any) -> dict[str, Any]:
        """The template context of the board: cells, its size in card units, and the piles."""

    def extra_stats(self, view: Any) -> list[tuple[str, str]]:
        """Status-bar figures only this game has, as (label, value)."""
        return []

    @abstractmethod
    def describe_action(self, text: str) -> str:
        """An action in words, as a move list or a replay says it."""

    def action_cards(self, text: str) -> tuple[str, ...]:
        """The cards an action moves (for the pictures in a move list)."""
        return tuple(getattr(self.engine.parse_action(text), "cards", ()))

    def describe_line(self, line: Sequence[str]) -> list[LineStep]:
        """A line of play as numbered steps with the cards it moves (solutions, move lists)."""
        return [
            LineStep(
                number, text, self.describe_action(text), [card_picture(c) for c in self.action_cards(text)]
            )
            for number, text in enumerate(line, start=1)
        ]


class TableSpec(GameSpec):
    in_tournaments: ClassVar[bool] = True
    tie_replay_word: ClassVar[str] = "game"
    """What a tie replay deals: a "hand" or a "game"."""
    demo_series: ClassVar[Mapping[str, Any] | None] = None
    """The engine config of the casual series ``make run`` seeds, for the one game that has it."""

    @property
    def table_template(self) -> str:
        return self.template("table")

    def table_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """The config of a table opened with the form's ``config``."""
        return dict(config)

    def tournament_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """Tournament matches are heads-up: a game with a number of players gets two."""
        config = dict(config)
        if "players" in self.engine.options:
            config["players"] = 2
        return config

    def public_html(self, view: Any, seats: Sequence[Seat], words: Mapping[str, Any]) -> dict[str, Markup]:
        """Parts of the game's template that every viewer of a version sees alike (its figures,
        the last showdown), drawn once for them all as HTML with the version's public part
        (``table_presenter.public_area``), from the spectators' view and the public ``words``
        (the phase's name, the showdown's rows): by their keys in ``table_presenter.HTML_KEYS``.
        None by default: the game's template draws them."""
        return {}

    @abstractmethod
    def game_area(
        self,
        view: Any,
        seats: Sequence[Seat],
        me: int | None,
        to_act: int | None,
        *,
        live: bool,
        version: int = 0,
    ) -> dict[str, Any]:
        """What the game's table template draws from one view; ``live=False`` shows no controls,
        and live ones send back the game's ``version`` with a move."""
