"""Issue 47: the rules page in Italian (docs/rules.it.md) for a reader of Italian, with the
English page's anchors: the games' pages, the lobby and the rules' own list link to
``/rules/#<id>`` whatever the reader's language, so a translated heading keeps the English id.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

ITALIAN = "it-IT,it;q=0.9,en;q=0.5"
ENGLISH = "en-GB,en;q=0.9"
"""Browsers' ``Accept-Language``."""

pytestmark = pytest.mark.django_db


def rules_page(accept_language: str) -> str:
    response = Client().get("/rules/", headers={"accept-language": accept_language})
    assert response.status_code == 200
    return response.content.decode()


def ids(html: str) -> list[str]:
    return re.findall(r'\bid="([^"]+)"', html)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_an_italian_reader_gets_the_rules_in_italian_in_the_seeds_own_words() -> None:
    page = text(rules_page(ITALIAN))
    for italian in (
        "Devi smontare una piramide di carte togliendo coppie che sommano 13.",
        "Il valore delle carte",
        "La classifica delle mani",
        "Piramide capostipite",  # the Italian club's words for the Capstone and its colours
        "Piramide viola perfetta e piena",
        "Piramide arancione perfetta di secondo livello",
        "Al tuo turno puoi bussare",
        "Eventi di solitario",
    ):
        assert italian in page, italian
    for english in (
        "A one-player game with a standard 52-card deck.",
        "Hand ranking",
        "Perfect Purple Full Pyramid",
        "On your turn you may",
    ):
        assert english not in page, english
    # What the English page leaves out for players, the Italian one does too.
    assert "RULES.md" not in page and "{#" not in page and "derive_seed" not in page
    assert re.findall(r"\b[A-Z]{2}-\d+\b", page) == []
    # An English reader still reads the English file.
    assert "A one-player game with a standard 52-card deck." in text(rules_page(ENGLISH))


def test_the_italian_rules_have_the_english_pages_anchors_in_the_same_order() -> None:
    english, italian = rules_page(ENGLISH), rules_page(ITALIAN)
    assert ids(italian) == ids(english)
    # Headings and rule ids alike, each on the same kind of element as in English.
    anchors = r'<(h[1-6]|span class="rule-anchor")[^>]*\bid="([^"]+)"'
    assert re.findall(anchors, italian) == re.findall(anchors, english)
    assert len(re.findall(anchors, english)) > 80
    # Every link of the page into itself lands (the list of games above the rules included).
    for target in re.findall(r'href="#([^"]+)"', italian):
        assert target in ids(italian), target
    heading = '<h3 id="hand-ranking-best-first"><span class="rule-anchor" id="TR-12"></span>'
    assert heading + "La classifica delle mani, dalla migliore</h3>" in italian
