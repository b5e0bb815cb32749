"""Issue 47: what the tournaments' Python says (the forms' words, formats, rounds, countdowns,
schedules and refusals) reaches an Italian reader in Italian, and an English one in English:
worded when read, not when the module was imported."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone, translation

from tests.tournaments.support import person
from tournaments import selectors, services
from tournaments.models import Series, Tournament
from tournaments.services import TournamentError

ITALIAN = {"HTTP_ACCEPT_LANGUAGE": "it-IT,it;q=0.9"}


@pytest.mark.django_db
def test_the_tournament_forms_speak_the_readers_language() -> None:
    reader = Client(**ITALIAN)
    reader.force_login(person("lettrice"))
    italian = reader.get("/tournaments/").content.decode()
    for words in (
        "Eliminazione diretta",
        "Girone all&#x27;italiana",
        "fino a 8 giocatori",
        "Al meglio di 3",
        "Testa a testa (2)",
        "tra 15 minuti",
        "Evento in solitario",
        "Tempo per giocare le smazzate",
    ):
        assert words in italian
    assert "Single elimination" not in italian and "up to 8 players" not in italian
    # The forms are made once, at import: the next reader still gets their own language.
    other = Client(HTTP_ACCEPT_LANGUAGE="en")
    other.force_login(person("reader"))
    english = other.get("/tournaments/").content.decode()
    assert "Single elimination" in english and "up to 8 players" in english and "Best of 3" in english


@pytest.mark.parametrize(
    ("side", "number", "rounds", "format", "italian"),
    [
        ("winners", 3, 3, Tournament.Format.SINGLE_ELIMINATION, "Finale"),
        ("winners", 1, 4, Tournament.Format.SINGLE_ELIMINATION, "Turno a 16"),
        ("winners", 2, 3, Tournament.Format.DOUBLE_ELIMINATION, "Semifinali dei vincenti"),
        ("losers", 2, 3, Tournament.Format.DOUBLE_ELIMINATION, "Tabellone dei perdenti, turno 2"),
        ("grand_final", 1, 3, Tournament.Format.DOUBLE_ELIMINATION, "Finalissima"),
        ("", 4, 5, Tournament.Format.SWISS, "Turno 4"),
    ],
)
def test_round_names_in_italian(side: str, number: int, rounds: int, format: str, italian: str) -> None:
    tournament = Tournament(format=format, rounds=rounds)
    with translation.override("it"):
        assert selectors.round_label(tournament, side, number) == italian


def test_round_names_in_english_as_before() -> None:
    double = Tournament(format=Tournament.Format.DOUBLE_ELIMINATION, rounds=4)
    single = Tournament(format=Tournament.Format.SINGLE_ELIMINATION, rounds=4)
    with translation.override("en"):
        assert selectors.round_label(double, "winners", 1) == "Winners' round of 16"
        assert selectors.round_label(single, "winners", 2) == "Quarter-finals"


@pytest.mark.parametrize(
    ("seconds", "italian"),
    [(0, "inizia ora"), (3 * 86400 + 7200, "inizia tra 3 giorni 2 h"), (250, "inizia tra 4 min 10 s")],
)
def test_the_countdown_says_in_italian_what_countdown_js_says(seconds: int, italian: str) -> None:
    with translation.override("it"):
        assert selectors.starts_in(seconds) == italian


def test_a_series_schedule_in_italian() -> None:
    weekly = Series(
        repeat=Series.Repeat.WEEKLY, weekday=Series.Weekday.SUNDAY, hour=18, minute=30, opens_minutes=1530
    )
    every = Series(repeat=Series.Repeat.EVERY_MINUTES, every_minutes=5, minute=3, opens_minutes=30)
    with translation.override("it"):
        assert weekly.schedule_text == "Ogni domenica alle 18:30 UTC"
        assert weekly.opens_text == "1 giorno 1 h 30 min"
        assert every.schedule_text == "Ogni 5 minuti, dal minuto :03"
    with translation.override("en"):
        assert weekly.schedule_text == "Weekly on Sundays at 18:30 UTC"
        assert weekly.opens_text == "1 day 1 h 30 min"


@pytest.mark.django_db
def test_a_refusal_in_the_readers_language() -> None:
    options = {
        "name": "Coppa",
        "game": "triad",
        "config": None,
        "clock_seconds": 30,
        "max_entrants": 8,
        "starts_at": timezone.now() - dt.timedelta(minutes=1),
        "fill_with_bots": False,
        "rated": False,
        "format": Tournament.Format.SINGLE_ELIMINATION,
    }
    creator = person("italo")
    with translation.override("it"), pytest.raises(TournamentError) as refused:
        services.create_tournament(creator=creator, **options)
    assert str(refused.value) == "L'inizio è nel passato: scegli un orario futuro."
