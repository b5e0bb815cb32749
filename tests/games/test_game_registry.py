"""One home per game: the registry (``games.kinds``) is the only list of games, each game's
site code lives in its own files, and its forms admit exactly what its engine admits."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django import forms
from django.template.loader import get_template

from games import kinds
from games.engine import engine_names
from games.engine.config import Integer, Option, integer, one_of
from games.kinds.option_forms import OptionField, option_field

BASE = Path(__file__).resolve().parents[2]
SLUGS = "|".join(spec.slug for spec in kinds.GAMES)
NAMED = re.compile(rf"""["']({SLUGS})["']""")


def own_files(slug: str) -> tuple[str, ...]:
    # A table game's live board is a Jinja2 template (games/live/live_templates.py).
    return (f"games/kinds/{slug}.py", *(f"templates/{d}games/kinds/{slug}/" for d in ("", "jinja2/")))


def test_no_module_outside_a_games_own_files_names_a_game() -> None:
    """The registry's one line lists the games; the engines (pure, with their solver) may
    name the games they play; everything else asks the registry."""
    allowed = ["games/kinds/__init__.py", "games/engine/", "/migrations/"]
    allowed += [path for spec in kinds.GAMES for path in own_files(spec.slug)]
    offenders = []
    for folder in ("games", "accounts", "tournaments", "config", "templates"):
        for path in sorted((BASE / folder).rglob("*")):
            relative = path.relative_to(BASE).as_posix()
            if path.suffix not in (".py", ".html") or any(part in relative for part in allowed):
                continue
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                if NAMED.search(line):
                    offenders.append(f"{relative}:{number}: {line.strip()}")
    assert offenders == []


def test_every_engine_has_a_spec_and_every_spec_its_templates() -> None:
    assert sorted(kinds.BY_SLUG) == sorted(engine_names())
    for spec in kinds.GAMES:
        assert spec.engine.name == spec.slug
        get_template(spec.variant_template)
        if isinstance(spec, kinds.TableSpec):
            get_template(spec.table_template)
            assert spec.engine.at_tables
        else:
            get_template(spec.template("board"))
            assert not spec.engine.at_tables


@pytest.mark.parametrize("spec", kinds.GAMES, ids=lambda spec: spec.slug)
def test_a_games_form_fields_have_its_engines_bounds(spec: kinds.GameSpec) -> None:
    for key, field in spec.options_form_fields().items():
        check = spec.engine.options[key].check
        if isinstance(field, forms.IntegerField):
            assert isinstance(check, Integer)
            assert (field.min_value, field.max_value) == (check.low, check.high)
        if isinstance(field, forms.TypedChoiceField):
            for value, _ in field.choices:
                assert check(field.coerce(value)) is None, (key, value)


def test_a_form_choice_the_engine_refuses_is_caught_when_the_form_is_built() -> None:
    with pytest.raises(ValueError, match="form choice 9"):
        option_field(Option(6, one_of(6, 8)), OptionField("cards", "Deal", ((6, "6"), (9, "9"))))
    field = option_field(Option(2, integer(0, allow_none=True)), OptionField("redeals", "Passes"))
    assert isinstance(field, forms.IntegerField) and not field.required and field.min_value == 0
