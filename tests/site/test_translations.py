"""Issue 47: the committed catalogues (locale/<language>/LC_MESSAGES) are what the site says,
whole, and what it runs on.

- ``make messages`` (``manage.py messages``) run on a copy of the code finds no message the
  committed catalogue lacks, and none it holds that the code no longer says: a string newly
  wrapped in a translation call, and not translated, fails here.
- Every message is translated, none fuzzy, placeholders and plural forms as msgfmt checks them.
- The committed .mo files (what ``make run`` reads: nothing compiles them on a fresh clone) say
  what their .po files say.
"""

from __future__ import annotations

import ast
import gettext
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings

from web.management.commands.messages import IGNORED, translated_languages

ROOT = Path(settings.BASE_DIR)
DOMAINS = ("django", "djangojs")
PLURAL_FORMS = {"it": "nplurals=2; plural=(n != 1);"}
"""GNU gettext's plural rule of each language: its catalogue must declare that one."""


@dataclass(frozen=True)
class Entry:
    context: str | None
    msgid: str
    plural: str | None
    strings: tuple[str, ...]
    fuzzy: bool
    sources: tuple[str, ...] = ()
    """The ``#:`` references, without line numbers."""

    @property
    def key(self) -> tuple[str | None, str, str | None]:
        return self.context, self.msgid, self.plural


def read_po(path: Path) -> tuple[dict[str, str], list[Entry]]:
    """A .po file's header (its fields) and its live entries (obsolete ``#~`` ones left out)."""
    entries: list[Entry] = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.strip().splitlines() if not line.startswith("#~")]
        fields: dict[str, str] = {}
        flags: set[str] = set()
        sources: list[str] = []
        current = ""
        for line in lines:
            if line.startswith("#,"):
                flags.update(flag.strip() for flag in line[2:].split(","))
            elif line.startswith("#:"):
                sources += [ref.rsplit(":", 1)[0] for ref in line[2:].split()]
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                fields[current] += ast.literal_eval(line)
            else:
                current, _, literal = line.partition(" ")
                fields[current] = ast.literal_eval(literal)
        if "msgid" not in fields:
            continue
        strings = tuple(value for name, value in sorted(fields.items()) if name.startswith("msgstr"))
        context, plural = fields.get("msgctxt"), fields.get("msgid_plural")
        found = Entry(
            context, fields["msgid"], plural, strings, "fuzzy" in flags, tuple(dict.fromkeys(sources))
        )
        entries.append(found)
    header = next((entry for entry in entries if entry.msgid == ""), None)
    assert header is not None, f"{path} has no header"
    fields = dict(line.split(": ", 1) for line in header.strings[0].splitlines() if ": " in line)
    return fields, [entry for entry in entries if entry.msgid != ""]


def catalogue(root: Path, language: str, domain: str, suffix: str = "po") -> Path:
    return root / "locale" / language / "LC_MESSAGES" / f"{domain}.{suffix}"


CATALOGUES = [(language, domain) for language in translated_languages() for domain in DOMAINS]


def test_every_language_but_the_source_one_has_both_catalogues() -> None:
    assert translated_languages() == ["it"]
    for language, domain in CATALOGUES:
        assert catalogue(ROOT, language, domain).is_file()
        assert catalogue(ROOT, language, domain, "mo").is_file()


@pytest.fixture(scope="module")
def remade(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the code (and of the committed catalogues) after ``manage.py messages``."""
    copy = tmp_path_factory.mktemp("messages") / "site"
    leave_out = shutil.ignore_patterns(*IGNORED, "__pycache__", "*.mo")
    shutil.copytree(ROOT, copy, ignore=leave_out)
    done = subprocess.run(
        [sys.executable, "manage.py", "messages", "--no-compile"],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return copy


@pytest.mark.parametrize(("language", "domain"), CATALOGUES)
def test_the_catalogue_holds_exactly_the_messages_the_code_says(
    remade: Path, language: str, domain: str
) -> None:
    _, committed = read_po(catalogue(ROOT, language, domain))
    _, current = read_po(catalogue(remade, language, domain))
    have, said = {entry.key for entry in committed}, {entry.key for entry in current}
    missing, stale = sorted(said - have, key=str), sorted(have - said, key=str)
    assert not missing and not stale, (
        f"locale/{language}/LC_MESSAGES/{domain}.po is out of date: run `make messages`, translate"
        f" what is new, and commit the .po and .mo files.\nNot in the catalogue: {missing}\n"
        f"No longer in the code: {stale}"
    )


@pytest.mark.parametrize(("language", "domain"), CATALOGUES)
def test_every_message_is_translated_and_none_is_fuzzy(language: str, domain: str) -> None:
    header, entries = read_po(catalogue(ROOT, language, domain))
    assert header["Language"] == language
    assert header["Plural-Forms"] == PLURAL_FORMS[language]
    untranslated = [entry.msgid for entry in entries if not all(entry.strings)]
    fuzzy = [entry.msgid for entry in entries if entry.fuzzy]
    assert not untranslated, f"untranslated in {language}/{domain}.po: {untranslated}"
    assert not fuzzy, f"fuzzy in {language}/{domain}.po: {fuzzy}"
    plural = [entry for entry in entries if entry.plural is not None]
    assert all(len(entry.strings) == 2 for entry in plural)
    # msgfmt's own checks: placeholders kept (python-format, python-brace-format), plural forms.
    checked = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(catalogue(ROOT, language, domain))],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr
    assert "fuzzy" not in checked.stderr and "untranslated" not in checked.stderr, checked.stderr


@pytest.mark.parametrize(("language", "domain"), CATALOGUES)
def test_the_committed_mo_says_what_its_po_says(tmp_path: Path, language: str, domain: str) -> None:
    compiled = tmp_path / f"{domain}.mo"
    subprocess.run(["msgfmt", "-o", str(compiled), str(catalogue(ROOT, language, domain))], check=True)
    with compiled.open("rb") as fresh, catalogue(ROOT, language, domain, "mo").open("rb") as committed:
        expected = gettext.GNUTranslations(fresh)._catalog  # type: ignore[attr-defined]
        found = gettext.GNUTranslations(committed)._catalog  # type: ignore[attr-defined]
    assert found == expected, f"locale/{language}/LC_MESSAGES/{domain}.mo is stale: run `make messages`"
