"""Issue 47: every page of ``tests.page_tour``, read in Italian, holds none of the English
catalogue's longer messages verbatim.

"Longer": a message's text between its placeholders, in pieces of at least ``MIN_WORDS`` words
and ``MIN_CHARS`` characters. Shorter ones ("Play", "Triad") are names or match Italian
by chance; a sentence left in English is what a reader notices. The pages come from Django's
test client, as the person each is for with an Italian browser (``Accept-Language: it``): the
check needs the HTML, not a browser (axe reads the Italian pages in
tests/e2e/test_accessibility.py). A message found on a page is reported with the files the
catalogue says it comes from, so its owner knows where to look: if the catalogue has it
translated, the page drew it before Italian was active (a gettext at import, say); if not,
its Italian is missing from locale/it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import User
from tests.e2e.test_tournament_journey import in_thread
from tests.page_tour import BUILDERS, STALE_TOKEN, Visit
from tests.site.test_translations import read_po

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "it" / "LC_MESSAGES" / "django.po"
ITALIAN_BROWSER = "it-IT,it;q=0.9"
"""The ``Accept-Language`` of a browser asking for Italian."""
MIN_WORDS = 4
MIN_CHARS = 20
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{\w*\}")
SAME_IN_ITALIAN: dict[str, str] = {}
"""Longer messages whose Italian is the English text itself, with why: they may appear on an
Italian page. None so far; the test below keeps this honest (a message translated to itself
and missing here fails it, and so does one listed here that is not)."""


@dataclass(frozen=True)
class Message:
    msgid: str
    translations: tuple[str, ...]
    sources: tuple[str, ...]
    """The catalogue's ``#:`` references, without line numbers."""


def read_catalogue(path: Path = CATALOGUE) -> list[Message]:
    """Every live message of a .po file: singular and plural msgids alike (obsolete ones left out)."""
    _header, entries = read_po(path)
    return [
        Message(msgid, entry.strings, entry.sources)
        for entry in entries
        for msgid in (entry.msgid, entry.plural)
        if msgid
    ]


def spaced(text: str) -> str:
    return " ".join(text.split())


def longer_pieces(msgid: str) -> list[str]:
    """The pieces of a message between its placeholders that are long enough to look for."""
    pieces = (spaced(piece) for piece in PLACEHOLDER.split(msgid))
    return [piece for piece in pieces if len(piece.split()) >= MIN_WORDS and len(piece) >= MIN_CHARS]


def to_look_for(messages: list[Message]) -> dict[str, Message]:
    wanted: dict[str, Message] = {}
    for message in messages:
        if spaced(message.msgid) in SAME_IN_ITALIAN:
            continue
        for piece in longer_pieces(message.msgid):
            wanted.setdefault(piece, message)
    return wanted


def page_text(content: bytes) -> str:
    """The page as a reader meets its words: entities decoded, runs of space as one (a
    template's line breaks inside a sentence are a space to the reader)."""
    return spaced(html.unescape(content.decode()))


def italian_pages(visits: list[Visit]) -> dict[str, str]:
    """Each visit's page as its person reads it with an Italian browser."""
    clients: dict[str | None, Client] = {}
    pages = {}
    for visit in visits:
        if visit.user not in clients:
            clients[visit.user] = Client(HTTP_ACCEPT_LANGUAGE=ITALIAN_BROWSER)
            if visit.user is not None:
                clients[visit.user].force_login(User.objects.get(username=visit.user))
        client = clients[visit.user]
        response = client.get(visit.path)
        if visit.stale_form:
            strict = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=ITALIAN_BROWSER)
            strict.cookies = client.cookies
            response = strict.post(visit.path, {"csrfmiddlewaretoken": STALE_TOKEN})
        status = response.status_code
        assert status == visit.status, f"{visit.name} ({visit.path}) answered {status}"
        assert response.headers["Content-Language"] == "it", f"{visit.name}: not served in Italian"
        pages[f"{visit.name} ({visit.path})"] = page_text(response.content)
    return pages


def english_on(pages: dict[str, str], wanted: dict[str, Message]) -> dict[str, list[str]]:
    """Each English piece found, with the pages it is on."""
    found: dict[str, list[str]] = {}
    for where, text in pages.items():
        for piece in wanted:
            if piece in text:
                found.setdefault(piece, []).append(where)
    return found


def describe(found: dict[str, list[str]], wanted: dict[str, Message]) -> str:
    lines = []
    for piece, where in sorted(found.items(), key=lambda item: wanted[item[0]].sources):
        message = wanted[piece]
        state = "translated in locale/it" if any(message.translations) else "UNTRANSLATED in locale/it"
        lines.append(f"{piece!r} ({state}; from {', '.join(message.sources) or '?'})")
        lines.append(f"    on {len(where)} page(s): {'; '.join(where[:4])}{' ...' if len(where) > 4 else ''}")
    return "\n".join(lines)


def test_the_messages_same_in_italian_are_those_the_catalogue_translates_to_themselves() -> None:
    itself = {
        spaced(message.msgid)
        for message in read_catalogue()
        if longer_pieces(message.msgid) and spaced(message.msgid) in map(spaced, message.translations)
    }
    assert itself == set(SAME_IN_ITALIAN)


def test_the_check_finds_an_english_sentence_and_not_its_translation() -> None:
    """The control: the pieces looked for, and what a page's text looks like to the check."""
    assert longer_pieces("%(name)s discards %(count)s cards and waits for the others") == [
        "cards and waits for the others"
    ]
    assert longer_pieces("Play a card") == []
    message = Message("The game is over: you can't move.", ("La partita è finita.",), ("templates/x.html",))
    wanted = to_look_for([message])
    english = page_text(b"<p>The game is over:\n  you can&#x27;t move.</p>")
    assert english_on({"a page": english}, wanted) == {"The game is over: you can't move.": ["a page"]}
    assert english_on({"a page": page_text(b"<p>La partita \xc3\xa8 finita.</p>")}, wanted) == {}
    assert len(to_look_for(read_catalogue())) > 200  # the real catalogue has plenty to look for


@pytest.mark.django_db(transaction=True)
def test_no_page_of_the_tour_in_italian_holds_a_longer_english_message(celery_worker: Any) -> None:
    visits = [visit for build in BUILDERS.values() for visit in in_thread(build)]
    pages = italian_pages(visits)
    wanted = to_look_for(read_catalogue())
    found = english_on(pages, wanted)
    assert not found, (
        f"{len(found)} English message(s) on {len({p for where in found.values() for p in where})}"
        f" of {len(pages)} Italian pages:\n" + describe(found, wanted)
    )
