"""``make messages``: every message of the site into each language's catalogue, then compiled.

Django's makemessages for both domains (``django``: Python, templates and the e-mails' text
files; ``djangojs``: the site's scripts), for every language of ``settings.LANGUAGES`` but the
source one, then compilemessages. Messages no longer in the code are dropped, so a catalogue
holds exactly what the site says (tests/site/test_translations.py checks that it does).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

IGNORED = [
    ".*",
    "node_modules",
    "var",
    "test-artifacts*",
    "tests",
    "bench",
    "static/vendor",
    "capstone.egg-info",
]
"""Not the site's own messages: tools, tests, vendored scripts, what runs leave behind."""


def translated_languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


class Command(BaseCommand):
    help = "Updates locale/<language>/LC_MESSAGES/django.po and djangojs.po, then compiles them."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--no-compile", action="store_true", help="only update the .po files")

    def handle(self, *args: Any, **options: Any) -> None:
        languages = translated_languages()
        common = {
            "locale": languages,
            "ignore_patterns": IGNORED,
            "no_obsolete": True,
            # File names without line numbers: a line moved changes no catalogue.
            "add_location": "file",
            "verbosity": options["verbosity"],
        }
        call_command("makemessages", domain="django", **common)
        call_command("makemessages", domain="djangojs", **common)
        if not options["no_compile"]:
            call_command(
                "compilemessages", locale=languages, ignore_patterns=IGNORED, verbosity=options["verbosity"]
            )
