"""The live table's Jinja2 environment (games/live/live_templates.py) keeps what its templates
relied on under Django's engine: escaping, empty missing names, Django's ISO dates."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from types import SimpleNamespace

from django.template import Context, Template, engines
from django.urls import reverse
from django.utils import timezone


def live(source: str, **context: object) -> str:
    return engines["jinja2"].from_string(source).render(context)


def test_what_is_drawn_is_escaped_and_a_name_keeps_its_title() -> None:
    name = 'Bot "<Thirteen>" & co'
    assert live("{{ n }}", n=name) == "Bot &#34;&lt;Thirteen&gt;&#34; &amp; co"
    # The filter's own markup (Django's SafeString) is not escaped again.
    assert live("{{ n|player_name }}", n=name) == Template(
        "{% load player_names %}{{ n|player_name }}"
    ).render(Context({"n": name}))


def test_a_missing_name_or_a_missing_objects_attribute_is_empty_not_an_error() -> None:
    # As under Django's engine: a table outside a tournament has no tournament_game, and its
    # template asks for table.tournament_game.match.tournament.
    table = SimpleNamespace(pk=3)
    source = (
        "[{{ absent }}|{{ table.tournament_game.match.tournament.name }}|"
        "{% if table.nothing.deeper %}x{% endif %}]"
    )
    assert live(source, table=table) == "[||]"


def test_a_dicts_key_is_read_first_and_its_methods_stay_within_reach() -> None:
    class Row(dict[str, object]):
        """A dict that is not a plain one: read as Jinja reads it, attribute first."""

    row = {"where": "0,2", "items": "a key"}
    assert live("{{ row.where }}|{{ row.items }}|{{ row.missing }}", row=row) == "0,2|a key|"
    assert live("{% for k, v in row.items() %}{{ k }}{% endfor %}", row={"a": 1, "b": 2}) == "ab"
    assert live("{{ row.items is callable }}", row=Row(items="shadowed")) == "True"
    assert live("{{ row.where }}", row=SimpleNamespace(where="an attribute")) == "an attribute"


def test_iso_time_is_the_moment_of_djangos_date_c_in_utc_whatever_zone_is_active() -> None:
    """A frame is drawn once for every viewer of a version, so its times name no one's zone."""
    moment = dt.datetime(2026, 11, 24, 23, 30, 5, 123456, tzinfo=zoneinfo.ZoneInfo("Europe/Paris"))
    with timezone.override(zoneinfo.ZoneInfo("Pacific/Auckland")):
        django = Template("{{ m|date:'c' }}").render(Context({"m": moment}))
        drawn = live("{{ m|iso_time }}", m=moment)
    assert drawn == "2026-11-24T22:30:05.123456+00:00"
    assert dt.datetime.fromisoformat(drawn) == dt.datetime.fromisoformat(django)


def test_url_and_capfirst_are_djangos() -> None:
    assert live("{{ url('replay', 7) }}") == reverse("replay", args=[7])
    assert live("{{ 'call 3'|capfirst }} {{ 'fold'|capfirst }}") == "Call 3 Fold"


def test_a_templates_globals_are_one_plain_dict_over_the_environments() -> None:
    """Copied into every context a frame makes: a dict is copied in C, a ChainMap key by key."""
    template = engines["jinja2"].env.from_string("{{ url('replay', n) }}", globals={"n": 4})
    assert type(template.globals) is dict
    assert template.render() == reverse("replay", args=[4])
    # A template's own globals stay its own.
    assert "n" not in engines["jinja2"].env.globals
