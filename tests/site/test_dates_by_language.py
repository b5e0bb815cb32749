"""Dates as each language writes them (config/formats): English "30 Nov 2026", Italian
"30 nov 2026" and "lunedì 30 novembre 2026", months and weekdays small, where Django's own
Italian catalogue capitalises them and English's "M" capitalises whatever it is given."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import formats, translation

from games.models import DailyChallenge

MOMENT = dt.datetime(2026, 11, 30, 14, 5)

WRITTEN = {
    "en": {
        "l j F Y": "Monday 30 November 2026",
        "DATE_FORMAT": "30 November 2026",
        "SHORT_DATE_FORMAT": "30 Nov 2026",
        "SHORT_DATETIME_FORMAT": "30 Nov 2026 14:05",
        "MONTH_DAY_FORMAT": "30 Nov",
        "YEAR_MONTH_FORMAT": "November 2026",
        "D": "Mon",
    },
    "it": {
        "l j F Y": "lunedì 30 novembre 2026",
        "DATE_FORMAT": "30 novembre 2026",
        "SHORT_DATE_FORMAT": "30 nov 2026",
        "SHORT_DATETIME_FORMAT": "30 nov 2026 14:05",
        "MONTH_DAY_FORMAT": "30 nov",
        "YEAR_MONTH_FORMAT": "novembre 2026",
        "D": "lun",
    },
}


@pytest.mark.parametrize("language", WRITTEN)
def test_each_format_the_pages_name_reads_as_the_language_writes_it(language: str) -> None:
    with translation.override(language):
        written = {name: formats.date_format(MOMENT, name) for name in WRITTEN[language]}
    assert written == WRITTEN[language]


@pytest.mark.django_db
def test_a_past_daily_challenge_is_headed_with_its_date_in_italian() -> None:
    DailyChallenge.objects.create(game="pyramid", date=dt.date(2026, 11, 16), seed=7, config={})
    page = Client().get("/daily/pyramid/2026-11-16/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "lunedì 16 novembre 2026" in page and "Novembre" not in page
